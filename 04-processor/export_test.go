package processor

import (
	"context"
	"time"

	"example.com/walkthrough/workshop/scenario"
)

// SyncTracker returns one registration's sync tracker as the calls its
// three goroutines make: the distributor's start (an initial add queued),
// the handler's finished (its OnAdd returned), the informer's
// upstreamHasSynced, and the registration's HasSynced. The stress test
// makes them from three goroutines, as an informer does.
func SyncTracker() (start, finished, upstreamHasSynced func(), hasSynced func() bool) {
	t := newSyncTracker()
	return t.start, t.finished, t.upstreamHasSynced, t.hasSynced
}

// ProcessorAlone returns a processor with no informer around it: run runs
// it until ctx ends; addListener registers a listener with a handler that
// does nothing and returns the channel closed once the listener's run
// goroutine has returned. The stress test adds a listener while the
// processor starts, as AddEventHandler may while Run starts the informer.
func ProcessorAlone() (run func(ctx context.Context), addListener func() (finished <-chan struct{})) {
	p := newSharedProcessor()
	neverSynced := make(chan struct{})
	return p.run, func() <-chan struct{} {
		l := newProcessorListener(ResourceEventHandlerFuncs{}, 0, 0, time.Now(), initialBufferSize, neverSynced)
		p.addListener(l)
		return l.ShutdownChan()
	}
}

// ProcessorDistributing returns a processor with no informer around it and
// one listener registered, whose handler does nothing: run runs it until
// ctx ends, distribute hands the listener an update, as the informer does
// for each delta, and remove removes the listener, as RemoveEventHandler
// does. The stress test removes it while updates are being distributed.
func ProcessorDistributing() (run func(ctx context.Context), distribute, remove func()) {
	p := newSharedProcessor()
	neverSynced := make(chan struct{})
	l := newProcessorListener(ResourceEventHandlerFuncs{}, 0, 0, time.Now(), initialBufferSize, neverSynced)
	handle, _ := p.addListener(l)
	return p.run,
		func() { p.distribute(updateNotification{oldObj: 1, newObj: 2}, false) },
		func() { _ = p.removeListener(handle) }
}

// StoppedListener returns add of a listener whose pop has returned while
// the listener is still registered, which happens when its pump panics
// (pop recovers, and closes done as it returns; no processor closed
// addCh): add hands it an update. addCh is where an add that does not give
// up waits, for the stress test to free it.
func StoppedListener() (add func(), addCh <-chan any) {
	l := newProcessorListener(ResourceEventHandlerFuncs{}, 0, 0, time.Now(), initialBufferSize, make(chan struct{}))
	close(l.done) // as pop does when it returns
	return func() { l.add(updateNotification{oldObj: 1, newObj: 2}) }, l.addCh
}

// DeltasBlocked reports whether the informer's blockDeltas is held, by
// anyone. The stress test asks it from an index function, which the cache
// calls while HandleDeltas applies a delta.
func (s *SharedIndexInformer) DeltasBlocked() bool {
	return scenario.Held(&s.blockDeltas)
}
