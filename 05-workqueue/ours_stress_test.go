package workqueue_test

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	workqueue "example.com/walkthrough/05-workqueue"
)

// The stress tests of this file call our package's parts directly: under
// the runner your copy stands in for it. client-go's metrics provider and
// its delaying queue's wake-up are shaped differently, so they judge ours
// only (TestStress skips them for client-go).

// oneProviderForQueuesMadeAtOnce: one provider serves every queue of a
// process (SetProvider), and controllers make their queues from as many
// goroutines. Eight named queues are made at once with one
// MemoryProvider, used at once, and read at once: the provider's maps
// need its mutex (run it with -race).
func oneProviderForQueuesMadeAtOnce(t *testing.T) {
	p := workqueue.NewMemoryProvider()
	var wg sync.WaitGroup
	for i := range 8 {
		name := fmt.Sprint("queue-", i)
		wg.Go(func() {
			q := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[string]{Name: name, MetricsProvider: p})
			defer q.ShutDown()
			for j := range 50 {
				q.Add(fmt.Sprint(j))
				item, _ := q.Get()
				q.Done(item)
			}
		})
		wg.Go(func() {
			for range 50 {
				for _, n := range p.Names(name) {
					p.Value(name, n)
				}
			}
		})
	}
	wg.Wait()
	for i := range 8 {
		name := fmt.Sprint("queue-", i)
		if got := p.Value(name, "workqueue_adds_total"); got != 50 {
			t.Errorf("%s counted %v adds, want 50: with queues made at once, each must get metrics of its own, and each metric keep its count", name, got)
		}
	}
}

// metricsReadWhileTheyChange: a dashboard (or a test) reads a provider's
// metrics while the queues it serves change them. Each reader below makes
// one call, its first touch of the provider, at the moment a queue is
// made (its metrics created), an item added, got and done (a counter
// moved, a histogram observed). Nothing but the provider's mutex orders a
// reader and the writer, so Names, Value and Observations each read under
// it: a map, a value or a list of observations read without it races
// with the write, whichever comes first (the race detector reports it on
// every run, not only when they meet).
func metricsReadWhileTheyChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const rounds = 10
		for r := range rounds {
			p := workqueue.NewMemoryProvider()
			made := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[string]{Name: "made-before", MetricsProvider: p})
			begin := make(chan struct{})
			var wg sync.WaitGroup
			wg.Go(func() { // the writer: a queue made, and items through both
				<-begin
				q := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[string]{Name: "made-during", MetricsProvider: p})
				defer q.ShutDown()
				for _, q := range []workqueue.TypedInterface[string]{made, q} {
					q.Add("x")
					item, _ := q.Get()
					q.Done(item)
				}
			})
			readers := []func(){
				func() { p.Names("made-during") },
				func() { p.Value("made-during", workqueue.AddsMetric) },
				func() { p.Value("made-before", workqueue.AddsMetric) },
				func() { p.Value("made-before", workqueue.DepthMetric) },
				func() { p.Observations("made-before", workqueue.LatencyMetric) },
				func() { p.Observations("made-before", workqueue.WorkDurationMetric) },
			}
			for _, read := range readers {
				wg.Go(func() {
					<-begin
					read()
				})
			}
			close(begin)
			wg.Wait()
			made.ShutDown()
			if got := p.Value("made-before", workqueue.AddsMetric); got != 1 {
				t.Fatalf("round %d: made-before counted %v adds, want 1", r+1, got)
			}
		}
	})
}

// gatedQueue is a queue whose first Add waits until opened: as the queue
// a delaying queue hands ready items to, it keeps the waiting loop busy.
type gatedQueue struct {
	workqueue.TypedInterface[string]
	held, open chan struct{}
	once       sync.Once
}

func (q *gatedQueue) Add(item string) {
	q.once.Do(func() {
		close(q.held)
		<-q.open
	})
	q.TypedInterface.Add(item)
}

// addAfterNeverWaitsForTheLoop: AddAfter pokes the waiting loop when the
// earliest ready time moves, without waiting for it: the loop may be busy
// adding a ready item, or gone after ShutDown, and a poke already pending
// says all a second one would. Here the loop is held in the Add of an item
// that became ready while two AddAfters, each moving the earliest time,
// poke it: both must return.
func addAfterNeverWaitsForTheLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ready := &gatedQueue{TypedInterface: workqueue.NewTyped[string](), held: make(chan struct{}), open: make(chan struct{})}
		q := workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[string]{Queue: ready})
		defer q.ShutDown()
		defer close(ready.open) // first: the loop must be let go before ShutDown waits for it
		q.AddAfter("a", time.Second)
		<-ready.held // a second later, the loop adds a, and is held in it
		returned := make(chan struct{})
		go func() {
			defer close(returned)
			q.AddAfter("b", 10*time.Second) // the earliest ready time moves: a poke
			q.AddAfter("c", 5*time.Second)  // earlier again: a poke, one already pending
		}()
		synctest.Wait()
		select {
		case <-returned:
		default:
			t.Fatalf("AddAfter waited for the waiting loop, busy adding an item that became ready: " +
				"poke it without blocking (select with a default on the one-slot wake channel); a poke " +
				"already pending is enough, and a loop gone after ShutDown would never take it")
		}
	})
}
