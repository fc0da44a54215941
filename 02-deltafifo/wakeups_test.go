package deltafifo_test

import (
	"runtime"
	"testing"
	"testing/synctest"
)

// These tests are about what a queue owes a consumer waiting in Pop:
// every write wakes it, a Pop leaves no goroutine behind, and the sync
// state counts what was handed out only once it is processed. Each runs
// on the selected implementation (your copy under the runner, or with
// WALKTHROUGH_IMPL=exercise) and, beside the reference, on client-go.

// writesThatQueue are the calls that put a delta in front of a waiting
// Pop, each with what it needs first: the DeltaFIFO drops the deletion of
// an object nobody knows, and resyncs only known objects; Bookmark is the
// atomic RealFIFO's, with bookmarks on.
var writesThatQueue = []struct {
	name  string
	write func(q queue, known knownStore, obj any) error
}{
	{"Add", func(q queue, _ knownStore, obj any) error { return q.Add(obj) }},
	{"Update", func(q queue, _ knownStore, obj any) error { return q.Update(obj) }},
	{"Delete", func(q queue, known knownStore, obj any) error {
		if err := known.Add(obj); err != nil {
			return err
		}
		return q.Delete(obj)
	}},
	{"Replace", func(q queue, _ knownStore, obj any) error { return q.Replace([]any{obj}, "1") }},
	{"Resync", func(q queue, known knownStore, obj any) error {
		if err := known.Add(obj); err != nil {
			return err
		}
		return q.Resync()
	}},
	{"Bookmark", func(q queue, _ knownStore, _ any) error { return q.Bookmark("5") }},
}

// TestEveryWriteWakesAWaitingPop: a Pop waits on an empty queue; one write
// queues a delta, and the Pop must return with it. A write that appends
// without a Broadcast leaves the informer asleep with work queued: an
// atomic Replace that forgets it never hands the first list out.
func TestEveryWriteWakesAWaitingPop(t *testing.T) {
	for _, name := range selectedAndClientGo(t) {
		im := impls[name]
		for _, kind := range queueKinds {
			for _, w := range writesThatQueue {
				if w.name == "Bookmark" && kind.name != "RealFIFO-atomic-unlock" {
					continue // a Bookmark queues nothing without bookmarks on
				}
				t.Run(name+"/"+kind.name+"/"+w.name, func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						q, known := kind.make(im)
						defer q.Close()
						obj, err := parseObject(im, "ns/a@1")
						if err != nil {
							t.Fatal(err)
						}
						returned := make(chan struct{})
						go func() {
							defer close(returned)
							_, _ = q.Pop(func([]delta, bool) error { return nil })
						}()
						synctest.Wait()
						if err := w.write(q, known, obj); err != nil {
							t.Fatalf("%s: %v", w.name, err)
						}
						synctest.Wait()
						select {
						case <-returned:
						default:
							t.Fatalf("a Pop waiting on the empty %s still waits after %s queued a delta: %s must wake it (Broadcast)", kind.name, w.name, w.name)
						}
					})
				})
			}
		}
	}
}

// TestPopLeavesNoGoroutine: a Pop that returns leaves nothing running
// behind it; a helper goroutine per Pop that lives until Close is a leak
// for as long as the queue lives.
func TestPopLeavesNoGoroutine(t *testing.T) {
	for _, name := range selectedAndClientGo(t) {
		im := impls[name]
		for _, kind := range queueKinds {
			t.Run(name+"/"+kind.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					q, _ := kind.make(im)
					defer q.Close()
					for _, line := range []string{"ns/a@1", "ns/b@2", "ns/c@3"} {
						obj, err := parseObject(im, line)
						if err != nil {
							t.Fatal(err)
						}
						if err := q.Add(obj); err != nil {
							t.Fatal(err)
						}
					}
					synctest.Wait()
					before := runtime.NumGoroutine()
					for range 3 {
						if _, err := q.Pop(func([]delta, bool) error { return nil }); err != nil {
							t.Fatal(err)
						}
					}
					synctest.Wait()
					if after := runtime.NumGoroutine(); after > before {
						t.Fatalf("3 Pops on a %s left %d goroutine(s) running: a Pop must not start one that outlives it", kind.name, after-before)
					}
				})
			})
		}
	}
}

// TestADroppedDeletionStillPopulates: a DeltaFIFO written to before any
// Replace has no first list to wait for, and a Delete is such a write even
// when it is dropped (nobody knows the object): the queue is synced at
// once. client-go marks the queue populated before it looks whether the
// deletion is a stranger's (delta_fifo.go, Delete).
func TestADroppedDeletionStillPopulates(t *testing.T) {
	for _, name := range selectedAndClientGo(t) {
		im := impls[name]
		t.Run(name, func(t *testing.T) {
			q := im.NewDeltaFIFO(im.NewKnown(), true)
			defer q.Close()
			obj, err := parseObject(im, "ns/stranger@1")
			if err != nil {
				t.Fatal(err)
			}
			if err := q.Delete(obj); err != nil {
				t.Fatal(err)
			}
			if !q.HasSynced() {
				t.Fatal("HasSynced is false after a Delete before any Replace: the write populates the queue even when the deletion of a stranger is dropped")
			}
		})
	}
}

// TestPopBatchCountsAfterProcessing: a batch of the first list counts
// towards HasSynced only once processBatch has returned, as a single Pop
// counts after process: an informer that is told it has synced while the
// batch is still being stored serves a cache that is not full yet.
func TestPopBatchCountsAfterProcessing(t *testing.T) {
	for _, name := range selectedAndClientGo(t) {
		im := impls[name]
		t.Run(name, func(t *testing.T) {
			q := im.NewRealFIFO(nil, realOptions{Atomic: true})
			defer q.Close()
			list, err := parseObjects(im, "ns/a@1\nns/b@1")
			if err != nil {
				t.Fatal(err)
			}
			if err := q.Replace(list, "1"); err != nil {
				t.Fatal(err)
			}
			var during []bool
			// Done, not HasSynced: process runs under the queue's lock.
			process := func([]delta, bool) error { during = append(during, isDone(q.Done())); return nil }
			for !q.HasSynced() {
				if err := q.PopBatch(process, process); err != nil {
					t.Fatal(err)
				}
			}
			for i, synced := range during {
				if synced {
					t.Fatalf("HasSynced was true inside the process of pop %d of the first list: count the batch after it is processed (defer)", i+1)
				}
			}
		})
	}
}
