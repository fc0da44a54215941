package watchserver_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	ws "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/scenario"
)

// TestStress runs concurrent writers against the selected implementation
// while several clients watch, and checks the fan-out's promise: every
// watcher sees every change exactly once, in increasing resourceVersion
// order (watching again from its last version, as a client does, if the
// server closed it for falling behind), and the server's goroutines all
// end (the leak check in TestMain).
func TestStress(t *testing.T) {
	t.Parallel() // its own server; its budget is 30 s for a run of about one
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	im, ok := impls[name]
	if !ok {
		t.Skipf("no %s implementation", name)
	}
	scenario.Stress(t, 10, "every-watcher-gets-every-event-in-order", func(t *testing.T) {
		if name == scenario.ClientGo {
			t.Skip("the stress test judges our server (reference or exercise), not kube-apiserver")
		}
		tg := im.Start(t)
		if tg.Serving != nil {
			tg.Serving(t)
		}
		cfg := &rest.Config{Host: tg.Base[:len(tg.Base)-len("/api/v1/namespaces/ns/configmaps")], QPS: 1000, Burst: 1000}
		cs, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// A panic in the cache's goroutine (kept by the target) stops the
		// cache, and every watcher with it: end the test at once and raise
		// it here, where the report shows its frames, rather than wait for
		// events that will never come.
		if tg.Panicked != nil {
			go func() {
				for ctx.Err() == nil && tg.Panicked() == nil {
					time.Sleep(20 * time.Millisecond)
				}
				cancel()
			}()
			defer func() {
				if p := tg.Panicked(); p != nil {
					panic(p)
				}
			}()
		}
		cms := cs.CoreV1().ConfigMaps("ns")
		list, err := cms.List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		const watchers, writers, perWriter = 8, 4, 25
		const total = writers * perWriter * 2 // a create and an update each
		results := make([][]string, watchers)
		listRV, err := strconv.ParseInt(list.ResourceVersion, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := range watchers {
			w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
			if err != nil {
				t.Fatal(err)
			}
			defer unlessPanicking(w.Stop)
			wg.Add(1)
			go func() {
				defer wg.Done()
				last, from := int64(0), listRV // from: where the open watch started
				for len(results[i]) < total {
					ev, ok := <-w.ResultChan()
					if !ok {
						// A watcher that fell behind by more than the
						// dispatcher's budget (a reader starved on a
						// loaded machine) is closed cleanly, as
						// kube-apiserver closes it; a client watches again
						// from the last version it saw, and must miss
						// nothing.
						from = max(last, listRV)
						if w, err = cms.Watch(ctx, metav1.ListOptions{ResourceVersion: strconv.FormatInt(from, 10)}); err != nil {
							results[i] = append(results[i], "watching again: "+err.Error())
							return
						}
						defer unlessPanicking(w.Stop)
						continue
					}
					if st, isStatus := ev.Object.(*metav1.Status); isStatus && ev.Type == watch.Error {
						results[i] = append(results[i], fmt.Sprintf("ERROR %d %s %q, on the watch from resourceVersion %d "+
							"(the list's version, or the last this watcher saw)", st.Code, st.Reason, st.Message, from))
						return
					}
					cm, isCM := ev.Object.(*corev1.ConfigMap)
					if !isCM {
						results[i] = append(results[i], fmt.Sprintf("%s %T, not a ConfigMap", ev.Type, ev.Object))
						return
					}
					rv, _ := strconv.ParseInt(cm.ResourceVersion, 10, 64)
					if rv <= last {
						results[i] = append(results[i], fmt.Sprintf("OUT OF ORDER %d after %d", rv, last))
					}
					last = rv
					results[i] = append(results[i], string(ev.Type)+" "+cm.Name+" "+cm.ResourceVersion)
				}
			}()
		}
		var writersWG sync.WaitGroup
		for wr := range writers {
			writersWG.Add(1)
			go func() {
				defer writersWG.Done()
				for i := range perWriter {
					cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("w%d-%02d", wr, i)}}, metav1.CreateOptions{})
					if err != nil {
						if ctx.Err() == nil {
							t.Error(err)
						}
						return
					}
					cm.Data = map[string]string{"v": "2"}
					if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
						if ctx.Err() == nil {
							t.Error(err)
						}
						return
					}
				}
			}()
		}
		writersWG.Wait()
		wg.Wait()
		if tg.Panicked != nil {
			if p := tg.Panicked(); p != nil {
				panic(p) // before counting what the stopped cache never sent
			}
		}
		for i := range watchers {
			if got := results[i]; len(got) != total {
				t.Fatalf("watcher %d got %d of %d events; the last:\n%s", i, len(got), total,
					strings.Join(got[max(0, len(got)-3):], "\n"))
			}
			for j := range results[i] {
				if results[i][j] != results[0][j] {
					t.Fatalf("watcher %d event %d: %q, watcher 0 saw %q", i, j, results[i][j], results[0][j])
				}
			}
		}
	})
	// The cases below play the Reflector by hand (ws.FedByHand), each
	// part in a synctest bubble of its own, on fake time, so that each
	// interleaving is certain.
	inBubble := func(id int, title string, parts ...func(t *testing.T)) {
		scenario.Stress(t, id, title, func(t *testing.T) {
			if name == scenario.ClientGo {
				t.Skip("the stress test judges our server (reference or exercise), not kube-apiserver")
			}
			for _, part := range parts {
				synctest.Test(t, part)
			}
		})
	}
	inBubble(5, "lists-while-events-flow", listsWhileEventsFlow)
	inBubble(8, "watches-start-while-events-flow", watchesStartWhileEventsFlow)
	inBubble(8, "start-holds-the-lock-from-snapshot-to-registration",
		func(t *testing.T) { startHoldsTheLock(t, true) }, func(t *testing.T) { startHoldsTheLock(t, false) })
	inBubble(8, "replay-overtaken-by-the-ring-ends-quietly", replayOvertakenEndsQuietly)
	inBubble(8, "periodic-bookmarks-come-again-and-before-the-deadline", periodicBookmarks)
	inBubble(8, "watch-from-now-keeps-what-came-meanwhile", watchFromNowKeepsWhatCameMeanwhile)
	inBubble(8, "a-stalled-dispatcher-holds-up-no-reader", stalledDispatcherHoldsUpNoReader)
	inBubble(8, "a-consistent-watch-starts-once-the-cache-catches-up", consistentWatchStartsOnceCaughtUp)
	inBubble(8, "a-watcher-stopped-while-waited-for-costs-nothing", stoppedWhileWaitedForCostsNothing)
	inBubble(8, "the-dispatch-budget-refills-up-to-its-size", dispatchBudgetRefills)
	inBubble(8, "no-bookmark-at-the-version-a-watch-starts-from", noBookmarkAtTheStart)
}

