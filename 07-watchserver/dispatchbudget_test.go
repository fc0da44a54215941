package watchserver

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// TestDispatchBudgetRefills: the dispatcher's budget for full buffers
// starts empty, refills at 50 ms a second up to 100 ms, and gets back what
// a wait did not use, as kube-apiserver's (time_budget.go). Each step
// registers a watcher whose client reads nothing, with buffers of one, and
// sends it four events: one waits in its result, one in its loop, one in
// its input, and the fourth finds it full; the dispatcher waits what the
// budget holds, then closes it. On fake time, in a synctest bubble, the
// wait is exact.
func TestDispatchBudgetRefills(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := NewCache(&Storage{}, CacheOptions{WatcherBuffer: 1})
		dispatcher := make(chan struct{})
		go func() { defer close(dispatcher); c.dispatchLoop() }()
		rv := int64(0)
		// fill sends four events; it returns how long the dispatcher took
		// to give up on whoever had no room for them (a minute at most).
		fill := func() time.Duration {
			start := time.Now()
			for range 4 {
				rv++
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprint("c", rv), ResourceVersion: fmt.Sprint(rv)}}
				c.processEvent(Event{Type: watch.Added, Object: cm, RV: rv})
			}
			for synctest.Wait(); c.Watchers() > 0 && time.Since(start) < time.Minute; synctest.Wait() {
				time.Sleep(100 * time.Microsecond)
			}
			return time.Since(start)
		}
		check := func(step string, got, want time.Duration) {
			t.Helper()
			switch {
			case got >= time.Minute:
				t.Errorf("%s: the watcher that made no room was still open a minute later, want it closed after %v", step, want)
			case got != want:
				t.Errorf("%s: the watcher that made no room was closed after %v, want %v", step, got, want)
			}
		}

		time.Sleep(time.Second)
		slow := c.register(WatchOptions{}, 0)
		check("one second after the cache started (the budget starts empty and refills at 50ms a second)", fill(), 50*time.Millisecond)
		slow.Stop()

		slow = c.register(WatchOptions{}, 0)
		check("right after a wait that spent the whole budget (50ms refills only 2.5ms)", fill(), 2500*time.Microsecond)
		slow.Stop()

		// After ten seconds the budget is full, 100ms. This watcher's
		// client reads one event 30ms in, which makes room, and stops: the
		// 70ms the dispatcher did not wait go back into the budget.
		time.Sleep(10 * time.Second)
		reader := c.register(WatchOptions{}, 0)
		go func() {
			time.Sleep(30 * time.Millisecond)
			<-reader.ResultChan()
			reader.Stop() // either way, the dispatcher's wait ends now
		}()
		fill()
		slow = c.register(WatchOptions{}, 0)
		check("right after a wait that used 30ms of a full budget (70ms given back, 1.5ms refilled)", fill(), 71500*time.Microsecond)
		slow.Stop()

		close(c.incoming)
		<-dispatcher
	})
}
