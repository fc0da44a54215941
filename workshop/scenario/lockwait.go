package scenario

import (
	"runtime"
	"strings"
)

// ReturnsBeforeALock yields until done closes (true) or the goroutine
// whose stack runs fn parks on a mutex (false). It answers "does this
// call get through while someone else holds the lock?" for code whose
// lock is out of reach (client-go's). synctest.Wait cannot: a goroutine
// waiting for a mutex never counts as settled, so Wait would wait for
// ever. A call that has done neither after many yields counts as
// waiting too: it is held up by something.
//
// fn must name a function only that goroutine runs (its entry
// function, say), as it appears in a stack: "pkg.writeDuringProcess".
// Call it from inside the synctest bubble the goroutine runs in.
func ReturnsBeforeALock(done <-chan struct{}, fn string) bool {
	for i := 0; i < 100_000; i++ {
		select {
		case <-done:
			return true
		default:
		}
		// A stack dump stops the world: look only now and then. A fixed
		// count of yields alone is not enough on a loaded machine, where
		// the goroutine may not have run yet (04's handler-removal test
		// taught this).
		if i%50 == 49 && waitsForALock(fn) {
			return false
		}
		runtime.Gosched()
	}
	return false
}

// waitsForALock reports whether a goroutine of the caller's synctest
// bubble that runs fn is parked on a sync.Mutex or sync.RWMutex.
func waitsForALock(fn string) bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		if strings.Contains(header, "synctest bubble") && strings.Contains(header, "Mutex.") &&
			strings.Contains(g, fn) {
			return true
		}
	}
	return false
}
