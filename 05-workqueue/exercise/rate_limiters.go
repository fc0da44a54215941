// Your copy of ../rate_limiters.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 05`
// checks your work, and `go run ./workshop/cmd/workshop hint 05 N` gives
// exercise N's hint.

package workqueue

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"example.com/walkthrough/workshop/todo"
)

// TypedRateLimiter decides how long an item waits before its next try.
// When is asked once per failure; Forget says the item succeeded, so its
// history no longer counts.
//
// client-go: util/workqueue/default_rate_limiters.go (TypedRateLimiter)
type TypedRateLimiter[T comparable] interface {
	// When returns how long to wait before item's next try, and counts
	// the try.
	When(item T) time.Duration
	// Forget clears item's history: its next failure starts over.
	Forget(item T)
	// NumRequeues is how many times When was asked about item since it
	// was last forgotten.
	NumRequeues(item T) int
}

// DefaultTypedControllerRateLimiter is the limiter most controllers use:
// per item, 5ms doubling up to 1000s; overall, 10 retries a second with
// bursts of 100. Whichever asks for the longer wait wins.
//
// client-go: util/workqueue/default_rate_limiters.go (DefaultTypedControllerRateLimiter)
func DefaultTypedControllerRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedMaxOfRateLimiter(
		NewTypedItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second),
		&TypedBucketRateLimiter[T]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
	)
}

// DefaultTypedItemBasedRateLimiter is per item only: 1ms doubling up to
// 1000s.
//
// client-go: util/workqueue/default_rate_limiters.go (DefaultTypedItemBasedRateLimiter)
func DefaultTypedItemBasedRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedItemExponentialFailureRateLimiter[T](time.Millisecond, 1000*time.Second)
}

// TypedItemExponentialFailureRateLimiter doubles an item's wait on every
// failure: base, 2·base, 4·base, … up to max, and max from then on.
//
// client-go: util/workqueue/default_rate_limiters.go (TypedItemExponentialFailureRateLimiter)
type TypedItemExponentialFailureRateLimiter[T comparable] struct {
	mu sync.Mutex
	// failures counts each item's When calls since its last Forget. An
	// item with no failures has no entry.
	failures map[T]int

	base, max time.Duration
}

// NewTypedItemExponentialFailureRateLimiter returns a limiter whose first
// wait is base and whose waits never exceed max.
func NewTypedItemExponentialFailureRateLimiter[T comparable](base, max time.Duration) TypedRateLimiter[T] {
	return &TypedItemExponentialFailureRateLimiter[T]{failures: map[T]int{}, base: base, max: max}
}

// When returns base·2ⁿ, n being item's failures before this one, capped
// at max. It never overflows: a wait too large for a Duration is max.
func (r *TypedItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	// Exercise 5: When returns base·2ⁿ, n being item's failures before this one, capped at max.
	panic(todo.Exercise("05-workqueue", 5, "TypedItemExponentialFailureRateLimiter.When"))
}

// NumRequeues is item's failures since it was last forgotten.
func (r *TypedItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int {
	// Exercise 5: NumRequeues is item's failures since it was last forgotten.
	panic(todo.Exercise("05-workqueue", 5, "TypedItemExponentialFailureRateLimiter.NumRequeues"))
}

// Forget starts item's backoff over.
func (r *TypedItemExponentialFailureRateLimiter[T]) Forget(item T) {
	// Exercise 5: Forget starts item's backoff over.
	panic(todo.Exercise("05-workqueue", 5, "TypedItemExponentialFailureRateLimiter.Forget"))
}

// TypedItemFastSlowRateLimiter retries an item quickly a few times, then
// slowly: fast for the first maxFast failures, slow after.
//
// client-go: util/workqueue/default_rate_limiters.go (TypedItemFastSlowRateLimiter)
type TypedItemFastSlowRateLimiter[T comparable] struct {
	mu       sync.Mutex
	failures map[T]int // as in the exponential limiter

	fast, slow time.Duration
	maxFast    int
}

// NewTypedItemFastSlowRateLimiter returns a limiter that waits fast for an
// item's first maxFast failures and slow after them.
func NewTypedItemFastSlowRateLimiter[T comparable](fast, slow time.Duration, maxFast int) TypedRateLimiter[T] {
	return &TypedItemFastSlowRateLimiter[T]{failures: map[T]int{}, fast: fast, slow: slow, maxFast: maxFast}
}

// When counts the failure first: failure number maxFast is still fast.
func (r *TypedItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures[item]++
	if r.failures[item] <= r.maxFast {
		return r.fast
	}
	return r.slow
}

// NumRequeues is how many times item failed since it was last forgotten.
func (r *TypedItemFastSlowRateLimiter[T]) NumRequeues(item T) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failures[item]
}

