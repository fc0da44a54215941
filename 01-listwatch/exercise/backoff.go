// Your copy of ../backoff.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 01`
// checks your work, and `go run ./workshop/cmd/workshop hint 01 N` gives
// exercise N's hint.

package listwatch

import (
	"math/rand/v2"
	"sync"
	"time"

	"k8s.io/utils/clock"

	"example.com/walkthrough/workshop/todo"
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
}

// watchTimeout picks a watch's timeoutSeconds at random in [5min, 10min),
// so the watches of many clients do not all end, and relist, together.
//
// client-go: tools/cache/reflector.go (Reflector.watch), its timeoutSeconds
func watchTimeout() *int64 {
	s := int64(minWatchTimeout.Seconds() + rand.Float64()*(maxWatchTimeout.Seconds()-minWatchTimeout.Seconds()))
	return &s
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = rand.Float64
)
