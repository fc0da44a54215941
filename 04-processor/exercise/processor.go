// Your copy of ../processor.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"example.com/walkthrough/workshop/todo"
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
	p := &sharedProcessor{}
	p.startedCond = sync.NewCond(p.mu.RLocker())
	return p
}

// addListener registers a listener, starting its pop and run goroutines if
// the processor is running. It reports whether it did: the caller must
// then queue any replay and start watchSynced itself.
func (p *sharedProcessor) addListener(l *processorListener) (ResourceEventHandlerRegistration, bool) {
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
}

// removeListener unregisters a listener. Closing its addCh makes pop
// return at once, dropping whatever it had buffered; run finishes the
// handler call in progress and returns. Removing an unknown listener, or
// one already removed, is not an error.
func (p *sharedProcessor) removeListener(handle ResourceEventHandlerRegistration) error {
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
}

// distribute hands a notification to every listener, or, for a sync, to
// the syncing ones. It waits for run to start the listeners first, so a
// notification is never sent to a listener nobody reads.
func (p *sharedProcessor) distribute(notification any, sync bool) {
	// Exercise 6: distribute hands a notification to every listener, or, for a sync, to the syncing ones.
	panic(todo.Exercise("04-processor", 6, "sharedProcessor.distribute"))
}

// run starts every listener's goroutines, waits for ctx to end, then stops
// them all and waits for them to return.
func (p *sharedProcessor) run(ctx context.Context) {
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
}

// shouldResync marks each listener syncing or not for the coming resync,
// moves the due ones' next deadline on, and reports whether any is due.
// The Reflector calls it every resync check period and asks the FIFO for
// a resync when it returns true.
func (p *sharedProcessor) shouldResync() bool {
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
}

// resyncCheckPeriodChanged recomputes every listener's period, after the
// informer's check period went down (only possible before it starts).
func (p *sharedProcessor) resyncCheckPeriodChanged(check time.Duration) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	for l := range p.listeners {
		l.setResyncPeriod(determineResyncPeriod(l.requestedResyncPeriod, check))
	}
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
)
