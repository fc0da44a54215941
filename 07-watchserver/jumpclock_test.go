package watchserver_test

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// jumpClock is the real clock plus the jumps a scenario's "advance" makes.
// client-go's Reflector reads its time from the clock its options give it
// (ReflectorOptions.Clock): the backoff it waits out after a failure, and
// how long a watch lasted, which tells a very short watch from a healthy
// one. On this clock chapter 01's "advance 1600ms" costs no real time,
// while the server, etcd and the network run on real time as before.
//
// A timer started after the jump that would have ended it just waits its
// real time out: slower, never wrong. So a step that jumps does not have to
// know whether the Reflector is already waiting.
type jumpClock struct {
	mu     sync.Mutex
	offset time.Duration // the jumps so far, less the time it was held
	timers map[*jumpTimer]bool
	read   bool      // someone asked it the time or started a timer
	heldAt time.Time // while held (hold), the real time it stopped at
}

var _ clock.WithTicker = (*jumpClock)(nil)

func newJumpClock() *jumpClock { return &jumpClock{timers: map[*jumpTimer]bool{}} }

func (c *jumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.read = true
	return c.now()
}

// used reports whether anyone has read the clock yet: a Reflector that
// was given it but reads the real one never does.
func (c *jumpClock) used() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.read
}

// now is Now with c.mu held.
func (c *jumpClock) now() time.Time {
	if !c.heldAt.IsZero() {
		return c.heldAt.Add(c.offset)
	}
	return time.Now().Add(c.offset)
}

// hold stops the clock until the func it returns is called: a write to
// the server takes no time on it, as in 01's bubble, where the goldens
// were recorded. On a loaded machine a write can take a second; a
// Reflector's backoff started before it then ran out on the real clock
// during it, before the file's advance (CI under a load of 7:
// dropped-watch.txt's retry showed in a create's output).
func (c *jumpClock) hold() (release func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.heldAt = time.Now()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.offset -= time.Since(c.heldAt)
		c.heldAt = time.Time{}
		for t := range c.timers {
			t.arm() // a timer that came due on the real clock meanwhile did not fire
		}
	}
}

func (c *jumpClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// waitForTimer waits, at most patience, until a timer would end within d
// of now, and says whether one does. A file's advance most often lets a
// Reflector's backoff run out, and the Reflector starts that wait a moment
// after the failed request the step before saw; jumping before it started
// would leave the wait to the real clock.
func (c *jumpClock) waitForTimer(d, patience time.Duration) bool {
	for end := time.Now().Add(patience); ; time.Sleep(time.Millisecond) {
		if c.dueWithin(d) {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

func (c *jumpClock) dueWithin(d time.Duration) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	by := c.now().Add(d)
	for t := range c.timers {
		if !t.deadline.After(by) {
			return true
		}
	}
	return false
}

// Jump moves the clock d ahead: every timer that ends by then fires now.
func (c *jumpClock) Jump(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
	for t := range c.timers {
		t.arm()
	}
}

func (c *jumpClock) NewTimer(d time.Duration) clock.Timer { return c.start(d, 0) }

func (c *jumpClock) NewTicker(d time.Duration) clock.Ticker { return jumpTicker{c.start(d, d)} }

func (c *jumpClock) After(d time.Duration) <-chan time.Time { return c.NewTimer(d).C() }

func (c *jumpClock) Tick(d time.Duration) <-chan time.Time { return c.NewTicker(d).C() }

func (c *jumpClock) Sleep(d time.Duration) { <-c.After(d) }

// start makes a timer that ends d from now, and, when every is not zero,
// again every that long after.
func (c *jumpClock) start(d, every time.Duration) *jumpTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.read = true
	t := &jumpTimer{c: c, ch: make(chan time.Time, 1), every: every}
	t.real = time.AfterFunc(time.Hour, t.fire) // armed below, under c.mu
	t.set(d)
	return t
}

// jumpTimer is a timer or ticker of a jumpClock: a real timer for the time
// left, set again at every jump.
type jumpTimer struct {
	c     *jumpClock
	ch    chan time.Time
	every time.Duration // a ticker's period; 0 for a timer
	real  *time.Timer

	// Guarded by c.mu.
	deadline time.Time // on the jumping clock
	active   bool
}

func (t *jumpTimer) C() <-chan time.Time { return t.ch }

// set makes t end d from now. c.mu is held.
func (t *jumpTimer) set(d time.Duration) {
	t.deadline, t.active = t.c.now().Add(d), true
	t.c.timers[t] = true
	t.arm()
}

// arm sets the real timer to the time left. c.mu is held.
func (t *jumpTimer) arm() { t.real.Reset(max(0, t.deadline.Sub(t.c.now()))) }

// fire runs when the real timer ends. A jump resets the real timer while
// an earlier one may already be on its way here, so fire checks that the
// deadline has come and that t still runs.
func (t *jumpTimer) fire() {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	now := t.c.now()
	if !t.active || now.Before(t.deadline) {
		return
	}
	select {
	case t.ch <- now:
	default: // a tick nobody took yet: drop this one, as time.Ticker does
	}
	if t.every == 0 {
		t.stop()
		return
	}
	for !t.deadline.After(now) {
		t.deadline = t.deadline.Add(t.every)
	}
	t.arm()
}

// stop ends t. c.mu is held.
func (t *jumpTimer) stop() bool {
	was := t.active
	t.active = false
	delete(t.c.timers, t)
	t.real.Stop()
	return was
}

func (t *jumpTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	return t.stop()
}

func (t *jumpTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.set(d)
	return was
}

// jumpTicker is a jumpTimer that fires again and again, whose Stop says
// nothing, as clock.Ticker's.
type jumpTicker struct{ *jumpTimer }

func (t jumpTicker) Stop() { t.jumpTimer.Stop() }
