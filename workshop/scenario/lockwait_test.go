package scenario

import (
	"sync"
	"testing"
	"testing/synctest"
)

// lockInGoroutine takes mu and closes done: the goroutine the test asks about.
func lockInGoroutine(mu *sync.Mutex, done chan<- struct{}) {
	mu.Lock()
	mu.Unlock()
	close(done)
}

func TestReturnsBeforeALock(t *testing.T) {
	for _, held := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			var mu sync.Mutex
			if held {
				mu.Lock()
			}
			done := make(chan struct{})
			go lockInGoroutine(&mu, done)
			if got := ReturnsBeforeALock(done, "scenario.lockInGoroutine"); got == held {
				t.Errorf("with the lock held=%t, ReturnsBeforeALock = %t", held, got)
			}
			if held {
				mu.Unlock()
			}
			<-done
		})
	}
}
