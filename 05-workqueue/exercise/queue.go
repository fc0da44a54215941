// Your copy of ../queue.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 05`
// checks your work, and `go run ./workshop/cmd/workshop hint 05 N` gives
// exercise N's hint.

package workqueue

import (
	"sync"
	"time"

	"example.com/walkthrough/workshop/todo"
)

// TypedInterface is what a controller's workers see of a work queue: Add
// a key when something changes, Get the next key to work on, Done when the
// work is finished.
//
// client-go: util/workqueue/queue.go (TypedInterface)
type TypedInterface[T comparable] interface {
	// Add marks item as needing work. It is a no-op after ShutDown.
	Add(item T)
	// Len is the number of items waiting for a worker; items being
	// processed are not counted.
	Len() int
	// Get blocks until an item is ready, then hands it to the caller,
	// who must call Done with it. shutdown is true only once the queue is
	// shutting down and empty.
	Get() (item T, shutdown bool)
	// Done says the worker has finished with item.
	Done(item T)
	// ShutDown stops Add and wakes every Get; queued items are still
	// handed out.
	ShutDown()
	// ShutDownWithDrain is ShutDown, then waits until no item is being
	// processed.
	ShutDownWithDrain()
	// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
	ShuttingDown() bool
}

// TypedQueueConfig names a queue and says where its metrics go. A queue
// without a name reports no metrics.
//
// client-go: util/workqueue/queue.go (TypedQueueConfig)
type TypedQueueConfig[T comparable] struct {
	Name string
	// MetricsProvider makes the queue's metrics. Nil means the provider
	// set with SetProvider, which reports nothing unless you set one.
	MetricsProvider MetricsProvider
}

// Typed is the work queue: a FIFO of items plus two sets that make it
// safe for many workers.
//
// An item is dirty from the moment it is added until a worker gets it: a
// second Add of a dirty item does nothing, so ten changes before a worker
// looks become one reconcile. An item is processing from Get until Done:
// an Add while a worker holds it only marks it dirty, and Done puts it
// back on the queue. So one item is never held by two workers, and no
// change that arrived during the work is lost.
//
// client-go: util/workqueue/queue.go (Typed)
type Typed[T comparable] struct {
	mu sync.Mutex
	// cond is signalled when an item is queued, and broadcast when the
	// processing set empties (every ShutDownWithDrain waiting returns) and
	// on shutdown.
	cond *sync.Cond

	// queue holds the items waiting for a worker, oldest first. Every
	// queued item is dirty, and (unless Done is called without Get) an
	// item appears in queue at most once.
	queue []T
	// dirty holds the items that need work and no worker has taken yet:
	// those in queue, and those added again while processing.
	dirty set[T]
	// processing holds the items a worker got and has not called Done on.
	// An item in processing and dirty is queued again by Done.
	processing set[T]

	// shuttingDown stops Add and tells Get not to wait. drain is true
	// while ShutDownWithDrain waits; ShutDown clears it to end the wait.
	shuttingDown bool
	drain        bool

	metrics queueMetrics[T]
	// stopMetrics ends the goroutine that refreshes the unfinished-work
	// gauges; metricsDone tracks it.
	stopMetrics     chan struct{}
	stopMetricsOnce sync.Once
	metricsDone     sync.WaitGroup
}

// unfinishedWorkPeriod is how often the unfinished-work and
// longest-running-processor gauges are recomputed.
const unfinishedWorkPeriod = 500 * time.Millisecond

// NewTyped returns an unnamed queue: it reports no metrics.
func NewTyped[T comparable]() *Typed[T] {
	return NewTypedWithConfig(TypedQueueConfig[T]{})
}

