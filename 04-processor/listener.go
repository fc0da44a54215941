package processor

import (
	"fmt"
	"sync"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
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
	// exercise:begin 2 The listener: two goroutines between the processor and one handler
	// exercise:hint newProcessorListener makes the channels, the buffer and the sync tracker, and
	//   schedules the first resync. add hands a notification to pop over addCh (starting the sync
	//   tracker for an initial-list add), or drops it once pop has stopped. pop runs the pump and,
	//   when it returns, closes done and then nextCh. run takes notifications from nextCh until it
	//   is closed and delivers each to the handler, marking an initial-list add finished in the
	//   tracker. watchSynced tells the tracker when the informer has synced.
	// exercise:deeper Close done first, so add and watchSynced stop waiting, then nextCh,
	//   so run ends, as client-go does (both happen as pop returns: no check can tell the
	//   order apart); run closes runFinished last. deliver recovers a handler's panic with
	//   utilruntime.HandleCrash and reports it as crashed, and run then waits a second
	//   before the next delivery, as client-go's wait.Until does. Nothing may ever block
	//   add forever: select on addCh and done. (pop stops before addCh is closed only when
	//   the pump panics; client-go's add is a plain send, and no scenario can tell the two
	//   apart, but the tests recover such a panic to report it, and a plain send would hang
	//   the step instead.)
	// exercise:track deep
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
	// exercise:end 2
}

// HasSynced implements ResourceEventHandlerRegistration.
func (p *processorListener) HasSynced() bool { return p.tracker.hasSynced() }

// ShutdownChan is closed once the listener's run goroutine has returned.
func (p *processorListener) ShutdownChan() <-chan struct{} { return p.runFinished }

// add hands a notification to pop. An initial add counts towards the
// registration's HasSynced before it is queued, so the count can never
// read zero while an initial add is still in flight.
func (p *processorListener) add(notification any) {
	// exercise:begin 2
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
	// exercise:end 2
}

// pop runs on its own goroutine until addCh is closed.
func (p *processorListener) pop() {
	// exercise:begin 2
	defer utilruntime.HandleCrash()
	defer close(p.nextCh) // tells run to stop
	defer close(p.done)   // tells add and watchSynced to stop
	p.pump()
	// exercise:end 2
}

// pump moves notifications from addCh to nextCh, keeping the ones run has
// not taken yet in the buffer. It returns when addCh is closed, dropping
// whatever is still buffered.
func (p *processorListener) pump() {
	// exercise:begin 4 Decouple a slow handler with a buffer
	// exercise:hint Loop on a select with two cases: take a new notification from addCh, or hand
	//   the oldest waiting one to nextCh. Keep the one being offered in a variable and the rest in
	//   the buffer.
	// exercise:deeper A send on a nil channel never proceeds, so set the outgoing channel to nil
	//   while nothing waits and to p.nextCh when something does. When addCh is closed, return. When
	//   the buffer is empty after a send, go back to offering nothing.
	var out chan<- any // nil while there is nothing to offer run
	var next any       // the notification being offered on out
	for {
		select {
		case out <- next:
			if n, ok := p.buffer.Read(); ok {
				next = n
			} else {
				out, next = nil, nil
			}
		case n, ok := <-p.addCh:
			if !ok {
				return
			}
			if out == nil {
				next, out = n, p.nextCh
			} else {
				p.buffer.Write(n)
			}
		}
	}
	// exercise:end 4
}

// run calls the handler for each notification pop offers, until pop
// closes nextCh. A handler that panics loses that one notification; run
// waits a second and carries on (when the process is not set to crash).
func (p *processorListener) run() {
	// exercise:begin 2
	defer close(p.runFinished)
	crashed := false
	for next := range p.nextCh {
		if crashed {
			time.Sleep(time.Second)
		}
		crashed = p.deliver(next)
	}
	// exercise:end 2
}

// deliver calls the handler once and reports whether it panicked.
func (p *processorListener) deliver(next any) (crashed bool) {
	// exercise:begin 2
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
	// exercise:end 2
}

// watchSynced tells the tracker when the informer has synced, unless the
// listener stops first.
func (p *processorListener) watchSynced() {
	// exercise:begin 2
	defer utilruntime.HandleCrash()
	select {
	case <-p.upstreamSynced:
		p.tracker.upstreamHasSynced()
	case <-p.done:
	}
	// exercise:end 2
}

// shouldResync reports whether the listener is due a resync at now.
func (p *processorListener) shouldResync(now time.Time) bool {
	// exercise:begin 14 Resync: who is due, and when next
	// exercise:hint The processor's shouldResync asks each listener whether its resync is due,
	//   marks each listener as syncing or not for the coming Sync deltas, schedules the next resync
	//   of those that are due, and reports whether any is. A listener is due when its period is not
	//   zero and now is not before its next resync. resyncCheckPeriodChanged recomputes every
	//   listener's period from the one it asked for.
	// exercise:deeper The syncing mark is what distribute's sync flag reads: a Sync delta reaches
	//   only the listeners marked due. shouldResync writes the map, so it takes the processor's
	//   write lock. The listener's resync fields have their own lock, because shouldResync and
	//   AddEventHandler reach them from different goroutines.
	// exercise:track deep
	p.resyncLock.Lock()
	defer p.resyncLock.Unlock()
	return p.resyncPeriod != 0 && !now.Before(p.nextResync)
	// exercise:end 14
}

// determineNextResync schedules the listener's next resync one period after
// now.
func (p *processorListener) determineNextResync(now time.Time) {
	// exercise:begin 2
	p.resyncLock.Lock()
	defer p.resyncLock.Unlock()
	p.nextResync = now.Add(p.resyncPeriod)
	// exercise:end 2
}

// setResyncPeriod changes the listener's resync period.
func (p *processorListener) setResyncPeriod(resyncPeriod time.Duration) {
	// exercise:begin 14
	p.resyncLock.Lock()
	defer p.resyncLock.Unlock()
	p.resyncPeriod = resyncPeriod
	// exercise:end 14
}
