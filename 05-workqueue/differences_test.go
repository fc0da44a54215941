package workqueue_test

import (
	"math"
	"runtime"
	"testing"
	"time"

	"k8s.io/client-go/util/workqueue"

	ours "example.com/walkthrough/05-workqueue"
)

// The differences docs/05-workqueue.md declares under "How client-go
// differs", each run on both sides with what each does.

// whenAfter calls When n times for one item and returns the last answer.
func whenAfter(l interface{ When(string) time.Duration }, n int) time.Duration {
	var d time.Duration
	for range n {
		d = l.When("item")
	}
	return d
}

// TestDifferenceExponentialArithmetic: client-go computes base·2ⁿ in
// float64, ours shifts integers. They agree for every ordinary base, but
// not at the edges: float64 rounds bases above 2⁵³, and a product that
// rounds to exactly 2⁶³ (or is NaN, from 0·∞) slips past client-go's
// overflow check and converts to a Duration. Go leaves the conversion of
// an out-of-range float to the platform: amd64 gives the most negative
// Duration, so client-go waits less than nothing; other platforms may
// saturate instead. The client-go half of those rows runs on amd64 only.
// Ours never returns less than zero or more than max.
func TestDifferenceExponentialArithmetic(t *testing.T) {
	const twoTo53 = time.Duration(1 << 53)
	rows := []struct {
		name       string
		base, max  time.Duration
		calls      int
		ours       time.Duration
		clientGoOK func(time.Duration) bool
		clientGo   string
	}{
		{"base 2⁵³+1ns is exact", twoTo53 + 1, math.MaxInt64, 1, twoTo53 + 1,
			func(d time.Duration) bool { return d == twoTo53 }, "2⁵³ns (rounded)"},
		{"base MaxInt64, max 10s", math.MaxInt64, 10 * time.Second, 1, 10 * time.Second,
			func(d time.Duration) bool { return d < 0 }, "negative"},
		{"base 0, the 1025th When", 0, 10 * time.Second, 1025, 0,
			func(d time.Duration) bool { return d < 0 }, "negative"},
		{"base 2⁵³ns, the 11th When (2⁶³)", twoTo53, 1000 * time.Second, 11, 1000 * time.Second,
			func(d time.Duration) bool { return d < 0 }, "negative"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			if got := whenAfter(ours.NewTypedItemExponentialFailureRateLimiter[string](r.base, r.max), r.calls); got != r.ours {
				t.Errorf("ours: %v, want %v", got, r.ours)
			}
			if r.clientGo == "negative" && runtime.GOARCH != "amd64" {
				t.Skip("the client-go half depends on amd64's float conversion")
			}
			if got := whenAfter(workqueue.NewTypedItemExponentialFailureRateLimiter[string](r.base, r.max), r.calls); !r.clientGoOK(got) {
				t.Errorf("client-go: %v, want %s (has client-go changed? then update the doc)", got, r.clientGo)
			}
		})
	}
}

// TestDifferenceInsideMaxOf: the negative answer matters most inside
// MaxOf, where it loses to any other limiter: the 11th failure of an item
// under exponential(5ms, 1000s) and exponential(2⁵³ns, 1000s) waits 1000s
// with ours, 5.12s with client-go.
func TestDifferenceInsideMaxOf(t *testing.T) {
	const twoTo53 = time.Duration(1 << 53)
	mine := ours.NewTypedMaxOfRateLimiter[string](
		ours.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second),
		ours.NewTypedItemExponentialFailureRateLimiter[string](twoTo53, 1000*time.Second))
	theirs := workqueue.NewTypedMaxOfRateLimiter[string](
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second),
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](twoTo53, 1000*time.Second))
	if got := whenAfter(mine, 11); got != 1000*time.Second {
		t.Errorf("MaxOf(exponential(5ms, 1000s), exponential(2⁵³ns, 1000s)), the 11th failure of one item: waits %v, want 1000s.\n"+
			"MaxOf asks every limiter about every failure (each counts it) and waits the longest answer; "+
			"the second's 11th answer, 2⁵³ns doubled ten times, is capped at 1000s", got)
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("the client-go half depends on amd64's float conversion")
	}
	if got := whenAfter(theirs, 11); got != 5120*time.Millisecond {
		t.Errorf("client-go: %v, want 5.12s (has client-go changed? then update the doc)", got)
	}
}

// TestDifferenceZeroValueLen: Len on a queue that was never constructed.
// client-go's locks a nil condition variable and panics; ours has a plain
// mutex, so the zero value answers 0. Every other method needs a
// constructed queue on both sides.
func TestDifferenceZeroValueLen(t *testing.T) {
	var mine ours.Typed[string]
	if got := mine.Len(); got != 0 {
		t.Errorf("ours: Len() = %d, want 0", got)
	}
	var theirs workqueue.Typed[string]
	panicked := func() (p bool) {
		defer func() { p = recover() != nil }()
		theirs.Len()
		return false
	}()
	if !panicked {
		t.Errorf("client-go: Len() on a zero value did not panic (has client-go changed? then update the doc)")
	}
}
