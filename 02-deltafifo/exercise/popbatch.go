// Your copy of ../popbatch.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 02`
// checks your work, and `go run ./workshop/cmd/workshop hint 02 N` gives
// exercise N's hint.

package deltafifo

import "example.com/walkthrough/workshop/todo"

// batchable are the delta types that may share a batch: each is about one
// object. ReplacedAll, SyncAll and Bookmark are about everything, so they
// always travel alone.
var batchable = map[DeltaType]bool{Added: true, Updated: true, Deleted: true, Replaced: true, Sync: true}

// PopBatch takes a run of deltas from the head of the log and hands it to
// processBatch in one call, or a lone delta to processSingle. A batch
// stays safe to apply in any order because it never holds two deltas for
// the same key. It ends before:
//
//   - the batch size (1000) is reached;
//   - the first delta that is not part of the initial list, while that list
//     is still being handed out, so HasSynced stays exact;
//   - a delta that cannot be batched (it is popped alone if it is first);
//   - a second delta for a key already in the batch;
//
// and right after a delta whose key cannot be computed: that delta is
// taken, so a broken delta cannot block the queue.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.PopBatch)
func (f *RealFIFO) PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	// Exercise 10: PopBatch takes a run of deltas from the head of the log and hands it to processBatch in one call.
	panic(todo.Exercise("02-deltafifo", 10, "RealFIFO.PopBatch"))
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
