package workqueue_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"example.com/walkthrough/workshop/scenario"
)

// The benchmarks run ours and client-go's side by side on the same input,
// named .../ours and .../client-go so `make bench` can print the ratio.
// They use real time: no bubble here.

// benchKeys are the items the benchmarks add, made once so that making
// strings is not what they measure.
var benchKeys = func() []string {
	keys := make([]string, 200_000)
	for i := range keys {
		keys[i] = fmt.Sprintf("ns/item-%d", i)
	}
	return keys
}()

// eachImpl runs body as a sub-benchmark per implementation.
func eachImpl(b *testing.B, body func(b *testing.B, im impl)) {
	for _, side := range []struct{ name, impl string }{{"ours", scenario.Reference}, {scenario.ClientGo, scenario.ClientGo}} {
		im := impls[side.impl]
		b.Run(side.name, func(b *testing.B) { body(b, im) })
	}
}

// BenchmarkAddGetDone is one worker's cycle: Add, Get, Done, on one
// goroutine.
func BenchmarkAddGetDone(b *testing.B) {
	b.Run("serial", func(b *testing.B) {
		eachImpl(b, func(b *testing.B, im impl) {
			q := im.NewQueue(plainQueue, "", nil)
			defer q.ShutDown()
			i := 0
			for b.Loop() {
				q.Add(benchKeys[i%1024])
				item, _ := q.Get()
				q.Done(item)
				i++
			}
		})
	})
	for _, workers := range []int{2, 8} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			eachImpl(b, func(b *testing.B, im impl) { parallelWorkers(b, im, workers) })
		})
	}
}

// parallelWorkers adds b.N items over 1024 keys while workers Get and Done
// them, and stops the clock when the workers have emptied the queue.
func parallelWorkers(b *testing.B, im impl, workers int) {
	q := im.NewQueue(plainQueue, "", nil)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				q.Done(item)
			}
		})
	}
	b.ResetTimer()
	for i := range b.N {
		q.Add(benchKeys[i%1024])
	}
	q.ShutDown() // the workers still get what is queued, then stop
	wg.Wait()
	b.StopTimer()
}

// BenchmarkAddAfter adds items with delays to a queue that already has 10k
// items waiting. Nothing becomes ready while it runs.
func BenchmarkAddAfter(b *testing.B) {
	b.Run("pending=10000", func(b *testing.B) {
		eachImpl(b, func(b *testing.B, im impl) {
			q := im.NewQueue(delayingQueue, "", nil)
			defer q.ShutDown()
			for i := range 10_000 {
				q.AddAfter(benchKeys[i], time.Hour+time.Duration(i)*time.Millisecond)
			}
			i := 10_000
			for b.Loop() {
				q.AddAfter(benchKeys[i%len(benchKeys)], time.Hour+time.Duration(i%5000)*time.Millisecond)
				i++
			}
		})
	})
}

// BenchmarkAddRateLimited retries 1000 keys on the default controller
// limiter: one limiter decision and one AddAfter per call.
func BenchmarkAddRateLimited(b *testing.B) {
	eachImpl(b, func(b *testing.B, im impl) {
		spec, err := parseLimiter("default-controller()")
		if err != nil {
			b.Fatal(err)
		}
		q := im.NewQueue(rateLimitingQueue, "", im.NewLimiter(spec))
		defer q.ShutDown()
		i := 0
		for b.Loop() {
			q.AddRateLimited(benchKeys[i%1000])
			i++
		}
	})
}
