package listwatch_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	ours "example.com/walkthrough/01-listwatch"
	"example.com/walkthrough/01-listwatch/testserver"
	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/workshop/scenario"
)

// TestStress uses the Reflector's shared state from several goroutines at
// once, where only its locks order them: the race detector (the runner
// always checks with -race) reports a lock left out, whatever the timing;
// the last asks whether the Reflector stopped every watch it opened. Each
// runs in a synctest bubble, on fake time, on the scripted server.
//
// It judges our package (reference, or your copy standing in for it), not
// client-go, whose Reflector keeps these parts to itself.
func TestStress(t *testing.T) {
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	ourOwn := func(t *testing.T) {
		if name == scenario.ClientGo {
			t.Skip("the stress test judges our Reflector's parts (reference or exercise), not client-go's")
		}
	}
	scenario.Stress(t, 7, "one-backoff-from-many-goroutines", func(t *testing.T) {
		ourOwn(t)
		synctest.Test(t, oneBackoffFromManyGoroutines)
	})
	scenario.Stress(t, 6, "watch-stopped-with-an-event-unread", func(t *testing.T) {
		ourOwn(t)
		synctest.Test(t, watchStoppedWithAnEventUnread)
	})
	scenario.Stress(t, 8, "last-sync-rv-read-while-events-flow", func(t *testing.T) {
		ourOwn(t)
		synctest.Test(t, lastSyncRVReadWhileEventsFlow)
	})
	scenario.Stress(t, 12, "every-watch-opened-is-stopped", func(t *testing.T) {
		ourOwn(t)
		synctest.Test(t, everyWatchOpenedIsStopped)
	})
}

// oneBackoffFromManyGoroutines: a backoff may be shared (client-go's
// DelayWithReset hands out one that is), so each call to next reads and
// doubles the base under its lock. Six goroutines, started at the same
// moment, call next once each: between them they must get the first six
// windows, each once (0.8s, 1.6s, … 25.6s, each with its jitter; the
// windows do not overlap). Without the lock the goroutines share nothing
// that orders them, and the race detector reports the base read while
// another writes it.
func oneBackoffFromManyGoroutines(t *testing.T) {
	const callers = 6
	next := ours.SharedBackoff()
	waits := make([]time.Duration, callers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			<-start
			waits[i] = next()
		})
	}
	close(start)
	wg.Wait()
	slices.Sort(waits)
	base := 800 * time.Millisecond
	for i, d := range waits {
		if d < base || d >= 2*base {
			t.Errorf("the %d shortest of %d waits is %v, want it in [%v, %v): each window handed out once (all: %v)",
				i+1, callers, d, base, 2*base, waits)
		}
		base *= 2
	}
}

