package watchserver_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	ws "example.com/walkthrough/07-watchserver"
)

// dispatchBudgetRefills: the dispatcher's budget for full buffers starts
// empty, refills at 50 ms a second up to 100 ms and no further, and gets
// back what a wait did not use, as kube-apiserver's (time_budget.go).
// Each step watches with a client that reads nothing, buffers of one, and
// adds four events, each once the last has settled: one waits in its
// result, one in its loop, one in its input, and the fourth finds it full;
// the dispatcher waits what the budget holds, then closes it. On fake
// time, in a synctest bubble, the wait is exact. (TestStress runs it on
// the selected implementation, your copy in the runner.)
func dispatchBudgetRefills(t *testing.T) {
	c, stop := ws.FedByHand(ws.CacheOptions{WatcherBuffer: 1, DispatchBudget: 100 * time.Millisecond, DispatchRefill: 50 * time.Millisecond}, nil)
	defer unlessPanicking(stop)
	if err := c.Replace(nil, "1"); err != nil {
		t.Fatal(err)
	}
	rv := 1
	watch := func() ws.Watcher {
		t.Helper()
		w, err := c.Watch(context.Background(), ws.WatchOptions{ResourceVersion: fmt.Sprint(rv)})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	// fill adds four events; it returns how long the dispatcher took to
	// give up on whoever had no room for them (a minute at most).
	fill := func() time.Duration {
		t.Helper()
		start := time.Now()
		for range 4 {
			rv++
			if err := c.Add(stressConfigMap(fmt.Sprint("c", rv), rv)); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
		}
		for ; c.Watchers() > 0 && time.Since(start) < time.Minute; synctest.Wait() {
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
	slow := watch()
	check("one second after the cache started (the budget starts empty and refills at 50ms a second)", fill(), 50*time.Millisecond)
	slow.Stop()

	slow = watch()
	check("right after a wait that spent the whole budget (50ms refills only 2.5ms)", fill(), 2500*time.Microsecond)
	slow.Stop()

	// After ten seconds the budget is full, 100ms. This watcher's client
	// reads one event 30ms in, which makes room, and stops: the 70ms the
	// dispatcher did not wait go back into the budget.
	time.Sleep(10 * time.Second)
	reader := watch()
	go func() {
		time.Sleep(30 * time.Millisecond)
		<-reader.ResultChan()
		reader.Stop() // either way, the dispatcher's wait ends now
	}()
	fill()
	slow = watch()
	check("right after a wait that used 30ms of a full budget (70ms given back, 1.5ms refilled)", fill(), 71500*time.Microsecond)
	slow.Stop()

	// A quiet minute refills 3s at 50ms a second, but the budget holds
	// 100ms at most: a slow client costs the others no more than that.
	time.Sleep(time.Minute)
	slow = watch()
	check("after a quiet minute (the budget refills up to 100ms, no further: take caps it at DispatchBudget)", fill(), 100*time.Millisecond)
	slow.Stop()
}
