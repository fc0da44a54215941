package workqueue

import (
	"sync"
	"time"
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
	// exercise:begin 1 Start and stop a queue: its state, Len and ShutDown
	// exercise:hint The constructor makes the three containers (queue slice, dirty and processing
	//   sets), the metrics from newQueueMetrics, and the condition variable on q.mu; it starts the
	//   metrics goroutine only for a queue with real metrics. ShutDown starts a shutdown that does
	//   not drain and stops that goroutine; Len and ShuttingDown read under the lock.
	// exercise:deeper Build the Cond after the struct: sync.NewCond(&q.mu) must point at the field
	//   of the queue you return. metricsDone.Add(1) before go q.updateUnfinishedWorkLoop(): the
	//   loop itself calls metricsDone.Done as it returns, so start it with a plain go statement,
	//   not a wrapper that calls Done again. startShutdown sets drain, then shuttingDown, then
	//   Broadcasts: every Get blocked on an empty queue must wake to see it. stopMetricsLoop closes
	//   stopMetrics once (a sync.Once: ShutDown may be called twice, and after ShutDownWithDrain)
	//   and waits on metricsDone, so no goroutine outlives the queue.
	// exercise:track deep
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
	// exercise:end 1
}

// Add queues item unless it is already waiting or the queue is shutting
// down. An item a worker holds is only marked dirty: Done queues it.
func (q *Typed[T]) Add(item T) {
	// exercise:begin 2 Add and Get: the dirty set and the processing set
	// exercise:hint In Add, you skip an item that is already dirty. You mark a new item dirty and
	//   call q.metrics.add. You queue it only if no worker holds it.
	// exercise:hint In Get, you wait for an item and pop the oldest. You call q.metrics.get and
	//   move it from dirty to processing.
	// exercise:deeper You hold q.mu for the whole call. You ignore Add after shutdown.
	// exercise:deeper You call q.cond.Signal after you queue an item.
	// exercise:deeper Get loops on q.cond.Wait while the queue is empty and not shutting down. An
	//   empty queue after that loop means shutdown.
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown || q.dirty.has(item) {
		return
	}
	q.metrics.add(item)
	q.dirty.insert(item)
	if q.processing.has(item) {
		return // Done queues it when the worker finishes
	}
	q.queue = append(q.queue, item)
	q.cond.Signal()
	// exercise:end 2
}

// Len is the number of items waiting for a worker.
func (q *Typed[T]) Len() int {
	// exercise:begin 1
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.queue)
	// exercise:end 1
}

// Get blocks until an item is queued or the queue shuts down. It keeps
// handing out queued items after shutdown; shutdown is true only when
// there are none left.
func (q *Typed[T]) Get() (item T, shutdown bool) {
	// exercise:begin 2
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.queue) == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if len(q.queue) == 0 {
		return item, true
	}
	item = q.queue[0]
	var zero T
	q.queue[0] = zero // let the garbage collector have it
	q.queue = q.queue[1:]
	q.metrics.get(item)
	q.dirty.delete(item)
	q.processing.insert(item)
	return item, false
	// exercise:end 2
}

// Done says a worker has finished with item. If item was added while the
// worker held it, Done queues it again, at the back: all those adds become
// one more round of work.
func (q *Typed[T]) Done(item T) {
	// exercise:begin 3 Done: give an item back, and queue it again if it changed meanwhile
	// exercise:hint You call q.metrics.done and take item out of the processing set. If item is
	//   dirty, you put it at the back of the queue. Wake whoever waits: a Get for the item you
	//   queued, a drain for an empty processing set.
	// exercise:deeper You hold q.mu for the whole call.
	// exercise:deeper After you queue a dirty item, you call q.cond.Signal.
	// exercise:deeper When the processing set becomes empty, you call q.cond.Broadcast, even if you
	//   queued the item again: every ShutDownWithDrain may be waiting.
	q.mu.Lock()
	defer q.mu.Unlock()
	q.metrics.done(item)
	q.processing.delete(item)
	requeued := q.dirty.has(item)
	if requeued {
		q.queue = append(q.queue, item)
	}
	switch {
	case len(q.processing) == 0:
		// Every ShutDownWithDrain may be waiting for this, and a worker
		// for the item queued again: one Signal could wake a drain and
		// leave the others asleep.
		q.cond.Broadcast()
	case requeued:
		q.cond.Signal()
	}
	// exercise:end 3
}

// ShutDown stops the queue: Add is ignored from now on, and every Get
// waiting on an empty queue returns shutdown. It ends a ShutDownWithDrain
// that is still waiting.
func (q *Typed[T]) ShutDown() {
	// exercise:begin 1
	defer q.stopMetricsLoop()
	q.mu.Lock()
	defer q.mu.Unlock()
	q.startShutdown(false)
	// exercise:end 1
}

// ShutDownWithDrain is ShutDown, then waits until every item a worker
// holds is Done. It does not wait for items still queued: workers can keep
// getting those, but nobody has to.
func (q *Typed[T]) ShutDownWithDrain() {
	// exercise:begin 11 Shut down with drain: wait for the work in flight
	// exercise:hint You start the shutdown in drain mode. Then you wait until the processing set is
	//   empty, or until a plain ShutDown cancels the drain.
	// exercise:deeper You defer q.stopMetricsLoop and hold q.mu. You call q.startShutdown(true).
	// exercise:deeper Then you loop on q.cond.Wait while q.drain is true and q.processing is not
	//   empty.
	defer q.stopMetricsLoop()
	q.mu.Lock()
	defer q.mu.Unlock()
	q.startShutdown(true)
	for q.drain && len(q.processing) > 0 {
		q.cond.Wait()
	}
	// exercise:end 11
}

// startShutdown marks the queue shutting down and wakes everyone waiting.
// Call it with q.mu held.
func (q *Typed[T]) startShutdown(drain bool) {
	// exercise:begin 1
	q.drain = drain
	q.shuttingDown = true
	q.cond.Broadcast()
	// exercise:end 1
}

// ShuttingDown reports whether the queue has been shut down.
func (q *Typed[T]) ShuttingDown() bool {
	// exercise:begin 1
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
	// exercise:end 1
}

// updateUnfinishedWorkLoop refreshes the gauges that show how long
// workers have held their items, until the queue shuts down. A stuck
// worker shows up there long before its Done.
func (q *Typed[T]) updateUnfinishedWorkLoop() {
	// exercise:begin 4
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
	// exercise:end 4
}

// stopMetricsLoop ends updateUnfinishedWorkLoop and waits for it.
func (q *Typed[T]) stopMetricsLoop() {
	// exercise:begin 1
	q.stopMetricsOnce.Do(func() { close(q.stopMetrics) })
	q.metricsDone.Wait()
	// exercise:end 1
}

// set is a set of comparable items.
//
// upstream: k8s.io/apimachinery/pkg/util/sets/set.go (Set)
type set[T comparable] map[T]struct{}

func (s set[T]) has(item T) bool { _, ok := s[item]; return ok }
func (s set[T]) insert(item T)   { s[item] = struct{}{} }
func (s set[T]) delete(item T)   { delete(s, item) }