// watchStoppedWithAnEventUnread: a consumer may Stop a watch while an
// event waits for it on ResultChan (a Reflector whose context ends between
// two events), and never read again. The watch's goroutine, blocked
// handing that event over, must hear the Stop and end: otherwise it waits
// for a reader for ever, and the bubble ends with it still blocked.
func watchStoppedWithAnEventUnread(t *testing.T) {
	srv := testserver.New(testserver.Options{})
	pods := srv.Serve(testserver.Pods)
	client := &ours.Client{HTTP: srv.HTTPClient(), Base: testserver.Host, Path: testserver.Pods.Path(""), Kind: ours.Typed[v1.Pod]("Pod")}
	w, err := client.Watch(context.Background(), metav1.ListOptions{ResourceVersion: srv.ResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Create(stressPod(1)); err != nil {
		t.Fatal(err)
	}
	synctest.Wait() // the ADDED event waits on ResultChan, unread
	w.Stop()
	// Nothing reads ResultChan again: the bubble ends once every
	// goroutine of the watch has.
}

// lastSyncRVReadWhileEventsFlow: LastSyncResourceVersion is asked from
// other goroutines (an informer's HasSynced and LastSyncResourceVersion)
// while the Reflector moves the version with every event, so both sides
// take the Reflector's lock. The store here hands each event over to the
// test on an unbuffered channel; the Reflector sets the event's version
// just after, while the test reads it: only the lock orders the read and
// the write. At the end the version is the last event's.
func lastSyncRVReadWhileEventsFlow(t *testing.T) {
	const events = 50
	srv := testserver.New(testserver.Options{})
	pods := srv.Serve(testserver.Pods)
	// One pod before the Reflector starts: its LIST then has a version
	// other than "0", and every event of the watch from it moves the
	// version (a watch from "0" starts with synthetic ADDED events that
	// must not).
	if _, err := pods.Create(stressPod(0)); err != nil {
		t.Fatal(err)
	}
	store := handOver{applied: make(chan struct{})}
	client := &ours.Client{HTTP: srv.HTTPClient(), Base: testserver.Host, Path: testserver.Pods.Path(""), Kind: ours.Typed[v1.Pod]("Pod")}
	r := ours.NewReflector(client, &v1.Pod{}, store, ours.ReflectorOptions{Name: "stress"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	defer func() { cancel(); <-done }()
	synctest.Wait() // listed, and watching

	var want string
	for i := 1; i <= events; i++ {
		rv, err := pods.Create(stressPod(i))
		if err != nil {
			t.Fatal(err)
		}
		want = rv
	}
	for i := range events {
		// On the bubble's fake time a minute passes at once when nothing
		// else can happen: the event never reached the store.
		select {
		case <-store.applied:
		case <-time.After(time.Minute):
			t.Fatalf("the store got %d of %d events, then nothing for a minute", i, events)
		}
		_ = r.LastSyncResourceVersion()
	}
	synctest.Wait() // the Reflector has set the last event's version
	if got := r.LastSyncResourceVersion(); got != want {
		t.Errorf("LastSyncResourceVersion is %q after every event, want the last one's, %q", got, want)
	}
}

// everyWatchOpenedIsStopped: the Reflector stops every watch it opens,
// however its handling of the watch ends: a watch is a connection, and
// one left open holds it, and the server's stream, until the server's
// timeout. Here the watches end early three ways, one each: an ERROR
// frame with 410 Expired (the Reflector lists again), an ERROR frame with
// 500 (it lists again after a backoff), and the Reflector's context
// ending. The test's ListerWatcher keeps every watch it hands out, and
// asks at the end which were stopped.
func everyWatchOpenedIsStopped(t *testing.T) {
	srv := testserver.New(testserver.Options{})
	pods := srv.Serve(testserver.Pods)
	if _, err := pods.Create(stressPod(0)); err != nil {
		t.Fatal(err)
	}
	lw := &watchesKept{ListerWatcher: &ours.Client{HTTP: srv.HTTPClient(), Base: testserver.Host, Path: testserver.Pods.Path(""), Kind: ours.Typed[v1.Pod]("Pod")}}
	r := ours.NewReflector(lw, &v1.Pod{}, indexer.NewStore(indexer.MetaNamespaceKeyFunc), ours.ReflectorOptions{Name: "stress"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	// Each end is followed by a minute of the bubble's fake time: the
	// backoff runs out, and the Reflector lists and watches again.
	ends := []string{"an ERROR frame with 410 Expired", "an ERROR frame with 500", "the Reflector's context ending"}
	synctest.Wait() // listed, and watching
	srv.SendError(410, metav1.StatusReasonExpired, "too old resource version: 1 (2)")
	time.Sleep(time.Minute)
	synctest.Wait()
	srv.SendError(500, metav1.StatusReasonInternalError, "the watch broke")
	time.Sleep(time.Minute)
	synctest.Wait()
	cancel()
	<-done

	opened, stopped := lw.watches()
	if len(opened) != len(ends) {
		t.Fatalf("the Reflector opened %d watches, want %d: one, then one after each of the first two ended (%s, %s)",
			len(opened), len(ends), ends[0], ends[1])
	}
	var open []string
	for i := range opened {
		if !stopped[i] {
			open = append(open, fmt.Sprintf("watch %d, ended by %s", i+1, ends[i]))
		}
	}
	if len(open) > 0 {
		t.Errorf("the Reflector never stopped %d of the %d watches it opened (%s): call Stop on every "+
			"watch you open once you are done with it, whether its stream ended, an event was an error "+
			"(410 Expired or another), or the context ended", len(open), len(opened), strings.Join(open, "; "))
	}
}

// watchesKept is a ListerWatcher that keeps every watch it opens, to tell
// which the Reflector stopped.
type watchesKept struct {
	ours.ListerWatcher
	mu   sync.Mutex
	kept []*keptWatch
}

func (lw *watchesKept) Watch(ctx context.Context, opts metav1.ListOptions) (ours.Watcher, error) {
	w, err := lw.ListerWatcher.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	k := &keptWatch{Watcher: w}
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.kept = append(lw.kept, k)
	return k, nil
}

// watches lists the watches opened, in order, and whether each was stopped.
func (lw *watchesKept) watches() (opened []*keptWatch, stopped []bool) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	for _, k := range lw.kept {
		stopped = append(stopped, k.stopped.Load())
	}
	return slices.Clone(lw.kept), stopped
}

// keptWatch is a watch that notes its Stop.
type keptWatch struct {
	ours.Watcher
	stopped atomic.Bool
}

func (w *keptWatch) Stop() {
	w.stopped.Store(true)
	w.Watcher.Stop()
}

func stressPod(i int) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("pod-%02d", i)}}
}

// handOver is a Reflector's store that keeps nothing and tells the test of
// every event applied, waiting until the test hears it.
type handOver struct{ applied chan struct{} }

func (s handOver) Add(any) error    { s.applied <- struct{}{}; return nil }
func (s handOver) Update(any) error { s.applied <- struct{}{}; return nil }
func (s handOver) Delete(any) error { s.applied <- struct{}{}; return nil }

func (handOver) Replace([]any, string) error { return nil }
func (handOver) Resync() error               { return nil }
