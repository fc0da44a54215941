package processor

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// sharedProcessor is the set of listeners of one informer. HandleDeltas
// calls distribute for every notification; distribute hands it to each
// listener, which returns at once (see processorListener), so the cost of
// a notification is one channel send per handler.
//
// Two kinds of notification:
//
//   - an ordinary one (an add, a delete, an update that changed the
//     resourceVersion) goes to every listener;
//   - a sync (an update whose old and new resourceVersion are equal: a
//     resync, or a relist that found nothing new) goes only to the
//     listeners whose syncing flag is set.
//
// The syncing flags start true and are recomputed by shouldResync, which
// the Reflector calls every resync check period: a listener is syncing
// from the check that found it due until the next check.
//
// client-go: tools/cache/shared_informer.go (sharedProcessor)
type sharedProcessor struct {
	// mu guards the fields below. distribute holds it for reading while
	// it sends, so a listener cannot be removed (its addCh closed) in the
	// middle of a send.
	mu sync.RWMutex
	// started is true while run is running the listeners' goroutines.
	started bool
	// startedCond wakes a distribute that is waiting for run to start.
	startedCond *sync.Cond
	// listeners maps each listener to its syncing flag. nil after run
	// has stopped: a stopped processor cannot be reused.
	listeners map[*processorListener]bool
	// wg counts the listeners' goroutines.
	wg wait.Group
}

// newSharedProcessor makes a processor with no listeners, not yet started.
func newSharedProcessor() *sharedProcessor {
	// exercise:begin 5 The processor: start, stop, add and remove listeners
	// exercise:hint run starts watchSynced, run and pop for every listener, marks the processor
	//   started and wakes any distribute waiting for that; when ctx ends it closes every listener's
	//   addCh, forgets them, and waits for all their goroutines. addListener registers a listener
	//   and starts its goroutines if the processor runs already; removeListener closes a running
	//   listener's addCh (or its runFinished if it never started).
	// exercise:deeper startedCond is built on the read side of mu
	//   (sync.NewCond(p.mu.RLocker())), because distribute waits under RLock. After
	//   stopping, broadcast again, as client-go does: a distribute still waiting must find
	//   no listeners and return (a guard: run always starts before it stops, so no check
	//   finds one waiting). Remove a listener that is not registered: nil, not an error; a
	//   handle of another type: fmt.Errorf("invalid key type %t", handle), %t as client-go
	//   writes it. Close addCh, never nextCh: pop owns nextCh.
	// exercise:track deep
	p := &sharedProcessor{}
	p.startedCond = sync.NewCond(p.mu.RLocker())
	return p
	// exercise:end 5
}

// addListener registers a listener, starting its pop and run goroutines if
// the processor is running. It reports whether it did: the caller must
// then queue any replay and start watchSynced itself.
func (p *sharedProcessor) addListener(l *processorListener) (ResourceEventHandlerRegistration, bool) {
	// exercise:begin 5
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.listeners == nil {
		p.listeners = map[*processorListener]bool{}
	}
	p.listeners[l] = true
	if p.started {
		p.wg.Start(l.run)
		p.wg.Start(l.pop)
	}
	return l, p.started
	// exercise:end 5
}

// removeListener unregisters a listener. Closing its addCh makes pop
// return at once, dropping whatever it had buffered; run finishes the
// handler call in progress and returns. Removing an unknown listener, or
// one already removed, is not an error.
func (p *sharedProcessor) removeListener(handle ResourceEventHandlerRegistration) error {
	// exercise:begin 5
	p.mu.Lock()
	defer p.mu.Unlock()
	l, ok := handle.(*processorListener)
	if !ok {
		return fmt.Errorf("invalid key type %t", handle)
	}
	if _, registered := p.listeners[l]; !registered {
		return nil
	}
	delete(p.listeners, l)
	if p.started {
		close(l.addCh)
	} else {
		close(l.runFinished)
	}
	return nil
	// exercise:end 5
}

// distribute hands a notification to every listener, or, for a sync, to
// the syncing ones. It waits for run to start the listeners first, so a
// notification is never sent to a listener nobody reads.
func (p *sharedProcessor) distribute(notification any, sync bool) {
	// exercise:begin 6 Fan a notification out to the listeners
	// exercise:hint Under the read lock, wait until the listeners are started (unless there are
	//   none), then add the notification to every listener; a sync goes only to listeners whose
	//   flag is true.
	// exercise:deeper Wait with p.startedCond.Wait() in a loop while !p.started && len(p.listeners)
	//   > 0. The map value is the syncing flag. listener.add returns quickly: it never waits for
	//   the handler.
	p.mu.RLock()
	defer p.mu.RUnlock()
	for !p.started && len(p.listeners) > 0 {
		p.startedCond.Wait()
	}
	for l, syncing := range p.listeners {
		if !sync || syncing {
			l.add(notification)
		}
	}
	// exercise:end 6
}

// run starts every listener's goroutines, waits for ctx to end, then stops
// them all and waits for them to return.
func (p *sharedProcessor) run(ctx context.Context) {
	// exercise:begin 5
	func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for l := range p.listeners {
			p.wg.Start(l.watchSynced)
			p.wg.Start(l.run)
			p.wg.Start(l.pop)
		}
		p.started = true
		p.startedCond.Broadcast()
	}()
	<-ctx.Done()

	func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for l := range p.listeners {
			close(l.addCh) // pop returns, and closes nextCh for run
		}
		p.listeners = nil
		p.started = false
		p.startedCond.Broadcast() // a waiting distribute finds no listeners and returns
	}()
	p.wg.Wait()
	// exercise:end 5
}

// shouldResync marks each listener syncing or not for the coming resync,
// moves the due ones' next deadline on, and reports whether any is due.
// The Reflector calls it every resync check period and asks the FIFO for
// a resync when it returns true.
func (p *sharedProcessor) shouldResync() bool {
	// exercise:begin 14
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	anyDue := false
	for l := range p.listeners {
		due := l.shouldResync(now)
		p.listeners[l] = due
		if due {
			anyDue = true
			l.determineNextResync(now)
		}
	}
	return anyDue
	// exercise:end 14
}

// resyncCheckPeriodChanged recomputes every listener's period, after the
// informer's check period went down (only possible before it starts).
func (p *sharedProcessor) resyncCheckPeriodChanged(check time.Duration) {
	// exercise:begin 14
	p.mu.RLock()
	defer p.mu.RUnlock()
	for l := range p.listeners {
		l.setResyncPeriod(determineResyncPeriod(l.requestedResyncPeriod, check))
	}
	// exercise:end 14
}
