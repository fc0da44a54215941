package processor

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
	// exercise:begin 3 Know when one handler has seen the initial list
	// exercise:hint Count the initial adds queued and not yet handled. The registration has synced
	//   once the informer has synced and that count is back to zero; once synced, it stays synced.
	// exercise:deeper Guard the fields with t.mu. finished and upstreamHasSynced call
	//   t.maybeSynced(), which closes the synced channel once both conditions hold; hasSynced only
	//   looks at that channel. A count that goes below zero is a bug: panic with "synctrack:
	//   negative counter; this logic error means HasSynced may return incorrect value".
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending++
	// exercise:end 3
}

// finished records that the handler's OnAdd for an initial add returned.
func (t *syncTracker) finished() {
	// exercise:begin 3
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending--
	if t.pending < 0 {
		panic("synctrack: negative counter; this logic error means HasSynced may return incorrect value")
	}
	t.maybeSynced()
	// exercise:end 3
}

// upstreamHasSynced records that the informer has synced.
func (t *syncTracker) upstreamHasSynced() {
	// exercise:begin 3
	t.mu.Lock()
	defer t.mu.Unlock()
	t.upstream = true
	t.maybeSynced()
	// exercise:end 3
}

// hasSynced reports whether upstream has synced and every initial add
// has been handled.
func (t *syncTracker) hasSynced() bool {
	// exercise:begin 3
	select {
	case <-t.synced:
		return true
	default:
		return false
	}
	// exercise:end 3
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