// noBookmarkAtTheStart: a watcher forwards only what is newer than where
// it started, bookmarks included: a BOOKMARK at the start version tells
// its client nothing it did not ask from. Here nothing changes after a
// watch starts, so the periodic bookmark a minute later is at the start
// version, and the watcher must drop it; the next, after a change, it
// forwards.
func noBookmarkAtTheStart(t *testing.T) {
	c, stop := ws.FedByHand(ws.CacheOptions{}, nil)
	defer unlessPanicking(stop)
	if err := c.Replace(nil, "1"); err != nil {
		t.Fatal(err)
	}
	// A change at 2, dispatched: the dispatcher's bookmarks are at 2 now.
	if err := c.Add(stressConfigMap("c2", 2)); err != nil {
		t.Fatal(err)
	}
	synctest.Wait()
	w, err := c.Watch(context.Background(), ws.WatchOptions{ResourceVersion: "2", AllowBookmarks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer unlessPanicking(w.Stop)
	select {
	case ev := <-w.ResultChan():
		t.Fatalf("a watch from 2, with nothing new since, got %s at %d: the periodic bookmark a minute on is at "+
			"the version the watch started from, and must be dropped, as every event not newer than the start", ev.Type, ev.RV)
	case <-time.After(90 * time.Second):
	}
	if err := c.Add(stressConfigMap("c3", 3)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []watch.EventType{watch.Added, watch.Bookmark} {
		select {
		case ev := <-w.ResultChan():
			if ev.Type != want || ev.RV != 3 {
				t.Fatalf("after a change at 3: got %s at %d, want %s at 3", ev.Type, ev.RV, want)
			}
		case <-time.After(2 * time.Minute):
			t.Fatalf("after a change at 3: no %s within 2 minutes", want)
		}
	}
}

// stoppedWhileWaitedForCostsNothing: the dispatcher waits for a watcher
// whose buffers are full, and its client stops it meanwhile (a kubectl
// that quit). Nobody will make room there any more: the dispatcher must
// go on at once, not wait out its budget, while every other watcher's
// events queue up behind it.
func stoppedWhileWaitedForCostsNothing(t *testing.T) {
	const budget = 10 * time.Second
	c, stop := listedWithBudget(t, budget)
	defer unlessPanicking(stop)
	gone, err := c.Watch(context.Background(), ws.WatchOptions{ResourceVersion: "1"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := c.Watch(context.Background(), ws.WatchOptions{ResourceVersion: "1"})
	if err != nil {
		t.Fatal(err)
	}
	defer unlessPanicking(other.Stop)
	// gone reads nothing: its buffers fill, and the dispatcher waits for
	// it, while the next event queues up behind: other, which reads all it
	// gets, no longer gets the newest.
	seen := int64(1) // the newest version other got
	drain := func() {
		for {
			select {
			case ev, ok := <-other.ResultChan():
				if !ok {
					t.Fatalf("the watcher that reads everything was closed after %d", seen)
				}
				seen = ev.RV
			default:
				return
			}
		}
	}
	rv := 2
	for ; ; rv++ {
		if rv == 50 {
			t.Fatalf("a watcher that read nothing took 48 events without the dispatcher waiting for it (its buffer: 1)")
		}
		if err := c.Add(stressConfigMap(fmt.Sprint("c", rv), rv)); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if drain(); seen < int64(rv) {
			break // the dispatcher waits for gone; rv waits behind it
		}
	}
	gone.Stop()
	synctest.Wait()
	if drain(); seen < int64(rv) {
		t.Fatalf("the dispatcher waited for room in a full watcher, whose client then stopped it; "+
			"the event at %d, queued behind, never reached another watcher: the dispatcher still waits "+
			"for the stopped one, and would until its budget (%v) ran out. "+
			"The wait must end when the watcher's done channel closes, too", rv, budget)
	}
}

// watchFromNowKeepsWhatCameMeanwhile: a watch from resourceVersion "" with
// sendInitialEvents=false starts at etcd's current revision, read before
// the watcher is registered. A write can land in between, and the
// Reflector apply it to the cache; the watch must replay it from the ring,
// as kube-apiserver does (getAllEventsSinceLocked from that revision), or
// the client never hears of that change. Here etcd answers revision 2
// after the cache has already applied revision 3: the same interleaving,
// made certain.
func watchFromNowKeepsWhatCameMeanwhile(t *testing.T) {
	var c *ws.Cache
	c, stop := ws.FedByHand(ws.CacheOptions{}, func() int64 {
		if err := c.Add(stressConfigMap("meanwhile", 3)); err != nil {
			t.Error(err)
		}
		synctest.Wait() // the event is in the ring, dispatched to nobody
		return 2
	})
	defer unlessPanicking(stop)
	if err := c.Replace(nil, "1"); err != nil {
		t.Fatal(err)
	}
	if err := c.Add(stressConfigMap("before", 2)); err != nil {
		t.Fatal(err)
	}
	noInitialEvents := false
	w, err := c.Watch(context.Background(), ws.WatchOptions{SendInitialEvents: &noInitialEvents})
	if err != nil {
		t.Fatal(err)
	}
	defer unlessPanicking(w.Stop)
	if err := c.Add(stressConfigMap("after", 4)); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for len(seen) < 2 {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok || ev.Type == watch.Error {
				t.Fatalf("the watch ended after %v: %v", seen, ev.Object)
			}
			seen = append(seen, fmt.Sprintf("%s %s %d", ev.Type, asCM(ev.Object).Name, ev.RV))
		case <-time.After(time.Minute):
			t.Fatalf("the watch from revision 2 saw %v, then nothing for a minute; want [ADDED meanwhile 3 ADDED after 4]: "+
				"the event the cache applied between reading etcd's revision and registering the watcher was lost", seen)
		}
	}
	if want := []string{"ADDED meanwhile 3", "ADDED after 4"}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Fatalf("the watch from revision 2 saw %v, want %v", seen, want)
	}
}

// startHoldsTheLock: a watch takes its snapshot (or replays the ring) and
// registers under one hold of the cache's lock. Each time any goroutine
// lets go of the lock while the watch starts, the test plays the
// Reflector and applies one more event, at once: one applied before the
// snapshot is in it, one applied after the registration is queued for the
// watcher. A start that lets go between the two leaves a gap, and the
// event applied in it reaches the watch neither way: no scheduler lands
// an event there reliably, the hook always does.
func startHoldsTheLock(t *testing.T, initialEvents bool) {
	var c *ws.Cache
	var starting atomic.Bool // the watch is starting: apply an event at each release
	var applying atomic.Bool // one at a time: applying one releases the lock too
	var applied []string
	rv := 2
	c, stop := ws.FedByHandWatchingTheLock(ws.CacheOptions{}, func() {
		if !starting.Load() || !applying.CompareAndSwap(false, true) {
			return
		}
		defer applying.Store(false)
		if len(applied) == 5 {
			return
		}
		name := fmt.Sprint("gap", len(applied))
		applied = append(applied, name)
		rv++
		if err := c.Add(stressConfigMap(name, rv)); err != nil {
			t.Error(err)
		}
	})
	defer unlessPanicking(stop)
	time.Sleep(2 * time.Second) // the dispatch budget refills: a step behind is waited for
	if err := c.Replace(nil, "1"); err != nil {
		t.Fatal(err)
	}
	if err := c.Add(stressConfigMap("before", 2)); err != nil {
		t.Fatal(err)
	}
	opts := ws.WatchOptions{ResourceVersion: "2", AllowBookmarks: true}
	if initialEvents {
		yes := true
		opts.SendInitialEvents = &yes
	}
	// The dispatcher idle: while the watch starts, the bubble's clock
	// stands still, so no bookmark tick takes the lock meanwhile.
	synctest.Wait()
	starting.Store(true)
	w, err := c.Watch(context.Background(), opts)
	starting.Store(false)
	if err != nil {
		t.Fatal(err)
	}
	defer unlessPanicking(w.Stop)
	if err := c.Add(stressConfigMap("last", rv+1)); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var order []string
	for !seen["last"] {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok || ev.Type == watch.Error {
				t.Fatalf("the watch ended after %v: %v", order, ev.Object)
			}
			if ev.Type != watch.Bookmark {
				seen[asCM(ev.Object).Name] = true
				order = append(order, fmt.Sprintf("%s %s %d", ev.Type, asCM(ev.Object).Name, ev.RV))
			}
		case <-time.After(time.Minute):
			t.Fatalf("the watch saw %v, then nothing for a minute", order)
		}
	}
	kind := "from resourceVersion 2"
	if initialEvents {
		kind = "with initial events"
	}
	for _, name := range applied {
		if !seen[name] {
			t.Fatalf("the watch %s never got %s, applied while it started, in a moment it had let go of the cache's lock: "+
				"take the snapshot (or replay) and register under one hold of the lock (it saw %v)", kind, name, order)
		}
	}
}

// replayOvertakenEndsQuietly: a watch from an old version replays the
// ring lazily, a chunk at a time, as its client reads. A burst of 400
// writes grows the ring to 400; a watch from the start of the window then
// reads its first 100 events and waits for its client, which reads nothing
// for two minutes. The next write finds the ring's newest quarter stale and
// halves it, to the newest 200: the rest of the replay is gone. The client
// then gets the 100 events read before, in order, and a clean end with no
// ERROR, as kube-apiserver's client does; watching again from the last of
// them is a 410. A replay copied whole at the start would send all 400; one
// that reads the slots after they were reused would send newer events in
// the middle of the old.
func replayOvertakenEndsQuietly(t *testing.T) {
	c, stop := ws.FedByHand(ws.CacheOptions{History: 100, MaxHistory: 400, WatcherBuffer: 10}, nil)
	defer unlessPanicking(stop)
	time.Sleep(2 * time.Second) // the dispatch budget refills: a step behind is waited for
	if err := c.Replace(nil, "1"); err != nil {
		t.Fatal(err)
	}
	for rv := 2; rv <= 401; rv++ {
		if err := c.Add(stressConfigMap(fmt.Sprint("c", rv), rv)); err != nil {
			t.Fatal(err)
		}
	}
	w, err := c.Watch(context.Background(), ws.WatchOptions{ResourceVersion: "1"})
	if err != nil {
		t.Fatal(err)
	}
	defer unlessPanicking(w.Stop)
	time.Sleep(2 * time.Minute) // the client reads nothing; the window ages
	if err := c.Add(stressConfigMap("c402", 402)); err != nil {
		t.Fatal(err)
	}
	synctest.Wait()
	var seen []int64
	ended := false
	for !ended {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				ended = true
				break
			}
			if ev.Type == watch.Error {
				t.Fatalf("after %d events the watch sent an ERROR (%v); kube-apiserver ends a replay the ring overtook without one", len(seen), ev.Status)
			}
			if len(seen) > 0 && ev.RV != seen[len(seen)-1]+1 || len(seen) == 0 && ev.RV != 2 {
				t.Fatalf("the replay from resourceVersion 1 sent %d after %v: the ring's slots were read after newer events took them", ev.RV, tail(seen))
			}
			seen = append(seen, ev.RV)
		case <-time.After(time.Minute): // on the bubble's clock: nothing more will come
			if len(seen) > 0 && seen[len(seen)-1] < 203 {
				t.Fatalf("the watch from resourceVersion 1 sent %d events, up to %v, and stopped there, as it should once the ring "+
					"shrank to resourceVersions 203-402, but stayed open: its client never learns that it must watch again. "+
					"End the watch there: the watcher's goroutine returns, and result is closed when it does", len(seen), tail(seen))
			}
			t.Fatalf("the watch from resourceVersion 1 sent %d events, up to %v, and stayed open, although the ring shrank to "+
				"resourceVersions 203-402 before its client read them: replay the ring lazily, a chunk at a time, and end the "+
				"watch quietly once the ring has moved past what it had still to send", len(seen), tail(seen))
		}
	}
	if len(seen) == 0 || seen[len(seen)-1] >= 202 {
		t.Fatalf("the watch from resourceVersion 1 sent %d events, up to %v, although the ring shrank to resourceVersions 203-402 "+
			"before its client read them: replay the ring lazily, a chunk at a time, and end the watch quietly once the ring "+
			"has moved past what it had still to send", len(seen), tail(seen))
	}
	again, err := c.Watch(context.Background(), ws.WatchOptions{ResourceVersion: fmt.Sprint(seen[len(seen)-1])})
	if err != nil {
		t.Fatal(err)
	}
	defer unlessPanicking(again.Stop)
	if ev := <-again.ResultChan(); ev.Type != watch.Error || ev.Status.Code != 410 {
		t.Fatalf("watching again from %d, the last version the client saw: got %s, want the ERROR 410 that sends it to relist", seen[len(seen)-1], ev.Type)
	}
}

