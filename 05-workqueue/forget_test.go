package workqueue_test

import (
	"testing"
	"time"

	workqueue "example.com/walkthrough/05-workqueue"
)

// TestForgetGivesTheEntryBack: a per-item limiter that only zeroes an
// item's count on Forget answers every call right, and grows by one entry
// per item a controller ever retried. client-go deletes the entry
// (default_rate_limiters.go, Forget); so must ours.
func TestForgetGivesTheEntryBack(t *testing.T) {
	for name, l := range map[string]workqueue.TypedRateLimiter[string]{
		"exponential (exercise 5)": workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
		"fast-slow (exercise 6)":   workqueue.NewTypedItemFastSlowRateLimiter[string](time.Millisecond, time.Second, 2),
	} {
		for _, item := range []string{"a", "b", "c"} {
			l.When(item)
			l.When(item)
			l.Forget(item)
		}
		if n := workqueue.Tracked(l); n != 0 {
			t.Errorf("%s: after When and Forget of 3 items it still keeps %d entries: Forget must delete the item's entry, not set its count to 0", name, n)
		}
	}
}
