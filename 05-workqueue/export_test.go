package workqueue

// Tracked is how many items a per-item limiter keeps an entry for, or -1
// for another limiter: the memory Forget must give back, which nothing
// outside the package can see (NumRequeues is 0 either way).
func Tracked[T comparable](l TypedRateLimiter[T]) int {
	switch l := l.(type) {
	case *TypedItemExponentialFailureRateLimiter[T]:
		l.mu.Lock()
		defer l.mu.Unlock()
		return len(l.failures)
	case *TypedItemFastSlowRateLimiter[T]:
		l.mu.Lock()
		defer l.mu.Unlock()
		return len(l.failures)
	}
	return -1
}
