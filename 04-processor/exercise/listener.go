// Your copy of ../listener.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import (
	"fmt"
	"sync"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"example.com/walkthrough/workshop/todo"
)

// ResourceEventHandlerRegistration is what AddEventHandler returns: the
// handle to remove the handler with, and its own HasSynced.
//
// client-go: tools/cache/shared_informer.go (ResourceEventHandlerRegistration)
type ResourceEventHandlerRegistration interface {
	// HasSynced is true once the informer has synced and this handler has
	// returned from OnAdd for every object of the initial list (or, for a
	// handler added late, of the replayed cache).
	HasSynced() bool
}

// processorListener carries notifications from the shared processor to
// one handler. It is a goroutine pair with an unbounded buffer between
// them:
//
//	distribute ─add()→ addCh ─pop()→ buffer ─pop()→ nextCh ─run()→ handler
//
// add hands a notification to pop and returns at once; pop parks it in
// the buffer while run is busy; run calls the handler, one notification
// at a time, in the order they were added. So a handler that takes a
// minute holds up nobody but itself, and it still sees every event in
// order. The price is memory: a stuck handler's buffer grows without
// bound.
//
// A third goroutine, watchSynced, tells the syncTracker when the informer
// has synced.
//
// client-go: tools/cache/shared_informer.go (processorListener)
type processorListener struct {
	handler ResourceEventHandler

	// addCh is unbuffered: add blocks only until pop takes the
	// notification, and pop is always ready to. Closing addCh tells pop to
	// stop; only the processor closes it, under its write lock, so no add
	// can be sending at that moment.
	addCh chan any
	// nextCh is unbuffered: pop offers the oldest notification here and
	// run takes it. pop closes it when it stops, which stops run.
	nextCh chan any
	// done is closed when pop returns. add gives up on a listener whose
	// pop has gone, and watchSynced stops waiting.
	done chan struct{}
	// runFinished is closed when run returns (or, for a listener removed
	// before it ever started, on removal).
	runFinished chan struct{}

	// buffer holds the notifications pop has taken and run has not; only
	// pop touches it.
	buffer *RingBuffer

	tracker        *syncTracker
	upstreamSynced <-chan struct{} // the informer's synced channel

	// requestedResyncPeriod is what the handler asked for (after the 1s
	// minimum); resyncPeriod is what it gets given the informer's check
	// period: 0 when the informer never resyncs. nextResync is when the
	// listener is next due. resyncLock guards the last two.
	requestedResyncPeriod time.Duration
	resyncLock            sync.Mutex
	resyncPeriod          time.Duration
	nextResync            time.Time
}

// newProcessorListener makes a listener for handler, not yet running: its
// channels, its buffer, its sync tracker, and its first resync time.
func newProcessorListener(handler ResourceEventHandler, requestedResyncPeriod, resyncPeriod time.Duration, now time.Time, bufferSize int, upstreamSynced <-chan struct{}) *processorListener {
	p := &processorListener{
		handler:               handler,
		addCh:                 make(chan any),
		nextCh:                make(chan any),
		done:                  make(chan struct{}),
		runFinished:           make(chan struct{}),
		buffer:                NewRingBuffer(bufferSize),
		tracker:               newSyncTracker(),
		upstreamSynced:        upstreamSynced,
		requestedResyncPeriod: requestedResyncPeriod,
		resyncPeriod:          resyncPeriod,
	}
	p.determineNextResync(now)
	return p
}

// HasSynced implements ResourceEventHandlerRegistration.
func (p *processorListener) HasSynced() bool { return p.tracker.hasSynced() }

// ShutdownChan is closed once the listener's run goroutine has returned.
func (p *processorListener) ShutdownChan() <-chan struct{} { return p.runFinished }

// add hands a notification to pop. An initial add counts towards the
// registration's HasSynced before it is queued, so the count can never
// read zero while an initial add is still in flight.
func (p *processorListener) add(notification any) {
	if n, ok := notification.(addNotification); ok && n.isInInitialList {
		p.tracker.start()
	}
	// pop is nearly always waiting for it: hand it over at once, the
	// cheap way (a send that cannot block); the two-way select is for
	// when pop is busy, or gone.
	select {
	case p.addCh <- notification:
		return
	default:
	}
	select {
	case p.addCh <- notification:
	case <-p.done: // pop has stopped: nobody will ever take it
	}
}

// pop runs on its own goroutine until addCh is closed.
func (p *processorListener) pop() {
	defer utilruntime.HandleCrash()
	defer close(p.nextCh) // tells run to stop
	defer close(p.done)   // tells add and watchSynced to stop
	p.pump()
}

// pump moves notifications from addCh to nextCh, keeping the ones run has
// not taken yet in the buffer. It returns when addCh is closed, dropping
// whatever is still buffered.
func (p *processorListener) pump() {
	// Exercise 4: pump moves notifications from addCh to nextCh, keeping the ones run has not taken yet in the buffer.
	panic(todo.Exercise("04-processor", 4, "processorListener.pump"))
}

// run calls the handler for each notification pop offers, until pop
// closes nextCh. A handler that panics loses that one notification; run
// waits a second and carries on (when the process is not set to crash).
func (p *processorListener) run() {
	defer close(p.runFinished)
	crashed := false
	for next := range p.nextCh {
		if crashed {
			time.Sleep(time.Second)
		}
		crashed = p.deliver(next)
	}
}

// deliver calls the handler once and reports whether it panicked.
func (p *processorListener) deliver(next any) (crashed bool) {
	crashed = true // stays true if the handler panics
	defer utilruntime.HandleCrash()
	switch n := next.(type) {
	case addNotification:
		p.handler.OnAdd(n.newObj, n.isInInitialList)
		if n.isInInitialList {
			p.tracker.finished()
		}
	case updateNotification:
		p.handler.OnUpdate(n.oldObj, n.newObj)
	case deleteNotification:
		p.handler.OnDelete(n.oldObj)
	default:
		utilruntime.HandleError(fmt.Errorf("unrecognized notification: %T", next))
	}
	return false
}

// watchSynced tells the tracker when the informer has synced, unless the
// listener stops first.
func (p *processorListener) watchSynced() {
	defer utilruntime.HandleCrash()
	select {
	case <-p.upstreamSynced:
		p.tracker.upstreamHasSynced()
	case <-p.done:
	}
}

// shouldResync reports whether the listener is due a resync at now.
func (p *processorListener) shouldResync(now time.Time) bool {
	p.resyncLock.Lock()
	defer p.resyncLock.Unlock()
	return p.resyncPeriod != 0 && !now.Before(p.nextResync)
}

// determineNextResync schedules the listener's next resync one period after
// now.
func (p *processorListener) determineNextResync(now time.Time) {
	p.resyncLock.Lock()
	defer p.resyncLock.Unlock()
	p.nextResync = now.Add(p.resyncPeriod)
}

// setResyncPeriod changes the listener's resync period.
func (p *processorListener) setResyncPeriod(resyncPeriod time.Duration) {
	p.resyncLock.Lock()
	defer p.resyncLock.Unlock()
	p.resyncPeriod = resyncPeriod
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
	_ = utilruntime.HandleCrash
)
