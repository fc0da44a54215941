package workqueue_test

import (
	"sync/atomic"
	"testing"
	"testing/synctest"

	"example.com/walkthrough/workshop/scenario"
)

// TestEveryDrainReturns: two goroutines wait in ShutDownWithDrain while
// the last item in flight was added again. When it is done the processing
// set is empty, so both must return. client-go signals one waiter there
// (docs/05-workqueue.md, "Waking a drain"): one drain returns and the
// other sleeps until something else wakes it, as the client-go run shows.
func TestEveryDrainReturns(t *testing.T) {
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	if got := drainsReturned(t, impls[name]); got != 2 {
		t.Errorf("%d of 2 ShutDownWithDrain calls returned once the last item in flight was done (it had been added again): the processing set is empty, so wake every waiter (Broadcast), not one (Signal)", got)
	}
	if name == scenario.Reference {
		t.Run("client-go", func(t *testing.T) {
			if got := drainsReturned(t, impls[scenario.ClientGo]); got != 1 {
				t.Errorf("client-go: %d of 2 drains returned, want 1 (its Done signals one waiter): update docs/05-workqueue.md, \"Waking a drain\"", got)
			}
		})
	}
}

// drainsReturned counts the drains that return when the re-added item in
// flight is done; a plain ShutDown then ends any still waiting.
func drainsReturned(t *testing.T, im impl) (n int32) {
	synctest.Test(t, func(t *testing.T) {
		q := im.NewQueue(plainQueue, "", nil)
		q.Add("a")
		item, _ := q.Get()
		q.Add("a") // dirty: Done queues it again
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
