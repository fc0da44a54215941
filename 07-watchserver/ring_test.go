package watchserver

import (
	"fmt"
	"testing"
	"time"
)

// TestRingResizesByAge follows kube-apiserver's rule for the watch cache's
// window with the clock in the test's hands: a full ring doubles while its
// oldest event is fresh, up to its largest; drops its oldest once that is
// stale; and halves when even its newest quarter is stale, keeping the
// newest events.
func TestRingResizesByAge(t *testing.T) {
	t0 := time.Unix(1_000_000, 0)
	r := newEventRing(4, 16, 75*time.Second)
	window := func() string {
		var rvs []int64
		whole := interval{from: r.start, to: r.end}
		events, _ := r.read(&whole, len(r.slots))
		for _, ev := range events {
			rvs = append(rvs, ev.RV)
		}
		return fmt.Sprintf("capacity %d, window %v, dropped %t", len(r.slots), rvs, r.dropped)
	}
	add := func(rv int64, at time.Duration) { r.add(Event{RV: rv}, t0.Add(at)) }
	for rv := int64(1); rv <= 10; rv++ {
		add(rv, time.Duration(rv)*time.Second)
	}
	if got, want := window(), "capacity 16, window [1 2 3 4 5 6 7 8 9 10], dropped false"; got != want {
		t.Fatalf("ten fresh events in a ring of 4: %s, want %s", got, want)
	}
	for rv := int64(11); rv <= 20; rv++ {
		add(rv, time.Duration(rv)*time.Second)
	}
	if got, want := window(), "capacity 16, window [5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20], dropped true"; got != want {
		t.Fatalf("past its largest: %s, want %s", got, want)
	}
	// Ten minutes on, the newest quarter (17..20) is stale: the ring
	// halves, keeping the newest, then drops the oldest to take one more.
	add(21, 10*time.Minute)
	if got, want := window(), "capacity 8, window [14 15 16 17 18 19 20 21], dropped true"; got != want {
		t.Fatalf("a stale ring: %s, want %s", got, want)
	}
	r.reset()
	if got, want := window(), "capacity 8, window [], dropped false"; got != want {
		t.Fatalf("after reset: %s, want %s", got, want)
	}
}

// TestWatchChanSizeFollowsTheRing: about one second of the window, 10 to
// 100 events, kube-apiserver's rule for a resource with no indexed field.
func TestWatchChanSizeFollowsTheRing(t *testing.T) {
	for _, c := range []struct{ capacity, want int }{{100, 10}, {1000, 14}, {6400, 86}, {102400, 100}} {
		r := newEventRing(c.capacity, c.capacity, 75*time.Second)
		if got := r.watchChanSize(); got != c.want {
			t.Errorf("a ring of %d: watch channel of %d, want %d", c.capacity, got, c.want)
		}
	}
}
