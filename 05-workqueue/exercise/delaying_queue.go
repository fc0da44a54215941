// Your copy of ../delaying_queue.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 05`
// checks your work, and `go run ./workshop/cmd/workshop hint 05 N` gives
// exercise N's hint.

package workqueue

import (
	"sync"
	"time"

	"example.com/walkthrough/workshop/todo"
)

// TypedDelayingInterface is a queue that can also add an item later.
//
// client-go: util/workqueue/delaying_queue.go (TypedDelayingInterface)
type TypedDelayingInterface[T comparable] interface {
	TypedInterface[T]
	// AddAfter adds item once duration has passed. A duration of zero or
	// less adds it now. An item already waiting keeps the earlier time.
	AddAfter(item T, duration time.Duration)
}

// TypedDelayingQueueConfig names a delaying queue, says where its metrics
// go, and can supply the queue underneath.
//
// client-go: util/workqueue/delaying_queue.go (TypedDelayingQueueConfig)
type TypedDelayingQueueConfig[T comparable] struct {
	Name            string
	MetricsProvider MetricsProvider
	// Queue is the queue items go to when they are ready. Nil means a new
	// Typed queue with the same name and provider.
	Queue TypedInterface[T]
}

// NewTypedDelayingQueue returns an unnamed delaying queue.
func NewTypedDelayingQueue[T comparable]() TypedDelayingInterface[T] {
	return NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{})
}

// NewTypedDelayingQueueWithConfig returns a delaying queue and starts its
// waiting goroutine. That goroutine moves items to the queue when they are
// ready; ShutDown stops it.
func NewTypedDelayingQueueWithConfig[T comparable](config TypedDelayingQueueConfig[T]) TypedDelayingInterface[T] {
	if config.Queue == nil {
		config.Queue = NewTypedWithConfig(TypedQueueConfig[T]{Name: config.Name, MetricsProvider: config.MetricsProvider})
	}
	q := &delayingQueue[T]{
		TypedInterface: config.Queue,
		retries:        newRetriesMetric(config.MetricsProvider, config.Name),
		waiting:        newWaiting[T](),
		wake:           make(chan struct{}, 1),
		stop:           make(chan struct{}),
	}
	go q.waitingLoop()
	return q
}

// delayingQueue is a queue plus a heap of items waiting for their ready
// time, and one goroutine that sleeps until the earliest of them.
//
// AddAfter puts the item on the heap itself, under mu, and pokes the
// goroutine only when the earliest ready time changed; the goroutine only
// sleeps and moves ready items to the queue. (client-go hands each
// item to its goroutine over a channel instead, and the goroutine alone
// touches the heap.)
//
// client-go: util/workqueue/delaying_queue.go (delayingType)
type delayingQueue[T comparable] struct {
	TypedInterface[T]

	retries CounterMetric // nil for an unnamed queue

	mu      sync.Mutex
	waiting *waiting[T] // guarded by mu

	// wake has room for one poke: "look at the heap again". A poke that
	// finds one already pending is not needed.
	wake chan struct{}

	// stop ends waitingLoop. The waiting items are dropped: nobody can
	// get them from a queue that is shutting down.
	stop         chan struct{}
	stopLoopOnce sync.Once
	shutDownOnce sync.Once
}

// AddAfter adds item after duration. After shutdown it does nothing;
// before, every call counts as a retry in the queue's metrics, even one
// that adds at once.
func (q *delayingQueue[T]) AddAfter(item T, duration time.Duration) {
	if q.ShuttingDown() {
		return
	}
	if q.retries != nil {
		q.retries.Inc()
	}
	if duration <= 0 {
		q.Add(item)
		return
	}
	q.mu.Lock()
	before, _ := q.waiting.next()
	q.waiting.insert(item, time.Now().Add(duration))
	after, _ := q.waiting.next()
	q.mu.Unlock()
	if after.Equal(before) {
		return // the loop's timer is still right
	}
	select {
	case q.wake <- struct{}{}:
	default: // a poke is already pending
	}
}

// waitingLoop moves items to the queue when they are ready: it adds every
// item that is due, sleeps until the next ready time or a poke, and again.
func (q *delayingQueue[T]) waitingLoop() {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		q.mu.Lock()
		now := time.Now()
		ready := q.waiting.popReady(now)
		next, ok := q.waiting.next()
		q.mu.Unlock()

		for _, item := range ready {
			q.Add(item) // the queue's dirty set still applies
		}

		var fire <-chan time.Time
		if ok {
			if timer == nil {
				timer = time.NewTimer(next.Sub(now))
			} else {
				timer.Reset(next.Sub(now))
			}
			fire = timer.C
		}
		select {
		case <-q.stop:
			return
		case <-q.wake:
		case <-fire:
		}
	}
}

// ShutDown shuts the queue down and stops the waiting loop. Only the first
// call does anything.
func (q *delayingQueue[T]) ShutDown() {
	q.shutDownOnce.Do(func() {
		q.TypedInterface.ShutDown()
		q.stopLoop()
	})
}

// ShutDownWithDrain stops the waiting loop, then drains the queue.
// (client-go leaves its loop running until the next wake-up; it then sees
// the shutdown and stops. Nothing it could add would be accepted anyway.)
func (q *delayingQueue[T]) ShutDownWithDrain() {
	q.stopLoop()
	q.TypedInterface.ShutDownWithDrain()
}

// stopLoop tells the waiting loop to return, once however often it is
// called.
func (q *delayingQueue[T]) stopLoop() {
	q.stopLoopOnce.Do(func() { close(q.stop) })
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
