// Your copy of ../deltafifo_relist.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 02`
// checks your work, and `go run ./workshop/cmd/workshop hint 02 N` gives
// exercise N's hint.

package deltafifo

import "example.com/walkthrough/workshop/todo"

import "fmt"

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
	// Exercise 5: Replace is what a Reflector calls with a full list.
	panic(todo.Exercise("02-deltafifo", 5, "DeltaFIFO.Replace"))
}

// Resync hands the consumer's objects out again as Sync deltas, so that
// handlers get a periodic second look. A key with deltas already queued is
// skipped: its object in KnownObjects is older than what is queued, and a
// Sync behind those deltas would take the consumer back in time. Without
// KnownObjects there is nothing to resync.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.Resync, DeltaFIFO.syncKeyLocked)
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	// Exercise 6: Resync hands the consumer's objects out again as Sync deltas.
	panic(todo.Exercise("02-deltafifo", 6, "DeltaFIFO.Resync"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
)