// Forget clears item's failures: its next retry is fast again.
func (r *TypedItemFastSlowRateLimiter[T]) Forget(item T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.failures, item)
}

// TypedBucketRateLimiter limits all items together with a token bucket:
// a burst goes through at once, then retries are spaced at the bucket's
// rate. Each When takes a token now or reserves a future one, so the
// waits it returns grow while retries keep coming. It keeps no per-item
// history.
//
// client-go: util/workqueue/default_rate_limiters.go (TypedBucketRateLimiter)
type TypedBucketRateLimiter[T comparable] struct {
	*rate.Limiter
}

// When reserves a token and returns how long until it is ours.
func (r *TypedBucketRateLimiter[T]) When(T) time.Duration {
	return r.Limiter.Reserve().Delay()
}

func (r *TypedBucketRateLimiter[T]) NumRequeues(T) int { return 0 }
func (r *TypedBucketRateLimiter[T]) Forget(T)          {}

// TypedMaxOfRateLimiter combines limiters: the wait is the longest any of
// them asks for. Every limiter is asked every time, so each keeps its own
// count.
//
// client-go: util/workqueue/default_rate_limiters.go (TypedMaxOfRateLimiter)
type TypedMaxOfRateLimiter[T comparable] struct {
	limiters []TypedRateLimiter[T]
}

// NewTypedMaxOfRateLimiter returns a limiter that waits the longest of
// limiters' waits.
func NewTypedMaxOfRateLimiter[T comparable](limiters ...TypedRateLimiter[T]) TypedRateLimiter[T] {
	return &TypedMaxOfRateLimiter[T]{limiters: limiters}
}

// When asks every limiter, and returns the longest wait (0 if there are
// no limiters).
func (r *TypedMaxOfRateLimiter[T]) When(item T) time.Duration {
	// Exercise 7: When asks every limiter, and returns the longest wait (0 if there are no limiters).
	panic(todo.Exercise("05-workqueue", 7, "TypedMaxOfRateLimiter.When"))
}

// NumRequeues is the largest count among the limiters.
func (r *TypedMaxOfRateLimiter[T]) NumRequeues(item T) int {
	// Exercise 7: NumRequeues is the largest count among the limiters.
	panic(todo.Exercise("05-workqueue", 7, "TypedMaxOfRateLimiter.NumRequeues"))
}

// Forget forgets item on every limiter.
func (r *TypedMaxOfRateLimiter[T]) Forget(item T) {
	// Exercise 7: Forget forgets item on every limiter.
	panic(todo.Exercise("05-workqueue", 7, "TypedMaxOfRateLimiter.Forget"))
}

// TypedWithMaxWaitRateLimiter caps another limiter's waits at maxDelay.
//
// client-go: util/workqueue/default_rate_limiters.go (TypedWithMaxWaitRateLimiter)
type TypedWithMaxWaitRateLimiter[T comparable] struct {
	limiter  TypedRateLimiter[T]
	maxDelay time.Duration
}

// NewTypedWithMaxWaitRateLimiter returns limiter with its waits capped at
// maxDelay.
func NewTypedWithMaxWaitRateLimiter[T comparable](limiter TypedRateLimiter[T], maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedWithMaxWaitRateLimiter[T]{limiter: limiter, maxDelay: maxDelay}
}

// When is the wrapped limiter's wait, never longer than maxDelay.
func (r *TypedWithMaxWaitRateLimiter[T]) When(item T) time.Duration {
	return min(r.limiter.When(item), r.maxDelay)
}

func (r *TypedWithMaxWaitRateLimiter[T]) NumRequeues(item T) int { return r.limiter.NumRequeues(item) }
func (r *TypedWithMaxWaitRateLimiter[T]) Forget(item T)          { r.limiter.Forget(item) }

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = math.MaxInt64
)
