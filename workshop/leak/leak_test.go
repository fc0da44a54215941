package leak

import (
	"strings"
	"testing"
	"time"
)

func blockedUntil(stop chan struct{}) { <-stop }

func TestFindsAGoroutineLeftRunning(t *testing.T) {
	stop, started := make(chan struct{}), make(chan struct{})
	go func() {
		close(started)
		blockedUntil(stop)
	}()
	<-started
	left := Find(50 * time.Millisecond)
	if !strings.Contains(left, "leak.blockedUntil") {
		t.Fatalf("Find missed a goroutine blocked on a channel; it returned:\n%s", left)
	}
	close(stop)
	if left := Find(5 * time.Second); left != "" {
		t.Fatalf("Find still reports goroutines after they ended:\n%s", left)
	}
}
