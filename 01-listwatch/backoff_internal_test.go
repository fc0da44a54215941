package listwatch

import (
	"testing"
	"testing/synctest"
	"time"
)

// The backoff's windows are client-go's: 0.8s doubling to a 30s cap, each
// wait in [base, 2·base), and back to the first two minutes after the
// last reset.
func TestBackoffWindows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBackoff(nil)
		bases := []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond,
			6400 * time.Millisecond, 12800 * time.Millisecond, 25600 * time.Millisecond, 30 * time.Second, 30 * time.Second}
		for i, base := range bases {
			if d := b.next(); d < base || d >= 2*base {
				t.Errorf("step %d: %v, want [%v, %v)", i+1, d, base, 2*base)
			}
		}
		time.Sleep(2*time.Minute + time.Second)
		if d := b.next(); d >= 1600*time.Millisecond {
			t.Errorf("two minutes after the last reset: %v, want the first window again", d)
		}
		// The reset counts from the last reset, however many calls came
		// between: failures a minute apart get the first window again
		// three minutes after the reset (trial U's clock, moved on every
		// call, never reset while failures kept coming).
		c := newBackoff(nil)
		c.next()
		var d time.Duration
		for range 3 {
			time.Sleep(time.Minute)
			d = c.next()
		}
		if d >= 1600*time.Millisecond {
			t.Errorf("failures a minute apart, three minutes after the reset: %v, want the first window again: the reset is measured from the last reset, not from the last call", d)
		}
		// Each wait is stretched by a random fraction of itself: many
		// clients failing together must not retry together (trial N's
		// backoff without jitter passed every other check).
		firsts := map[time.Duration]bool{}
		for range 20 {
			firsts[newBackoff(nil).next()] = true
		}
		for d := range firsts {
			if len(firsts) < 2 {
				t.Errorf("20 new backoffs all waited %v first: each wait is its base plus a random fraction of it (up to 100%%), to spread the retries of clients that failed together", d)
			}
		}
		for range 100 {
			if s := *watchTimeout(); s < 300 || s >= 600 {
				t.Fatalf("watch timeout %ds outside [300, 600)", s)
			}
		}
	})
}
