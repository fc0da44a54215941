package workqueue_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"example.com/walkthrough/workshop/scenario"
)

// TestEveryDrainReturns: two goroutines wait in ShutDownWithDrain while
// one item is in flight. When it is done the processing set is empty, so
// both must return, whether the item was added again meanwhile (Done
// queues it once more) or not. client-go signals one waiter there
// (docs/05-workqueue.md, "Waking a drain"): one drain returns and the
// other sleeps until something else wakes it, as the client-go run shows.
func TestEveryDrainReturns(t *testing.T) {
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	for _, readd := range []bool{false, true} {
		how := "not added again"
		if readd {
			how = "added again meanwhile"
		}
		if got := drainsReturned(t, impls[name], readd); got != 2 {
			t.Errorf("%d of 2 ShutDownWithDrain calls returned once the last item in flight (%s) was done: Done must take it out of the processing set and, the set being empty, wake every waiter (Broadcast), not one (Signal)", got, how)
		}
		if name == scenario.Reference {
			t.Run("client-go", func(t *testing.T) {
				if got := drainsReturned(t, impls[scenario.ClientGo], readd); got != 1 {
					t.Errorf("client-go, last item %s: %d of 2 drains returned, want 1 (its Done signals one waiter): update docs/05-workqueue.md, \"Waking a drain\"", how, got)
				}
			})
		}
	}
}

// drainsReturned counts the drains that return when the item in flight
// is done (added again meanwhile, with readd); a plain ShutDown then ends
// any still waiting.
func drainsReturned(t *testing.T, im impl, readd bool) (n int32) {
	synctest.Test(t, func(t *testing.T) {
		q := im.NewQueue(plainQueue, "", nil)
		q.Add("a")
		item, _ := q.Get()
		if readd {
			q.Add("a") // dirty: Done queues it again
		}
		var returned atomic.Int32
		for range 2 {
			go func() {
				q.ShutDownWithDrain()
				returned.Add(1)
			}()
		}
		synctest.Wait()
		q.Done(item)
		synctest.Wait()
		n = returned.Load()
		q.ShutDown()
		synctest.Wait()
	})
	return n
}

// TestGetWaitsThroughAWakeUp: a worker waits in Get on an empty queue
// while another finishes the last item in flight. That Done wakes
// waiters (a drain may be among them), the worker too; the queue is still
// empty and not shutting down, so Get must wait again, not return
// "shut down". Only a real item or a real shutdown ends its wait.
func TestGetWaitsThroughAWakeUp(t *testing.T) {
	onSelectedAndClientGo(t, func(t *testing.T, im impl) {
		synctest.Test(t, func(t *testing.T) {
			q := im.NewQueue(plainQueue, "", nil)
			defer q.ShutDown()
			q.Add("a")
			held, _ := q.Get()
			type got struct {
				item     string
				shutdown bool
			}
			result := make(chan got, 1)
			go func() {
				item, shutdown := q.Get()
				result <- got{item, shutdown}
			}()
			synctest.Wait()
			q.Done(held) // the processing set empties: waiters wake
			synctest.Wait()
			select {
			case r := <-result:
				t.Fatalf("Get returned (%q, shutdown=%v) on a live, empty queue when another worker's Done woke it: wait in a loop (for, not if) while the queue is empty and not shutting down", r.item, r.shutdown)
			default:
			}
			q.Add("b")
			synctest.Wait()
			if r := <-result; r.item != "b" || r.shutdown {
				t.Fatalf("after Add(b) the waiting Get returned (%q, shutdown=%v), want (b, false)", r.item, r.shutdown)
			}
		})
	})
}

