package processor_test

import (
	"context"
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"

	"example.com/walkthrough/workshop/scenario"
)

// The benchmarks run ours and client-go's side by side on the same input,
// named .../ours and .../client-go so `make bench` can print the ratio.
// They run in real time (no synctest bubble): the Reflector, the FIFO and
// the listeners are all on their own goroutines.

var benchSides = map[string]string{"ours": scenario.Reference, "client-go": scenario.ClientGo}

// benchList makes n pods in 100 namespaces.
func benchList(n int) []runtime.Object {
	objs := make([]runtime.Object, n)
	for i := range objs {
		objs[i], _ = newObject("pods", fmt.Sprintf("ns-%d/pod-%d@%d", i%100, i, i+1))
	}
	return objs
}

// counter is a handler that only counts.
type counter struct{ n atomic.Int64 }

func (c *counter) OnAdd(any, bool)   { c.n.Add(1) }
func (c *counter) OnUpdate(_, _ any) { c.n.Add(1) }
func (c *counter) OnDelete(any)      { c.n.Add(1) }
func (c *counter) wait(want int64) {
	for c.n.Load() < want {
		time.Sleep(50 * time.Microsecond)
	}
}

// peakHeap samples the heap in use every millisecond until stop is
// called, and returns the largest sample above the starting point.
func peakHeap() (stop func() uint64) {
	var base goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&base)
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m goruntime.MemStats
		for {
			goruntime.ReadMemStats(&m)
			if m.HeapInuse > base.HeapInuse && m.HeapInuse-base.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse - base.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}

// benchModes are the informer's two paths. The scripted ListerWatcher
// cannot stream, so both LIST; today's pops in batches from an atomic
// RealFIFO, the classic one pops one item at a time from a DeltaFIFO
// (client-go: InOrderInformers and InOrderInformersBatchProcess off).
var benchModes = []struct {
	name  string
	fifo  fifoKind
	gates map[clientfeatures.Feature]bool
}{
	{name: "today", fifo: atomicRealFIFO},
	{name: "classic", fifo: deltaFIFO, gates: map[clientfeatures.Feature]bool{
		clientfeatures.WatchListClient: false, clientfeatures.InOrderInformersBatchProcess: false,
		clientfeatures.InOrderInformers: false,
	}},
}

// inMode runs a benchmark with mode's informers (classicMode for ours,
// the gates for client-go).
func inMode(b *testing.B, mode string, gates map[clientfeatures.Feature]bool) {
	for gate, on := range gates {
		clientfeaturestesting.SetFeatureDuringTest(b, gate, on)
	}
	classicMode = mode == "classic"
	b.Cleanup(func() { classicMode = false })
}

// BenchmarkInitialSync lists n pods and waits until one handler has seen
// them all, on each path. peak-MB is the largest heap growth seen during
// the sync.
func BenchmarkInitialSync(b *testing.B) {
	for _, m := range benchModes {
		b.Run("mode="+m.name, func(b *testing.B) {
			inMode(b, m.name, m.gates)
			benchInitialSync(b, m.fifo)
		})
	}
}

func benchInitialSync(b *testing.B, fifo fifoKind) {
	for _, n := range []int{10_000, 100_000} {
		list := benchList(n)
		for _, side := range []string{"ours", "client-go"} {
			im := impls[benchSides[side]]
			b.Run(fmt.Sprintf("n=%d/%s", n, side), func(b *testing.B) {
				var peak uint64
				for b.Loop() {
					lw := newScriptedLW("pods")
					lw.setList("1", list)
					inf := im.NewInformer(lw, 0, fifo)
					h := &counter{}
					reg, _ := inf.AddEventHandler(h, nil)
					ctx, cancel := context.WithCancel(context.Background())
					stopPeak := peakHeap()
					done := make(chan struct{})
					go func() { defer close(done); inf.Run(ctx) }()
					h.wait(int64(n))
					for !reg.HasSynced() {
						time.Sleep(50 * time.Microsecond)
					}
					peak = max(peak, stopPeak())
					cancel()
					<-done
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
			})
		}
		b.Run(fmt.Sprintf("n=%d/floor", n), func(b *testing.B) {
			for b.Loop() {
				syncFloor(list)
			}
		})
	}
}

// syncFloor is the least an initial sync can do: every listed object
// keyed and stored in a map, then handed to one handler, on one
// goroutine. No FIFO between them, no lock, no notification buffer.
func syncFloor(list []runtime.Object) {
	store := make(map[string]runtime.Object, len(list))
	h := &counter{}
	for _, obj := range list {
		m, _ := meta.Accessor(obj)
		store[m.GetNamespace()+"/"+m.GetName()] = obj
		h.OnAdd(obj, true)
	}
}

// BenchmarkFanOut sends 10,000 watch updates to an informer with 10
// handlers and waits until every handler has had them all, on each path.
func BenchmarkFanOut(b *testing.B) {
	for _, m := range benchModes {
		b.Run("mode="+m.name, func(b *testing.B) {
			inMode(b, m.name, m.gates)
			benchFanOut(b, m.fifo)
		})
	}
}

func benchFanOut(b *testing.B, fifo fifoKind) {
	const events, handlers = 10_000, 10
	list := benchList(1000)
	updates := make([]runtime.Object, events)
	for i := range updates {
		updates[i], _ = newObject("pods", fmt.Sprintf("ns-%d/pod-%d@%d", i%100, i%1000, 2000+i))
	}
	for _, side := range []string{"ours", "client-go"} {
		im := impls[benchSides[side]]
		b.Run(fmt.Sprintf("events=%d/handlers=%d/%s", events, handlers, side), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				lw := newScriptedLW("pods")
				lw.setList("1", list)
				inf := im.NewInformer(lw, 0, fifo)
				hs := make([]*counter, handlers)
				for i := range hs {
					hs[i] = &counter{}
					_, _ = inf.AddEventHandler(hs[i], nil)
				}
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { defer close(done); inf.Run(ctx) }()
				for _, h := range hs {
					h.wait(int64(len(list)))
				}
				for !lw.hasWatch() {
					time.Sleep(50 * time.Microsecond)
				}
				b.StartTimer()
				for _, obj := range updates {
					lw.send(watch.Event{Type: watch.Modified, Object: obj})
				}
				for _, h := range hs {
					h.wait(int64(len(list) + events))
				}
				b.StopTimer()
				cancel()
				<-done
				b.StartTimer()
			}
		})
	}
	b.Run(fmt.Sprintf("events=%d/handlers=%d/floor", events, handlers), func(b *testing.B) {
		for b.Loop() {
			fanOutFloor(b, updates, handlers)
		}
	})
}

// fanOutFloor is the least a fan-out can do: one plain channel send per
// handler and event, each handler on its own goroutine behind a buffer as
// deep as the events (so no sender ever waits on a slow reader). No
// Reflector, no FIFO, no store.
func fanOutFloor(b *testing.B, updates []runtime.Object, handlers int) {
	b.StopTimer()
	chs := make([]chan runtime.Object, handlers)
	var wg sync.WaitGroup
	for i := range chs {
		chs[i] = make(chan runtime.Object, len(updates))
		h := &counter{}
		wg.Go(func() {
			for obj := range chs[i] {
				h.OnUpdate(nil, obj)
			}
		})
	}
	b.StartTimer()
	for _, obj := range updates {
		for _, ch := range chs {
			ch <- obj
		}
	}
	for _, ch := range chs {
		close(ch)
	}
	wg.Wait()
}
