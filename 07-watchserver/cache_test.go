package watchserver_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	ws "example.com/walkthrough/07-watchserver"
)

// next reads one event or fails after 5s (real time: etcd is real).
func next(t testing.TB, w ws.Watcher) ws.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("the watch ended; want an event")
		}
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event in 5s")
	}
	return ws.Event{}
}

func describe(ev ws.Event) string {
	switch {
	case ev.Status != nil:
		return fmt.Sprintf("%s %d %s", ev.Type, ev.Status.Code, ev.Status.Message)
	case ev.Type == watch.Bookmark:
		o := asCM(ev.Object)
		return fmt.Sprintf("BOOKMARK %s %v", o.ResourceVersion, o.Annotations)
	default:
		o := asCM(ev.Object)
		return fmt.Sprintf("%s %s/%s v=%s rv=%s", ev.Type, o.Namespace, o.Name, o.Data["v"], o.ResourceVersion)
	}
}

// waitRV waits until the cache has applied rv.
func waitRV(t testing.TB, c *ws.Cache, rv int64) {
	t.Helper()
	if !pollUntil(5*time.Second, func() bool { return c.RV() >= rv }) {
		t.Fatalf("cache at rv %d, want %d", c.RV(), rv)
	}
}

// TestCacheWindowGrowsWhileItsEventsAreFresh: a ring of 2 that five quick
// writes overflow doubles instead of dropping events younger than 75 s, as
// kube-apiserver's does, so a watch from before the first still replays
// them all rather than getting a 410.
func TestCacheWindowGrowsWhileItsEventsAreFresh(t *testing.T) {
	t.Parallel()
	s := startServer(t, ws.CacheOptions{History: 2})
	ctx := context.Background()
	for i := range 5 {
		if _, err := s.storage.Create(ctx, cm("ns", fmt.Sprintf("c%d", i), "1")); err != nil {
			t.Fatal(err)
		}
	} // revisions 2..6
	waitRV(t, s.cache, 6)
	w, err := s.cache.Watch(ctx, ws.WatchOptions{Namespace: "ns", ResourceVersion: "1"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for i := range 5 {
		want := fmt.Sprintf("ADDED ns/c%d v=1 rv=%d", i, i+2)
		if got := describe(next(t, w)); got != want {
			t.Fatalf("replay from before the first write: got %q, want %q (the ring of 2 must grow while its events are fresh)", got, want)
		}
	}
}

func TestCacheReplaysTheWindowAndRefusesOlder(t *testing.T) {
	t.Parallel()
	// A ring that cannot grow, so five writes overflow it.
	s := startServer(t, ws.CacheOptions{History: 3, MaxHistory: 3})
	ctx := context.Background()
	for i := range 5 {
		if _, err := s.storage.Create(ctx, cm("ns", fmt.Sprintf("c%d", i), "1")); err != nil {
			t.Fatal(err)
		}
	} // revisions 2..6; the ring keeps 4, 5, 6
	waitRV(t, s.cache, 6)
	list, _ := cmListOf(s.cache.List("ns"))
	if len(list.Items) != 5 || list.ResourceVersion != "6" {
		t.Fatalf("list at rv=0: %d items at rv %s, want 5 at 6", len(list.Items), list.ResourceVersion)
	}
	// 3 is the version just before the oldest buffered event: the client
	// misses nothing, so it is still inside the window.
	w, err := s.cache.Watch(ctx, ws.WatchOptions{Namespace: "ns", ResourceVersion: "3"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for _, want := range []string{"ADDED ns/c2 v=1 rv=4", "ADDED ns/c3 v=1 rv=5", "ADDED ns/c4 v=1 rv=6"} {
		if got := describe(next(t, w)); got != want {
			t.Fatalf("replay: got %q, want %q", got, want)
		}
	}
	old, _ := s.cache.Watch(ctx, ws.WatchOptions{Namespace: "ns", ResourceVersion: "2"})
	if got, want := describe(next(t, old)), "ERROR 410 too old resource version: 2 (3)"; got != want {
		t.Fatalf("watch below the window: got %q, want %q", got, want)
	}
}

func TestCacheInitialEventsEndWithTheAnnotatedBookmark(t *testing.T) {
	t.Parallel()
	s := startServer(t, ws.CacheOptions{BookmarkInterval: 20 * time.Millisecond})
	ctx := context.Background()
	_, _ = s.storage.Create(ctx, cm("ns", "a", "1"))
	_, _ = s.storage.Create(ctx, cm("ns", "b", "1"))
	// A write elsewhere: the snapshot is at the cache's version, 4, newer
	// than anything the watch lists. The bookmark says 4, so a client that
	// resumes from it does not get this write's revision again (trial H).
	_, _ = s.storage.Create(ctx, cm("other", "x", "1"))
	w, err := s.cache.Watch(ctx, ws.WatchOptions{Namespace: "ns", SendInitialEvents: ptr.To(true), AllowBookmarks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	var got []string
	for range 3 {
		got = append(got, describe(next(t, w)))
	}
	want := "ADDED ns/a v=1 rv=2|ADDED ns/b v=1 rv=3|BOOKMARK 4 map[k8s.io/initial-events-end:true]"
	if strings.Join(got, "|") != want {
		t.Fatalf("initial events:\n got %s\nwant %s\n(the end bookmark carries the cache's version at the snapshot, not the newest listed object's)", strings.Join(got, "|"), want)
	}
	_, _ = s.storage.Create(ctx, cm("ns", "c", "1"))
	if got := describe(next(t, w)); got != "ADDED ns/c v=1 rv=5" {
		t.Fatalf("live event: got %q", got)
	}
	// A periodic bookmark, now that the cache moved past the start.
	if got := describe(next(t, w)); got != "BOOKMARK 5 map[]" {
		t.Fatalf("periodic bookmark: got %q", got)
	}
}

func TestSlowWatcherIsClosedOthersGoOn(t *testing.T) {
	t.Parallel() // it paces its writes by the fast watcher: load cannot fail it
	s := startServer(t, ws.CacheOptions{WatcherBuffer: 2, DispatchBudget: 300 * time.Millisecond})
	ctx := context.Background()
	slow, _ := s.cache.Watch(ctx, ws.WatchOptions{ResourceVersion: fmt.Sprint(s.cache.RV())})
	defer slow.Stop()
	fast, _ := s.cache.Watch(ctx, ws.WatchOptions{ResourceVersion: fmt.Sprint(s.cache.RV())})
	defer fast.Stop()
	const n = 20
	// One write at a time, each read by the fast watcher before the next:
	// it never falls behind, however loaded the machine, while the slow
	// one, which reads nothing, fills its buffers and is closed.
	for i := range n {
		if _, err := s.storage.Create(ctx, cm("ns", fmt.Sprintf("c%02d", i), "1")); err != nil {
			t.Fatal(err)
		}
		if got, want := describe(next(t, fast)), fmt.Sprintf("ADDED ns/c%02d v=1", i); !strings.HasPrefix(got, want) {
			t.Fatalf("fast watcher: got %q, want %q", got, want)
		}
	}
	// The slow one got what fit in its buffers, then a clean end. It was
	// closed long before the fast one read its last event, so waiting
	// longer than a moment only delays the failure of a cache that keeps it.
	count := 0
	deadline := time.After(2 * time.Second)
	for open := true; open; {
		select {
		case _, open = <-slow.ResultChan():
			if open {
				count++
			}
		case <-deadline:
			t.Fatalf("the slow watcher is still open after 2s (%d events): it was never closed", count)
		}
	}
	if count >= n {
		t.Fatalf("the slow watcher got all %d events; want it closed early", n)
	}
	if s.cache.Watchers() != 1 {
		t.Fatalf("registered watchers: %d, want 1 (the fast one)", s.cache.Watchers())
	}
}

// etcdWatchers reads etcd's own gauge of open watchers (mvcc).
func etcdWatchers(t testing.TB) float64 {
	t.Helper()
	n, ok := watcherGauge()
	if !ok {
		t.Fatal("etcd_debugging_mvcc_watcher_total not registered")
	}
	return n
}

// watcherGauge is etcd's watcher gauge, and whether an etcd of this
// process has registered it yet.
func watcherGauge() (float64, bool) {
	mfs, _ := prometheus.DefaultGatherer.Gather()
	for _, mf := range mfs {
		if mf.GetName() == "etcd_debugging_mvcc_watcher_total" {
			return mf.GetMetric()[0].GetGauge().GetValue(), true
		}
	}
	return 0, false
}

// waitGauge waits until etcd's watcher gauge reads want; when it does
// not, the test fails saying what the watchers counted were (what) and,
// where one was given, what would leave the count wrong (why).
func waitGauge(t testing.TB, want float64, what, why string) {
	t.Helper()
	if !pollUntil(20*time.Second, func() bool { return etcdWatchers(t) == want }) { // generous: only a failure waits it out
		t.Fatalf("etcd has %v watchers after 20s, want %v: %s.\n%s", etcdWatchers(t), want, what, why)
	}
}

// TestFanOutHoldsOneEtcdWatch is the doc's fan-out table: N client watches
// on the cache are one etcd watcher; N watches without the cache are N.
//
// etcd's gauge is one for the whole process, so the test runs in a
// process of its own, where no other etcd moves the gauge meanwhile.
func TestFanOutHoldsOneEtcdWatch(t *testing.T) {
	if !inItsOwnProcess(t) {
		return
	}
	before, _ := watcherGauge()
	s := startServer(t, ws.CacheOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	waitGauge(t, before+1, "the cache's own watch of etcd, and no other",
		"The cache watches etcd once (Cache.Run, exercise 4); a second watch is one started while\n"+
			"the first one stayed open: WatchEtcd's watch ends with its context (exercise 3).")
	for _, n := range []int{1, 10, 100, 1000} {
		var ws_ []ws.Watcher
		for range n {
			w, err := s.cache.Watch(ctx, ws.WatchOptions{ResourceVersion: "0"})
			if err != nil {
				t.Fatal(err)
			}
			ws_ = append(ws_, w)
		}
		if got := etcdWatchers(t) - before; got != 1 {
			t.Errorf("%d cache watchers: %v etcd watchers, want 1", n, got)
		}
		for _, w := range ws_ {
			w.Stop()
		}
		if n > 100 {
			continue // 1000 direct etcd watches would only slow the test
		}
		dctx, dcancel := context.WithCancel(ctx)
		for range n {
			ws.WatchEtcd(dctx, s.etcd.Client, ws.ConfigMaps, s.cache.RV())
		}
		waitGauge(t, before+float64(1+n), fmt.Sprintf("the cache's watch and %d direct WatchEtcd calls", n),
			"Each WatchEtcd call is one etcd watch (exercise 3).")
		dcancel()
		waitGauge(t, before+1, fmt.Sprintf("the cache's watch, after the context of %d direct WatchEtcd calls ended", n),
			"WatchEtcd's etcd watch ends with its context: pass it to client.Watch (exercise 3).")
	}
}

// aloneVar names the test a process of its own was started for.
const aloneVar = "WALKTHROUGH_TEST_ALONE"

// inItsOwnProcess runs t again in a new process of this test binary, where
// no other test runs, and fails t here if it fails there; it returns true
// in that new process, where the test goes on. A test that reads a gauge
// every etcd of the process moves runs beside the others this way, rather
// than alone before all of them, which cost every run of the chapter a
// second.
func inItsOwnProcess(t *testing.T) bool {
	if os.Getenv(aloneVar) == t.Name() {
		return true
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), aloneVar+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil {
		var kept []string // its own report, without go test's framing
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if !strings.HasPrefix(line, "--- FAIL") && line != "FAIL" {
				kept = append(kept, line)
			}
		}
		t.Fatalf("in a process of its own: %v\n%s", err, strings.Join(kept, "\n"))
	}
	return false
}