// TestShutDownEndsADelayingQueuesDrain: on a delaying queue, a plain
// ShutDown ends a ShutDownWithDrain still waiting for an item in flight,
// as on a plain queue; neither call may wait for the other.
func TestShutDownEndsADelayingQueuesDrain(t *testing.T) {
	onSelectedAndClientGo(t, func(t *testing.T, im impl) {
		synctest.Test(t, func(t *testing.T) {
			q := im.NewQueue(delayingQueue, "", nil)
			q.Add("a")
			held, _ := q.Get()
			drained := make(chan struct{})
			go func() {
				defer close(drained)
				q.ShutDownWithDrain()
			}()
			synctest.Wait()
			shut := make(chan struct{})
			go func() {
				defer close(shut)
				q.ShutDown()
			}()
			synctest.Wait()
			for what, ch := range map[string]chan struct{}{"ShutDown": shut, "the waiting ShutDownWithDrain": drained} {
				select {
				case <-ch:
				default:
					q.Done(held) // let the test end
					synctest.Wait()
					t.Fatalf("%s did not return on a delaying queue with one item in flight: a plain ShutDown ends a drain at once (do not run the drain inside the once that ShutDown runs in)", what)
				}
			}
			q.Done(held)
		})
	})
}

// TestDrainStopsTheQueuesGoroutines: ShutDownWithDrain stops a queue's
// goroutines at once, as ShutDown does: a delaying queue's waiting loop
// and a named queue's metrics loop. Left running, each is a goroutine
// leaked by every queue drained that way. client-go's linger until their
// next wake-up, up to the waiting loop's 10 s heartbeat or the metrics
// loop's 500 ms tick (docs/05, "How client-go differs"), so this runs on
// the selected implementation only.
func TestDrainStopsTheQueuesGoroutines(t *testing.T) {
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	if name == scenario.ClientGo {
		t.Skip("client-go's loops end at their next wake-up, not at once: a declared difference")
	}
	for _, c := range []struct{ kind, queueName, loop string }{
		{delayingQueue, "", "the delaying queue's waiting loop"},
		{plainQueue, "drained", "the named queue's metrics loop (updateUnfinishedWorkLoop)"},
	} {
		synctest.Test(t, func(t *testing.T) {
			before := runtime.NumGoroutine()
			q := impls[name].NewQueue(c.kind, c.queueName, nil)
			if q.AddAfter != nil {
				q.AddAfter("later", time.Hour) // the loop now sleeps until an hour from now
			}
			synctest.Wait()
			q.ShutDownWithDrain()
			synctest.Wait()
			if after := runtime.NumGoroutine(); after > before {
				q.ShutDown() // let the bubble end
				synctest.Wait()
				t.Fatalf("%d goroutine(s) still running after ShutDownWithDrain: %s was not stopped (ShutDownWithDrain must stop it, as ShutDown does)", after-before, c.loop)
			}
		})
	}
}

// onSelectedAndClientGo runs check on the selected implementation, and on
// the reference run on client-go too, to show the test holds for it.
func onSelectedAndClientGo(t *testing.T, check func(t *testing.T, im impl)) {
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	check(t, impls[name])
	if name == scenario.Reference {
		t.Run("client-go", func(t *testing.T) { check(t, impls[scenario.ClientGo]) })
	}
}

// TestDrainWaitsForEveryItemInFlight: a drain waits while two items are
// in flight. Done of the first, added again meanwhile, queues it and wakes
// a waiter; the second is still held, so the drain must wait on (for, not
// if, around its wait), and return only once the second is done.
func TestDrainWaitsForEveryItemInFlight(t *testing.T) {
	onSelectedAndClientGo(t, func(t *testing.T, im impl) {
		synctest.Test(t, func(t *testing.T) {
			q := im.NewQueue(plainQueue, "", nil)
			q.Add("a")
			q.Add("b")
			a, _ := q.Get()
			b, _ := q.Get()
			q.Add(a) // dirty: Done queues it again, and wakes a waiter
			drained := make(chan struct{})
			go func() {
				defer close(drained)
				q.ShutDownWithDrain()
			}()
			synctest.Wait()
			q.Done(a)
			synctest.Wait()
			select {
			case <-drained:
				t.Fatalf("ShutDownWithDrain returned while %q was still in flight: a wake-up is no proof the processing set is empty; wait in a loop (for, not if) until it is", b)
			default:
			}
			q.Done(b)
			synctest.Wait()
			select {
			case <-drained:
			default:
				q.ShutDown()
				t.Fatal("ShutDownWithDrain did not return once the last item in flight was done")
			}
		})
	})
}