// periodicBookmarks: a watcher that allows bookmarks gets one a minute
// after the last (up to a second early: the dispatcher looks once a
// second, and a bookmark is due in its second), every minute, each at the
// version of the last event dispatched; one whose request ends in 10 s
// gets one 2 s before that instead.
func periodicBookmarks(t *testing.T) {
	c, stop := ws.FedByHand(ws.CacheOptions{}, nil)
	defer unlessPanicking(stop)
	if err := c.Replace(nil, "1"); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	long, err := c.Watch(context.Background(), ws.WatchOptions{ResourceVersion: "1", AllowBookmarks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer unlessPanicking(long.Stop)
	short, err := c.Watch(context.Background(), ws.WatchOptions{ResourceVersion: "1", AllowBookmarks: true, Deadline: began.Add(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	// next is w's next event, and when it came; a bookmark that never
	// comes shows as a wait of 5 minutes on the bubble's clock.
	next := func(w ws.Watcher) (ws.Event, time.Duration) {
		select {
		case ev := <-w.ResultChan():
			return ev, time.Since(began)
		case <-time.After(5 * time.Minute):
			return ws.Event{}, time.Since(began)
		}
	}
	for rv := 2; rv <= 3; rv++ {
		if err := c.Add(stressConfigMap(fmt.Sprint("c", rv), rv)); err != nil {
			t.Fatal(err)
		}
		if ev, _ := next(long); ev.Type != watch.Added || ev.RV != int64(rv) {
			t.Fatalf("after the event at %d: got %s at %d", rv, ev.Type, ev.RV)
		}
		if rv == 2 {
			if ev, _ := next(short); ev.Type != watch.Added || ev.RV != 2 {
				t.Fatalf("after the event at 2: got %s at %d", ev.Type, ev.RV)
			}
			ev, at := next(short)
			if ev.Type != watch.Bookmark || ev.RV != 2 || at < 7*time.Second || at > 8*time.Second {
				t.Fatalf("a watch whose request ends at 10 s: got %s at %d after %v, want a BOOKMARK at 2 between 7 s and 8 s "+
					"(2 s before its deadline, in the second that is due)", ev.Type, ev.RV, at)
			}
			short.Stop()
		}
		want := time.Duration(rv-1) * time.Minute
		ev, at := next(long)
		if ev.Type == "" {
			t.Fatalf("periodic bookmark %d: none came by %v, want a BOOKMARK at %d between %v and %v: "+
				"a watcher gets one a minute after its last, and is put back for the next", rv-1, at, rv, want-time.Second, want)
		}
		if ev.Type != watch.Bookmark || ev.RV != int64(rv) || at < want-time.Second || at > want {
			t.Fatalf("periodic bookmark %d: got %s at %d after %v, want a BOOKMARK at %d between %v and %v: "+
				"a watcher gets one a minute after its last, and is put back for the next", rv-1, ev.Type, ev.RV, at, rv, want-time.Second, want)
		}
	}
}

// unlessPanicking runs stop unless a panic is on its way up the test's
// goroutine: one raised in the cache's code may have left its lock held,
// and stop (a watcher's, or FedByHand's) would wait for that lock for
// ever, where the panic, let go on, shows its frames at once. Defer it
// directly: defer unlessPanicking(w.Stop).
func unlessPanicking(stop func()) {
	if v := recover(); v != nil {
		panic(v)
	}
	stop()
}

// consistentWatchStartsOnceCaughtUp: a watch-list (sendInitialEvents)
// from resourceVersion "" sends the state at etcd's current revision, so
// it waits for the cache to reach it. The cache wakes its waiters the
// moment its revision moves (it closes fresher); a poll every 100 ms is
// only the fallback for a cache that has nothing to apply. Here etcd is at
// revision 5 and the cache at 1: once the test, playing the Reflector, has
// applied 2 to 5, the watch must have started, with no time passing.
func consistentWatchStartsOnceCaughtUp(t *testing.T) {
	c, stop := ws.FedByHand(ws.CacheOptions{}, func() int64 { return 5 })
	defer unlessPanicking(stop)
	if err := c.Replace(nil, "1"); err != nil {
		t.Fatal(err)
	}
	started := make(chan error, 1)
	go func() {
		initialEvents := true
		w, err := c.Watch(context.Background(), ws.WatchOptions{SendInitialEvents: &initialEvents})
		if err == nil {
			w.Stop()
		}
		started <- err
	}()
	synctest.Wait() // the watch waits for revision 5
	select {
	case err := <-started:
		t.Fatalf("the watch-list from \"\" started before the cache reached etcd's revision 5 (err %v): it must wait for it", err)
	default:
	}
	for rv := 2; rv <= 5; rv++ {
		if err := c.Add(stressConfigMap(fmt.Sprint("c", rv), rv)); err != nil {
			t.Fatal(err)
		}
	}
	synctest.Wait() // no time passes: only a woken waiter can have moved
	select {
	case err := <-started:
		if err != nil {
			t.Fatalf("the watch-list from \"\" failed once the cache reached etcd's revision: %v", err)
		}
	default:
		t.Errorf("the cache reached etcd's revision 5, and the watch-list waiting for it has not started: " +
			"it would wake only on its next poll, 100 ms later on every consistent read. " +
			"Wake the waiters when the cache's revision moves (close fresher, make a new one)")
		<-started // the poll wakes it
	}
}

// stalledDispatcherHoldsUpNoReader: a watcher that reads nothing stalls
// the dispatcher for up to its budget (a minute here), and the dispatcher's
// queue (100 jobs) fills behind it; the Reflector then waits to queue the
// next event. It must wait outside the cache's lock, or every List and
// Watch of the cache waits with it (and the dispatcher too, when it takes
// the lock to close the slow watcher: for good). Once every goroutine is
// blocked, nobody may hold the lock. Then the test reads the slow watcher,
// and everything flows again.
func stalledDispatcherHoldsUpNoReader(t *testing.T) {
	const events = 200 // more than fit in the watcher's buffers and the queue
	c, stop := listedWithBudget(t, time.Minute)
	defer unlessPanicking(stop)
	slow, err := c.Watch(context.Background(), ws.WatchOptions{ResourceVersion: "1"})
	if err != nil {
		t.Fatal(err)
	}
	defer unlessPanicking(slow.Stop)
	fed := make(chan struct{})
	go func() { // the Reflector
		defer close(fed)
		for rv := 2; rv < 2+events; rv++ {
			if err := c.Add(stressConfigMap(fmt.Sprint("c", rv), rv)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	synctest.Wait() // the dispatcher waits for the slow watcher, the Reflector for room in the queue
	held := c.LockHeld()
	for n := 0; n < events; n++ {
		select {
		case _, ok := <-slow.ResultChan():
			if !ok {
				t.Fatalf("the slow watcher was closed after %d of %d events, within its budget", n, events)
			}
		case <-time.After(time.Minute):
			t.Fatalf("the slow watcher got %d of %d events, then nothing for a minute once it read again", n, events)
		}
	}
	<-fed
	if held {
		t.Errorf("while the dispatcher waited for a slow watcher and its queue was full, the cache's lock was held: " +
			"every List and Watch would wait out the dispatcher's budget (a minute here). " +
			"Queue the event for the dispatcher after letting go of the lock")
	}
}

// listedWithBudget is a cache fed by hand, listed empty at version 1,
// whose watchers buffer one event each and whose dispatcher may wait up
// to budget for them, all of it there (it refills budget a second, and a
// second has passed). stop ends its dispatcher.
func listedWithBudget(t *testing.T, budget time.Duration) (*ws.Cache, func()) {
	t.Helper()
	c, stop := ws.FedByHand(ws.CacheOptions{WatcherBuffer: 1, DispatchBudget: budget, DispatchRefill: budget}, nil)
	time.Sleep(time.Second) // the budget, empty at the start, refills
	if err := c.Replace(nil, "1"); err != nil {
		stop()
		t.Fatal(err)
	}
	return c, stop
}

// tail is the last few of seen, for a message.
func tail(seen []int64) []int64 { return seen[max(0, len(seen)-3):] }

func stressConfigMap(name string, rv int) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: fmt.Sprint(rv)}}
}

// listsWhileEventsFlow: a LIST at resourceVersion=0 is answered from the
// cache's state while the Reflector applies events to it. The state and
// its version are read together under the cache's lock, so a LIST at
// version r holds exactly the objects added up to r. Without the lock the
// race detector reports the state read while it is written (trial V's
// Cache.List without its lock passed check 07 4: no check listed while
// events flowed). It is exercise 5's, as it needs processEvent too, and
// check 07 4 runs it, as it runs exercise 4's List and Replace.
func listsWhileEventsFlow(t *testing.T) {
	const events = 150
	c, stop := ws.FedByHand(ws.CacheOptions{}, nil)
	defer unlessPanicking(stop)
	if err := c.Replace(nil, "1"); err != nil {
		t.Fatal(err)
	}
	added := make(chan struct{})
	go func() {
		defer close(added)
		for rv := 2; rv < events+2; rv++ {
			if err := c.Add(stressConfigMap(fmt.Sprintf("c%03d", rv), rv)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for last := false; !last; {
		select {
		case <-added:
			last = true // one more LIST, after every Add
		default:
		}
		obj, err := c.List("ns")
		if err != nil {
			t.Fatal(err)
		}
		items, err := meta.ExtractList(obj)
		if err != nil {
			t.Fatal(err)
		}
		la, err := meta.ListAccessor(obj)
		if err != nil {
			t.Fatal(err)
		}
		rv, _ := strconv.Atoi(la.GetResourceVersion())
		if len(items) != rv-1 {
			t.Fatalf("a LIST at resourceVersion %d holds %d objects, want %d: one object was added at each version "+
				"from 2 on, so the state and its version were not read together under the cache's lock", rv, len(items), rv-1)
		}
		if last && rv != events+1 {
			t.Fatalf("the LIST after every Add is at resourceVersion %d, want %d", rv, events+1)
		}
	}
}

// watchesStartWhileEventsFlow: a watch chooses its start, replays the ring
// and registers in one step under the cache's lock, so that an event the
// Reflector applies meanwhile lands either in its replay or in its queue:
// never in both, never in neither. Eight watches from the same version
// start side by side while events arrive; each must see every event once,
// in order. Without the lock, the race detector reports the ring read while
// it is written. It runs in a synctest bubble, on fake time, and plays the
// Reflector itself (ws.FedByHand), so no etcd or network orders the
// goroutines behind its back.
func watchesStartWhileEventsFlow(t *testing.T) {
	const watchers, events = 8, 60
	c, stop := ws.FedByHand(ws.CacheOptions{}, nil)
	defer unlessPanicking(stop)
	// A server up for a while: the dispatch budget, empty at the start,
	// has refilled, so a reader a step behind is waited for, not closed.
	time.Sleep(2 * time.Second)
	if err := c.Replace(nil, "1"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for rv := 2; rv < 2+events; rv++ {
			if err := c.Add(stressConfigMap(fmt.Sprint("c", rv), rv)); err != nil {
				t.Error(err)
				return
			}
		}
	})
	seen := make([][]int64, watchers)
	for i := range watchers {
		wg.Go(func() {
			w, err := c.Watch(context.Background(), ws.WatchOptions{ResourceVersion: "1"})
			if err != nil {
				t.Error(err)
				return
			}
			defer unlessPanicking(w.Stop)
			for len(seen[i]) < events {
				// On the bubble's fake time a minute passes at once when
				// nothing else can happen: an event was lost.
				select {
				case ev, ok := <-w.ResultChan():
					if !ok || ev.Type == watch.Error {
						t.Errorf("watch %d ended after %d of %d events: %v", i, len(seen[i]), events, ev.Object)
						return
					}
					seen[i] = append(seen[i], ev.RV)
				case <-time.After(time.Minute):
					t.Errorf("watch %d: no event for a minute after %d of %d: an event was lost (it saw %v)", i, len(seen[i]), events, seen[i])
					return
				}
			}
		})
	}
	wg.Wait()
	for i, rvs := range seen {
		for j, rv := range rvs {
			if want := int64(2 + j); rv != want {
				t.Errorf("watch %d: event %d is at %d, want %d: every event once, in order (it saw %v)", i, j, rv, want, rvs)
				break
			}
		}
	}
}
