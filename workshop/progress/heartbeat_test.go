package progress

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// A part that takes a while is named again when 1.5 s passed without a word; a count of
// tests done keeps the part it counts.
func TestHeartbeatNamesThePartUnderWay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var said []string
		h := startHeartbeat(func(s string) { mu.Lock(); said = append(said, s); mu.Unlock() })
		defer h.stop()
		h.Say("building the tests with your copy, under the race detector (the first time takes minutes)")
		time.Sleep(2000 * time.Millisecond)
		h.Say("running the tests")
		h.Count("12 tests done, 1 failed so far")
		time.Sleep(2000 * time.Millisecond)
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		want := []string{
			"building the tests with your copy, under the race detector (the first time takes minutes)",
			"still building the tests with your copy",
			"running the tests",
			"12 tests done, 1 failed so far",
			"still running the tests",
		}
		if len(said) != len(want) {
			t.Fatalf("said %q, want %q", said, want)
		}
		for i := range want {
			if said[i] != want[i] {
				t.Errorf("message %d: %q, want %q", i, said[i], want[i])
			}
		}
	})
}

// While the tests run, a beat names the checks still running (trial Y
// read a minute of bare "still running the tests"); one that ended, or
// paused, is no longer named.
func TestHeartbeatNamesTheChecksStillRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var said []string
		h := startHeartbeat(func(s string) { mu.Lock(); said = append(said, s); mu.Unlock() })
		defer h.stop()
		tr := newTracker(h.Count)
		h.Say("running the tests")
		h.detail(tr.still)
		tr.run("TestScenarios")
		tr.run("TestScenarios/slow")
		tr.run("TestStress/exercise-8/loop")
		tr.ended("TestStress/exercise-8/loop", true)
		time.Sleep(2000 * time.Millisecond)
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if got, want := said[len(said)-1], "still running the tests, on TestScenarios/slow"; got != want {
			t.Errorf("the beat said %q, want %q", got, want)
		}
	})
}