// NewTypedWithConfig returns a queue with the given name and metrics.
func NewTypedWithConfig[T comparable](config TypedQueueConfig[T]) *Typed[T] {
	q := &Typed[T]{
		dirty:       set[T]{},
		processing:  set[T]{},
		metrics:     newQueueMetrics[T](config.MetricsProvider, config.Name),
		stopMetrics: make(chan struct{}),
	}
	q.cond = sync.NewCond(&q.mu)
	if _, none := q.metrics.(noMetrics[T]); !none {
		q.metricsDone.Add(1)
		go q.updateUnfinishedWorkLoop()
	}
	return q
}

// Add queues item unless it is already waiting or the queue is shutting
// down. An item a worker holds is only marked dirty: Done queues it.
func (q *Typed[T]) Add(item T) {
	// Exercise 2: Add queues item unless it is already waiting or the queue is shutting down.
	panic(todo.Exercise("05-workqueue", 2, "Typed.Add"))
}

// Len is the number of items waiting for a worker.
func (q *Typed[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.queue)
}

// Get blocks until an item is queued or the queue shuts down. It keeps
// handing out queued items after shutdown; shutdown is true only when
// there are none left.
func (q *Typed[T]) Get() (item T, shutdown bool) {
	// Exercise 2: Get blocks until an item is queued or the queue shuts down.
	panic(todo.Exercise("05-workqueue", 2, "Typed.Get"))
}

// Done says a worker has finished with item. If item was added while the
// worker held it, Done queues it again, at the back: all those adds become
// one more round of work.
func (q *Typed[T]) Done(item T) {
	// Exercise 3: Done says a worker has finished with item.
	panic(todo.Exercise("05-workqueue", 3, "Typed.Done"))
}

// ShutDown stops the queue: Add is ignored from now on, and every Get
// waiting on an empty queue returns shutdown. It ends a ShutDownWithDrain
// that is still waiting.
func (q *Typed[T]) ShutDown() {
	defer q.stopMetricsLoop()
	q.mu.Lock()
	defer q.mu.Unlock()
	q.startShutdown(false)
}

// ShutDownWithDrain is ShutDown, then waits until every item a worker
// holds is Done. It does not wait for items still queued: workers can keep
// getting those, but nobody has to.
func (q *Typed[T]) ShutDownWithDrain() {
	// Exercise 11: ShutDownWithDrain is ShutDown, then waits until every item a worker holds is Done.
	panic(todo.Exercise("05-workqueue", 11, "Typed.ShutDownWithDrain"))
}

// startShutdown marks the queue shutting down and wakes everyone waiting.
// Call it with q.mu held.
func (q *Typed[T]) startShutdown(drain bool) {
	q.drain = drain
	q.shuttingDown = true
	q.cond.Broadcast()
}

// ShuttingDown reports whether the queue has been shut down.
func (q *Typed[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}

// updateUnfinishedWorkLoop refreshes the gauges that show how long
// workers have held their items, until the queue shuts down. A stuck
// worker shows up there long before its Done.
func (q *Typed[T]) updateUnfinishedWorkLoop() {
	defer q.metricsDone.Done()
	tick := time.NewTicker(unfinishedWorkPeriod)
	defer tick.Stop()
	for {
		select {
		case <-q.stopMetrics:
			return
		case <-tick.C:
			q.mu.Lock()
			if !q.shuttingDown {
				q.metrics.updateUnfinishedWork()
			}
			q.mu.Unlock()
		}
	}
}

// stopMetricsLoop ends updateUnfinishedWorkLoop and waits for it.
func (q *Typed[T]) stopMetricsLoop() {
	q.stopMetricsOnce.Do(func() { close(q.stopMetrics) })
	q.metricsDone.Wait()
}

// set is a set of comparable items.
//
// upstream: k8s.io/apimachinery/pkg/util/sets/set.go (Set)
type set[T comparable] map[T]struct{}

func (s set[T]) has(item T) bool { _, ok := s[item]; return ok }
func (s set[T]) insert(item T)   { s[item] = struct{}{} }
func (s set[T]) delete(item T)   { delete(s, item) }

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
