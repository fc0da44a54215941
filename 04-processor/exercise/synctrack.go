// Your copy of ../synctrack.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import "example.com/walkthrough/workshop/todo"

import "sync"

// syncTracker answers one registration's HasSynced: has this handler seen
// every object of the initial list? Two things must both be true:
//
//   - upstream (the informer) has synced: the FIFO has handed over its
//     first list, so every initial notification has been distributed;
//   - every initial notification distributed to this handler has been
//     handled: OnAdd has returned for each.
//
// The listener calls start when it queues an initial add and finished when
// the handler's OnAdd for it returns; a goroutine calls upstreamHasSynced
// once the informer has synced. The order matters: an informer is synced
// only after the last initial add was queued, so a count of zero then
// means "all handled", not "none queued yet".
//
// client-go: tools/cache/synctrack/synctrack.go (SingleFileTracker)
type syncTracker struct {
	mu       sync.Mutex
	pending  int           // initial adds queued but not yet handled; never negative
	upstream bool          // the informer has synced
	synced   chan struct{} // closed once upstream && pending == 0; stays closed
}

func newSyncTracker() *syncTracker {
	return &syncTracker{synced: make(chan struct{})}
}

// start records an initial add about to be queued for the handler.
func (t *syncTracker) start() {
	// Exercise 3: start records an initial add about to be queued for the handler.
	panic(todo.Exercise("04-processor", 3, "syncTracker.start"))
}

// finished records that the handler's OnAdd for an initial add returned.
func (t *syncTracker) finished() {
	// Exercise 3: finished records that the handler's OnAdd for an initial add returned.
	panic(todo.Exercise("04-processor", 3, "syncTracker.finished"))
}

// upstreamHasSynced records that the informer has synced.
func (t *syncTracker) upstreamHasSynced() {
	// Exercise 3: upstreamHasSynced records that the informer has synced.
	panic(todo.Exercise("04-processor", 3, "syncTracker.upstreamHasSynced"))
}

// hasSynced reports whether upstream has synced and every initial add
// has been handled.
func (t *syncTracker) hasSynced() bool {
	// Exercise 3: hasSynced reports whether upstream has synced and every initial add has been handled.
	panic(todo.Exercise("04-processor", 3, "syncTracker.hasSynced"))
}

// maybeSynced closes synced when both conditions hold. Callers hold mu.
func (t *syncTracker) maybeSynced() {
	if !t.upstream || t.pending != 0 {
		return
	}
	select {
	case <-t.synced:
	default:
		close(t.synced)
	}
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
