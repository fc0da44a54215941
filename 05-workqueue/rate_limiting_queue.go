package workqueue

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
	// exercise:begin 10 The rate-limiting queue: a delaying queue and a limiter
	// exercise:hint Without a delaying queue in the config, make one with the config's name and
	//   provider; the rate-limiting queue is that queue plus the limiter. NumRequeues asks the
	//   limiter.
	// exercise:deeper AddRateLimited is AddAfter(item, limiter.When(item)) and Forget is
	//   limiter.Forget: the queue keeps no retry state of its own, which is why a worker must call
	//   Forget on success.
	// exercise:track deep
	if config.DelayingQueue == nil {
		config.DelayingQueue = NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{
			Name:            config.Name,
			MetricsProvider: config.MetricsProvider,
		})
	}
	return &rateLimitingQueue[T]{TypedDelayingInterface: config.DelayingQueue, limiter: limiter}
	// exercise:end 10
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
	// exercise:begin 10
	return q.limiter.NumRequeues(item)
	// exercise:end 10
}
