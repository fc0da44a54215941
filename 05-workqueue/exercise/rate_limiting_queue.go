// Your copy of ../rate_limiting_queue.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 05`
// checks your work, and `go run ./workshop/cmd/workshop hint 05 N` gives
// exercise N's hint.

package workqueue

import "example.com/walkthrough/workshop/todo"

// TypedRateLimitingInterface is the queue controllers use: a delaying
// queue that asks a rate limiter how long a failed item waits.
//
// The worker's loop is: Get a key; reconcile it; on success Forget it (its
// backoff starts over) and on failure AddRateLimited it; Done it either way.
//
// client-go: util/workqueue/rate_limiting_queue.go (TypedRateLimitingInterface)
type TypedRateLimitingInterface[T comparable] interface {
	TypedDelayingInterface[T]
	// AddRateLimited adds item after the wait the rate limiter gives it.
	AddRateLimited(item T)
	// Forget clears item's rate-limiting history. It does not take item
	// off the queue.
	Forget(item T)
	// NumRequeues is the rate limiter's count for item.
	NumRequeues(item T) int
}

// TypedRateLimitingQueueConfig names a rate-limiting queue, says where its
// metrics go, and can supply the delaying queue underneath.
//
// client-go: util/workqueue/rate_limiting_queue.go (TypedRateLimitingQueueConfig)
type TypedRateLimitingQueueConfig[T comparable] struct {
	Name            string
	MetricsProvider MetricsProvider
	// DelayingQueue is the queue underneath. Nil means a new delaying
	// queue with the same name and provider.
	DelayingQueue TypedDelayingInterface[T]
}

// NewTypedRateLimitingQueue returns an unnamed rate-limiting queue.
func NewTypedRateLimitingQueue[T comparable](limiter TypedRateLimiter[T]) TypedRateLimitingInterface[T] {
	return NewTypedRateLimitingQueueWithConfig(limiter, TypedRateLimitingQueueConfig[T]{})
}

// NewTypedRateLimitingQueueWithConfig returns a rate-limiting queue.
func NewTypedRateLimitingQueueWithConfig[T comparable](limiter TypedRateLimiter[T], config TypedRateLimitingQueueConfig[T]) TypedRateLimitingInterface[T] {
	if config.DelayingQueue == nil {
		config.DelayingQueue = NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{
			Name:            config.Name,
			MetricsProvider: config.MetricsProvider,
		})
	}
	return &rateLimitingQueue[T]{TypedDelayingInterface: config.DelayingQueue, limiter: limiter}
}

// rateLimitingQueue is a delaying queue and a rate limiter, nothing more:
// each of its own methods is one call to the limiter.
//
// client-go: util/workqueue/rate_limiting_queue.go (rateLimitingType)
type rateLimitingQueue[T comparable] struct {
	TypedDelayingInterface[T]
	limiter TypedRateLimiter[T]
}

func (q *rateLimitingQueue[T]) AddRateLimited(item T) { q.AddAfter(item, q.limiter.When(item)) }
func (q *rateLimitingQueue[T]) Forget(item T)         { q.limiter.Forget(item) }

// NumRequeues is the limiter's count of item's failures.
func (q *rateLimitingQueue[T]) NumRequeues(item T) int {
	return q.limiter.NumRequeues(item)
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
