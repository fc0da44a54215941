// Your copy of ../deltafifo_relist.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=02` checks your work.

package deltafifo

import "example.com/walkthrough/workshop/todo"

// Replace is what a Reflector calls with a full list: the first one, or a
// relist after its watch broke. It queues one delta per listed object
// (Replaced, or Sync when EmitDeltaTypeReplaced is off), then a tombstone
// for every object someone still believes in that the list no longer has:
// first the keys with queued deltas, then the keys the consumer's cache
// (KnownObjects) holds. A watch deletion that was missed while the watch
// was down shows up here, as a Deleted DeletedFinalStateUnknown.
//
// The resource version is not used. An object that cannot be keyed stops
// Replace where it is: what was queued before it stays queued.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.Replace)
func (f *DeltaFIFO) Replace(list []any, _ string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	// Exercise 5: Replace: queue the list, then tombstones for the missing.
	// Hint: You queue each listed object (Replaced or Sync), remembering its key. Then every key that is queued, or known to KnownObjects without queued deltas, but not listed, gets Deleted with a DeletedFinalStateUnknown.
	panic(todo.Exercise("02-deltafifo", 5, "You queue each listed object (Replaced or Sync), remembering its key. Then every key that is queued, or known to KnownObjects without queued deltas, but not listed, gets Deleted with a DeletedFinalStateUnknown."))
}

// Resync hands the consumer's objects out again as Sync deltas, so that
// handlers get a periodic second look. A key with deltas already queued is
// skipped: its object in KnownObjects is older than what is queued, and a
// Sync behind those deltas would take the consumer back in time. Without
// KnownObjects there is nothing to resync.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.Resync, syncKeyLocked)
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	// Exercise 6: Resync the known objects that are not queued.
	// Hint: For each key KnownObjects lists, you look the object up and queue it as Sync, unless its key already has queued deltas.
	panic(todo.Exercise("02-deltafifo", 6, "For each key KnownObjects lists, you look the object up and queue it as Sync, unless its key already has queued deltas."))
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
