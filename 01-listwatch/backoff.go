package listwatch

import (
	"math/rand/v2"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// The Reflector's timing, in client-go's values.
const (
	backoffInitial = 800 * time.Millisecond
	backoffCap     = 30 * time.Second
	backoffFactor  = 2.0
	backoffJitter  = 1.0
	// backoffReset: after two minutes without a reset, the API server is
	// presumed healthy again and the next wait is back to the first.
	backoffReset = 2 * time.Minute

	minWatchTimeout = 5 * time.Minute
	maxWatchTimeout = 2 * minWatchTimeout
)

// backoff says how long to wait after each failure: 800ms, then double,
// up to 30s, each wait stretched by a random fraction of itself (jitter
// 1.0, so [0.8s, 1.6s), then [1.6s, 3.2s), …, then [30s, 60s) for ever).
// The jitter spreads the retries of many clients after one API server
// restart, so they do not all arrive in the same instant.
//
// Two minutes after the last reset it starts over from 800ms. The clock
// of that reset only moves on a reset, not on every step.
//
// upstream: k8s.io/apimachinery/pkg/util/wait/backoff.go (Backoff,
// Backoff.DelayWithReset, backoffManager)
type backoff struct {
	mu        sync.Mutex
	base      time.Duration // the next wait, before jitter
	capped    bool          // base reached the cap: stop doubling
	lastReset time.Time
	clock     clock.PassiveClock // newBackoff's; nil (a backoff made without it): the real one
}

func newBackoff(c clock.PassiveClock) *backoff {
	if c == nil {
		c = clock.RealClock{}
	}
	return &backoff{base: backoffInitial, lastReset: c.Now(), clock: c}
}

// now is the time on the backoff's clock.
func (b *backoff) now() time.Time {
	if b.clock == nil {
		return time.Now()
	}
	return b.clock.Now()
}

// next returns the wait before the next attempt.
func (b *backoff) next() time.Duration {
	// exercise:begin 7 Back off between attempts, and pick a watch timeout
	// exercise:hint next returns the current wait with up to 100% jitter added (backoffJitter),
	//   then doubles the wait for next time (backoffFactor) until it reaches backoffCap; once
	//   backoffReset has passed since the last reset (however many calls came between), the wait
	//   starts again from backoffInitial. watchTimeout picks a random number of seconds between
	//   minWatchTimeout and maxWatchTimeout, so that many clients do not all reconnect at once.
	// exercise:deeper The jitter is added to the returned wait, not stored: the base doubles from
	//   the base. Once capped, stop doubling (the capped flag), so jitter stays around the cap.
	//   Take the lock: a backoff may be shared by goroutines (client-go's DelayWithReset hands out
	//   one that is), and the stress test calls next from several at once. The reset is measured
	//   from the last reset, on the backoff's clock (b.now: the real one, faked in the scenarios).
	// exercise:track deep
	b.mu.Lock()
	defer b.mu.Unlock()
	if now := b.now(); now.Sub(b.lastReset) > backoffReset {
		b.base, b.capped, b.lastReset = backoffInitial, false, now
	}
	d := b.base
	if !b.capped {
		next := time.Duration(float64(b.base) * backoffFactor)
		if next > backoffCap {
			next, b.capped = backoffCap, true
		}
		b.base = next
	}
	return d + time.Duration(rand.Float64()*backoffJitter*float64(d))
	// exercise:end 7
}

// watchTimeout picks a watch's timeoutSeconds at random in [5min, 10min),
// so the watches of many clients do not all end, and relist, together.
//
// client-go: tools/cache/reflector.go (Reflector.watch), its timeoutSeconds
func watchTimeout() *int64 {
	// exercise:begin 7
	s := int64(minWatchTimeout.Seconds() + rand.Float64()*(maxWatchTimeout.Seconds()-minWatchTimeout.Seconds()))
	return &s
	// exercise:end 7
}
