package processor_test

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// The tests in this file check promises the scenarios cannot show step by
// step: a blocked handler holds up nobody else, even for thousands of
// events; nothing is left running after Shutdown; and the cache is
// written before any handler hears of a change.
//
// TestStress runs those of this file on the selected implementation, so the
// runner runs them on your copy too (under -race), each as a test of the
// exercise it is most about; on the reference (not your copy standing in
// for it) it also runs client-go, to show the test holds for it. It also
// runs stress_test.go's four races for the locks of the sync tracker
// (exercise 3), the processor (exercises 5 and 6) and the factory
// (exercise 16), its check that Run's HandleDeltas holds blockDeltas
// (exercise 10), and its check that a listener's add gives up once pop
// has gone (exercise 2).

// sides are the implementations TestCacheIsWrittenBeforeHandlers compares.
var sides = []string{scenario.Reference, scenario.ClientGo}

func TestStress(t *testing.T) {
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	scenario.Stress(t, 4, "blocked-handler-delays-nobody", func(t *testing.T) { blockedHandlerDoesNotDelayOthers(t, impls[name]) })
	scenario.Stress(t, 16, "no-goroutine-after-shutdown", func(t *testing.T) { noGoroutineAfterShutdown(t, impls[name]) })
	scenario.Stress(t, 16, "started-twice-at-once", func(t *testing.T) { startedTwiceAtOnce(t, impls[name]) })
	scenario.Stress(t, 16, "waiting-for-sync-ends-with-stop", func(t *testing.T) { waitingForSyncEndsWithStop(t, impls[name]) })
	scenario.Stress(t, 15, "late-handler-joins-while-events-flow", func(t *testing.T) { lateHandlerJoinsWhileEventsFlow(t, impls[name]) })
	scenario.Stress(t, 15, "late-handler-synced-only-after-its-replay", func(t *testing.T) { lateHandlerSyncedOnlyAfterItsReplay(t, impls[name]) })
	scenario.Stress(t, 10, "processor-outlives-the-controller", func(t *testing.T) { processorOutlivesTheController(t, impls[name]) })
	scenario.Stress(t, 7, "run-waits-for-the-reflector", func(t *testing.T) { runWaitsForTheReflector(t, impls[name]) })
	scenario.Stress(t, 10, "asked-while-run-starts-and-stops", func(t *testing.T) { askedWhileRunStartsAndStops(t, impls[name]) })
	scenario.Stress(t, 5, "handler-removed-is-shut-down", func(t *testing.T) { handlerRemovedIsShutDown(t, impls[name]) })
	scenario.Stress(t, 11, "handler-removed-between-deltas", func(t *testing.T) { handlerRemovedBetweenDeltas(t, impls[name]) })
	scenario.Stress(t, 15, "handlers-added-and-removed-at-once", func(t *testing.T) { handlersAddedAndRemovedAtOnce(t, impls[name]) })
	// These six call our package's parts directly (stress_test.go).
	ourOwn := func(t *testing.T, test func(t *testing.T)) { scenario.OursOnly(t, name, test) }
	scenario.Stress(t, 3, "tracker-counted-from-three-goroutines", func(t *testing.T) { ourOwn(t, trackerCountedFromThreeGoroutines) })
	scenario.Stress(t, 5, "listener-added-while-processor-starts", func(t *testing.T) { ourOwn(t, listenerAddedWhileProcessorStarts) })
	scenario.Stress(t, 2, "add-gives-up-on-a-stopped-listener", func(t *testing.T) { ourOwn(t, addGivesUpOnAStoppedListener) })
	scenario.Stress(t, 6, "handler-removed-while-distributing", func(t *testing.T) { ourOwn(t, handlerRemovedWhileDistributing) })
	scenario.Stress(t, 16, "informer-for-asked-at-once", func(t *testing.T) { ourOwn(t, informerForAskedAtOnce) })
	scenario.Stress(t, 10, "deltas-handled-under-block-deltas", func(t *testing.T) { ourOwn(t, deltasHandledUnderBlockDeltas) })
	if name == scenario.Reference && !scenario.OnYourCopy() {
		t.Run("client-go", func(t *testing.T) {
			blockedHandlerDoesNotDelayOthers(t, impls[scenario.ClientGo])
			noGoroutineAfterShutdown(t, impls[scenario.ClientGo])
			startedTwiceAtOnce(t, impls[scenario.ClientGo])
			waitingForSyncEndsWithStop(t, impls[scenario.ClientGo])
			lateHandlerJoinsWhileEventsFlow(t, impls[scenario.ClientGo])
			lateHandlerSyncedOnlyAfterItsReplay(t, impls[scenario.ClientGo])
			processorOutlivesTheController(t, impls[scenario.ClientGo])
			askedWhileRunStartsAndStops(t, impls[scenario.ClientGo])
			handlerRemovedIsShutDown(t, impls[scenario.ClientGo])
			handlerRemovedBetweenDeltas(t, impls[scenario.ClientGo])
			handlersAddedAndRemovedAtOnce(t, impls[scenario.ClientGo])
		})
	}
}

// blockedHandlerDoesNotDelayOthers: one handler blocks in its first
// call and stays blocked while 100 listed objects and 1000 watch events go
// by. The other handler and the cache see all of it; the blocked one then
// catches up, in order.
func blockedHandlerDoesNotDelayOthers(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		lw := podsListed(100)
		inf := im.NewInformer(lw, 0, atomicRealFIFO)
		slow, fast := newRecorder(im, "slow", true), newRecorder(im, "fast", false)
		slowReg, _ := inf.AddEventHandler(slow, nil)
		fastReg, _ := inf.AddEventHandler(fast, nil)
		_, stop := runInformer(inf)
		synctest.Wait()
		for i := range 1000 {
			obj, _ := newObject("pods", fmt.Sprintf("ns/p%d@%d", i%100, 101+i))
			lw.send(watch.Event{Type: watch.Modified, Object: obj})
		}
		synctest.Wait()

		if got := len(fast.take()); got != 1100 {
			t.Errorf("the fast handler got %d calls while the slow one was blocked, want 1100", got)
		}
		if got := len(slow.take()); got != 1 {
			t.Errorf("the blocked handler got %d calls, want 1 (the one it is stuck in)", got)
		}
		if !fastReg.HasSynced() || slowReg.HasSynced() {
			t.Errorf("HasSynced: fast=%t slow=%t, want true and false", fastReg.HasSynced(), slowReg.HasSynced())
		}
		if got := formatSet(im, inf.List()); !strings.Contains(got, "ns/p0@1001") {
			t.Errorf("the cache did not keep up: %.80s...", got)
		}

		slow.unblock()
		synctest.Wait()
		evs := slow.take()
		if len(evs) != 1099 {
			t.Fatalf("after unblocking, the slow handler got %d more calls, want 1099", len(evs))
		}
		if want := "UPDATE ns/p99@1000 -> ns/p99@1100"; evs[len(evs)-1] != want {
			t.Errorf("the slow handler's last call is %q, want %q", evs[len(evs)-1], want)
		}
		if !slowReg.HasSynced() {
			t.Error("the slow handler has not synced after catching up")
		}
		stop()
	})
}

// lateHandlerJoinsWhileEventsFlow: a handler added to a running informer
// while watch events stream in hears of every cached object once, as an
// initial add, and then of every later change: nothing doubled or missed
// between the replay of the cache and the first change it hears of.
// AddEventHandler holds the informer's deltas still while it registers the
// handler and replays the cache; without that, a change handled in between
// reaches the handler twice (as an update, then in the replay) or not at
// all. Each round lets the handler join at a moment of its own among 300
// events, from goroutines that run at the same time.
func lateHandlerJoinsWhileEventsFlow(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		const pods, events, rounds = 20, 300, 40
		for round := range rounds {
			lw := podsListed(pods)
			inf := im.NewInformer(lw, 0, atomicRealFIFO)
			_, stop := runInformer(inf)
			synctest.Wait()

			late := newRecorder(im, "late", false)
			begin := make(chan struct{})
			var wg sync.WaitGroup
			wg.Go(func() {
				<-begin
				for i := range events {
					obj, _ := newObject("pods", fmt.Sprintf("ns/p%d@%d", i%pods, pods+1+i))
					lw.send(watch.Event{Type: watch.Modified, Object: obj})
				}
			})
			wg.Go(func() {
				<-begin
				for range round * 12 {
					goruntime.Gosched() // a later moment each round
				}
				if _, err := inf.AddEventHandler(late, nil); err != nil {
					t.Errorf("round %d: AddEventHandler: %v", round+1, err)
				}
			})
			close(begin)
			wg.Wait()
			synctest.Wait()
			problem := storyOf(late.take(), formatSet(im, inf.List()))
			// Stop the informer before saying so: a Fatal with its
			// goroutines still running would end the bubble as a leak,
			// and the runner would show that instead (trial S).
			stop()
			if problem != "" {
				t.Errorf("round %d: the handler that joined while events flowed %s", round+1, problem)
				return
			}
		}
	})
}

// lateHandlerSyncedOnlyAfterItsReplay: a handler that joins a synced
// informer is replayed the cache as initial adds, and its registration
// has synced only once it has handled all of them. Its listener learns
// that the informer has synced from watchSynced, a goroutine of its own:
// started before the replay is queued, it can find nothing pending and
// mark the registration synced for good while the handler has seen
// nothing yet. Here the handler blocks in its first call, the cache holds
// 2000 pods, so the replay takes a while, and each of 30 rounds gives the
// goroutine its chance (on two CPUs or more: on one, the goroutine runs
// too late to show it).
func lateHandlerSyncedOnlyAfterItsReplay(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		const pods, rounds = 2000, 30
		lw := podsListed(pods)
		inf := im.NewInformer(lw, 0, atomicRealFIFO)
		_, stop := runInformer(inf)
		synctest.Wait()
		defer stop()
		for round := range rounds {
			late := newRecorder(im, "late", true)
			reg, err := inf.AddEventHandler(late, nil)
			if err != nil {
				t.Fatalf("round %d: AddEventHandler: %v", round+1, err)
			}
			synctest.Wait()
			synced := reg.HasSynced()
			late.unblock()
			synctest.Wait()
			if synced {
				t.Fatalf("round %d: a handler that joined a synced informer, still in its first of %d initial adds, "+
					"has a registration that says it has synced: its listener heard that the informer has synced "+
					"before the replay was queued. Start watchSynced only after the last initial add", round+1, pods)
			}
			if !reg.HasSynced() {
				t.Fatalf("round %d: the handler that joined has handled its %d initial adds, and its registration has not synced", round+1, pods)
			}
			if err := inf.RemoveEventHandler(reg); err != nil {
				t.Fatalf("round %d: RemoveEventHandler: %v", round+1, err)
			}
		}
	})
}

// processorOutlivesTheController: the informer is stopped while it
// handles a delta. The delta has left the queue and reaches the cache, so
// the handlers must hear of it too: the processor stops once the
// controller has returned, not when ctx ends. Here an index function holds
// the handling of the one listed pod until ctx has ended and everything
// that stops with it has, and the watch's Stop holds the Reflector, so
// Run cannot return before the handler is told.
func processorOutlivesTheController(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		lw := podsListed(1)
		lw.stopHeld = make(chan struct{})
		inf := im.NewInformer(lw, 0, atomicRealFIFO)
		handling, release := make(chan struct{}), make(chan struct{})
		var once sync.Once
		if err := inf.AddIndexer("held", func(any) ([]string, error) {
			once.Do(func() { close(handling); <-release })
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
		h := newRecorder(im, "h", false)
		if _, err := inf.AddEventHandler(h, nil); err != nil {
			t.Fatal(err)
		}
		cancel, stop := runInformer(inf)
		<-handling
		synctest.Wait() // the Reflector watches
		cancel()
		synctest.Wait() // what stops with ctx has stopped
		close(release)
		synctest.Wait()
		got := h.take()
		close(lw.stopHeld)
		stop()
		if want := "ADD ns/p0@1 init=true"; len(got) != 1 || got[0] != want {
			t.Errorf("stopped while it handled the listed pod, the informer told its handler %q, want [%s]: "+
				"the cache got the pod, so the handler must hear of it. Run must stop the processor only once "+
				"the controller has returned: start it on a context of its own (context.WithoutCancel(ctx)), "+
				"cancelled on the way out, not on ctx", got, want)
		}
	})
}

// runWaitsForTheReflector: the controller's run returns only once the
// goroutines it started have, the Reflector among them, so that the
// informer's Run does too. Here the Reflector's watch holds its Stop: Run
// must still be running when ctx ends, and return once the Stop does
// (trial Y's run without its wait passed every check, though a process
// that exits once Run returns cuts the Reflector off mid-stop).
func runWaitsForTheReflector(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		lw := podsListed(1)
		lw.stopHeld = make(chan struct{})
		inf := im.NewInformer(lw, 0, atomicRealFIFO)
		ctx, cancel := context.WithCancel(context.Background())
		returned := make(chan struct{})
		go func() { defer close(returned); inf.Run(ctx) }()
		synctest.Wait() // listed, and watching
		cancel()
		synctest.Wait() // what stops with ctx has stopped; the watch's Stop is held
		select {
		case <-returned:
			close(lw.stopHeld)
			t.Fatal("Run returned while the Reflector was still stopping its watch: the controller's run " +
				"must wait for the goroutines it started (the Reflector, and the one that closes the queue)")
		default:
		}
		close(lw.stopHeld)
		synctest.Wait()
		select {
		case <-returned:
		default:
			t.Fatal("Run still runs after the watch stopped and ctx ended")
		}
	})
}

// askedWhileRunStartsAndStops: HasStarted and IsStopped are asked from
// another goroutine while Run starts and returns, as a health check asks
// them. They read what Run writes, so they take the lock Run writes under:
// under -race (the runner checks your copy with it), a read without it is a
// data race between the asking goroutine and Run, even when the answers
// come out right. The asker sleeps between questions so that synctest can
// tell when everything else has settled.
func askedWhileRunStartsAndStops(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		inf := im.NewInformer(podsListed(1), 0, atomicRealFIFO)
		ctx, cancel := context.WithCancel(context.Background())
		var started, stopped bool
		asked := make(chan struct{})
		go func() {
			defer close(asked)
			for !stopped {
				if inf.HasStarted != nil {
					started = started || inf.HasStarted()
				} else {
					started = true
				}
				stopped = inf.IsStopped()
				time.Sleep(time.Millisecond)
			}
		}()
		returned := make(chan struct{})
		go func() { defer close(returned); inf.Run(ctx) }()
		time.Sleep(10 * time.Millisecond)
		cancel()
		<-returned
		<-asked
		if !started {
			t.Error("HasStarted never said true while Run ran")
		}
	})
}

// handlerRemovedBetweenDeltas: RemoveEventHandler takes blockDeltas, as
// adding a handler to a running informer does, so a handler leaves between
// two deltas, never while one is written to the cache and told: it hears
// all of a change or none of it. Here the last listed object is held in an
// index function, that is inside HandleDeltas, while another goroutine
// removes a handler; the removal must wait until the object is through.
// A goroutine waiting for a mutex never counts as settled, so the test
// looks for it in the goroutines' stacks instead of synctest.Wait.
func handlerRemovedBetweenDeltas(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		inf, g, _, freeReg, _, stop := startSyncedInformer(t, im, atomicRealFIFO, "index")
		defer stop()
		<-g.reached
		removed := make(chan struct{})
		var err error
		go func() { defer close(removed); err = inf.RemoveEventHandler(freeReg) }()
		if scenario.ReturnsBeforeALock(removed, ").RemoveEventHandler(") {
			t.Fatalf("RemoveEventHandler returned while the informer was handling a delta (its object held " +
				"in an index function): take blockDeltas in RemoveEventHandler, so a handler is removed " +
				"between two deltas, never while one is written to the cache and told")
		}
		g.opens()
		<-removed
		if err != nil {
			t.Fatalf("RemoveEventHandler: %v", err)
		}
	})
}

// handlersAddedAndRemovedAtOnce: handlers added and removed from four
// goroutines at once, on a running informer, while events flow. Adding
// takes the started lock, then blockDeltas (to replay the cache to the
// new handler between two deltas); a removal that takes the two the
// other way round deadlocks against it (trial I's RemoveEventHandler
// passed every check, as nothing added and removed at once).
func handlersAddedAndRemovedAtOnce(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		lw := podsListed(3)
		inf := im.NewInformer(lw, 0, atomicRealFIFO)
		_, stop := runInformer(inf)
		defer stop()
		synctest.Wait()
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := range 200 {
					reg, err := inf.AddEventHandler(newRecorder(im, fmt.Sprintf("h%d-%d", g, i), false), nil)
					if err != nil {
						t.Errorf("AddEventHandler: %v", err)
						return
					}
					if err := inf.RemoveEventHandler(reg); err != nil {
						t.Errorf("RemoveEventHandler: %v", err)
						return
					}
				}
			})
		}
		for i := range 50 {
			obj, _ := newObject("pods", fmt.Sprintf("ns/p%d@%d", i%3, 10+i))
			lw.send(watch.Event{Type: watch.Modified, Object: obj})
		}
		wg.Wait()
	})
}

// handlerRemovedIsShutDown: a removed handler's registration says when
// its listener has finished (ShutdownChan, which client-go's
// ShutDownEventHandler waits on). Removed before Run, the listener never
// started: there is nothing to wait for, and the channel is closed at
// once. Removed while running, it is closed once the listener's run
// goroutine has returned.
func handlerRemovedIsShutDown(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		lw := podsListed(3)
		inf := im.NewInformer(lw, 0, atomicRealFIFO)
		shutDown := func(when string, reg registration) {
			t.Helper()
			if err := inf.RemoveEventHandler(reg); err != nil {
				t.Fatalf("RemoveEventHandler %s: %v", when, err)
			}
			synctest.Wait()
			select {
			case <-reg.(interface{ ShutdownChan() <-chan struct{} }).ShutdownChan():
			default:
				t.Errorf("a handler removed %s: its registration's ShutdownChan is still open, "+
					"so whoever waits for the handler to finish waits for ever. Removing a listener "+
					"that never started closes runFinished; one that runs has its addCh closed, "+
					"and run closes runFinished when it returns", when)
			}
		}
		early, err := inf.AddEventHandler(newRecorder(im, "early", false), nil)
		if err != nil {
			t.Fatal(err)
		}
		shutDown("before Run", early)
		running, err := inf.AddEventHandler(newRecorder(im, "running", false), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, stop := runInformer(inf)
		synctest.Wait()
		shutDown("while the informer runs", running)
		stop()
	})
}

// storyOf checks a late handler's calls: an ADD only for a pod it was not
// told of, an UPDATE only from the version it was told of last, and at the
// end the cache's contents (formatSet). It says what went wrong, or "".
func storyOf(calls []string, cache string) string {
	known := map[string]string{} // ns/name → ns/name@rv
	key := func(obj string) string { k, _, _ := strings.Cut(obj, "@"); return k }
	for i, call := range calls {
		verb, rest, _ := strings.Cut(call, " ")
		switch verb {
		case "ADD":
			obj, _, _ := strings.Cut(rest, " ")
			if had, ok := known[key(obj)]; ok {
				return fmt.Sprintf("was told of %s twice: call %d is %q, though it had %s (a change reached it both as an event and in the replay of the cache)", key(obj), i+1, call, had)
			}
			known[key(obj)] = obj
		case "UPDATE":
			from, to, _ := strings.Cut(rest, " -> ")
			if had := known[key(to)]; had != from {
				if had == "" {
					had = "nothing"
				}
				return fmt.Sprintf("got call %d %q, though it had %s (a change reached it before the replay of the cache, or was missed between the two)", i+1, call, had)
			}
			known[key(to)] = to
		default:
			return fmt.Sprintf("got call %d %q, and no pod was deleted", i+1, call)
		}
	}
	var have []string
	for _, obj := range known {
		have = append(have, obj)
	}
	slices.Sort(have)
	if got := strings.Join(notation.OrNone(have), "\n"); got != cache {
		return fmt.Sprintf("ended with\n%s\nwhile the cache holds\n%s", got, cache)
	}
	return ""
}

// noGoroutineAfterShutdown: a factory with two informers and three
// handlers (one of them blocked until the end) is stopped; once Shutdown
// returns, no goroutine of the test's bubble is left.
func noGoroutineAfterShutdown(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		f := im.NewFactory(time.Second, factoryOptions{})
		pods, cms := newScriptedLW("pods"), newScriptedLW("configmaps")
		p, _ := newObject("pods", "ns/a@5")
		c, _ := newObject("configmaps", "ns/cm@6")
		pods.setList("10", []runtime.Object{p})
		cms.setList("10", []runtime.Object{c})
		_, podInf := f.InformerFor("pods", pods)
		_, cmInf := f.InformerFor("configmaps", cms)
		blocked := newRecorder(im, "blocked", true)
		_, _ = podInf.AddEventHandler(newRecorder(im, "h1", false), nil)
		_, _ = podInf.AddEventHandler(blocked, nil)
		_, _ = cmInf.AddEventHandler(newRecorder(im, "h2", false), nil)
		stop := make(chan struct{})
		f.Start(stop)
		synced := f.WaitForCacheSync(stop)
		if len(synced) != 2 || !synced["*v1.Pod"] || !synced["*v1.ConfigMap"] {
			t.Fatalf("WaitForCacheSync = %v", synced)
		}
		time.Sleep(3 * time.Second) // a few resyncs
		close(stop)
		blocked.unblock()
		f.Shutdown()
		synctest.Wait()
		if left := bubbleGoroutines(); left != "" {
			t.Errorf("goroutines left after Shutdown:\n%s", left)
		}
	})
}

// startedTwiceAtOnce: two goroutines start the same factory at the same
// moment (two controllers' Run, each starting the factory it was given).
// The factory's record of what it started is one map: each Start reads and
// writes it under the factory's lock, so each informer runs once, lists
// once, and both are waited for.
func startedTwiceAtOnce(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		const rounds = 10
		for r := range rounds {
			f := im.NewFactory(0, factoryOptions{})
			pods, cms := newScriptedLW("pods"), newScriptedLW("configmaps")
			f.InformerFor("pods", pods)
			f.InformerFor("configmaps", cms)
			stop, begin := make(chan struct{}), make(chan struct{})
			var wg sync.WaitGroup
			for range 2 {
				wg.Go(func() {
					<-begin
					f.Start(stop)
				})
			}
			close(begin)
			wg.Wait()
			synced := f.WaitForCacheSync(stop)
			synctest.Wait()
			pods.mu.Lock()
			podLists := pods.lists
			pods.mu.Unlock()
			cms.mu.Lock()
			cmLists := cms.lists
			cms.mu.Unlock()
			close(stop)
			f.Shutdown()
			if len(synced) != 2 || !synced["*v1.Pod"] || !synced["*v1.ConfigMap"] {
				t.Fatalf("round %d: two Starts at once, then WaitForCacheSync = %v, want both informers synced", r+1, synced)
			}
			if podLists != 1 || cmLists != 1 {
				t.Fatalf("round %d: two Starts at once listed pods %d times and configmaps %d times: each informer should run once", r+1, podLists, cmLists)
			}
		}
	})
}

// waitingForSyncEndsWithStop: an informer whose server refuses every LIST
// never syncs. A controller waiting for its caches gives up when it is
// stopped: WaitForCacheSync returns once stop closes, the informer that
// never synced reported false, rather than wait for ever (and the
// controller's Run with it).
func waitingForSyncEndsWithStop(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		f := im.NewFactory(0, factoryOptions{})
		pods := newScriptedLW("pods")
		pods.refusing = errors.New("the server refuses every list")
		f.InformerFor("pods", pods)
		stop := make(chan struct{})
		f.Start(stop)
		time.AfterFunc(10*time.Second, func() { close(stop) })
		done := make(chan map[string]bool, 1)
		go func() { done <- f.WaitForCacheSync(stop) }()
		select {
		case synced := <-done:
			if synced["*v1.Pod"] {
				t.Errorf("WaitForCacheSync = %v for an informer that never listed: want *v1.Pod false", synced)
			}
		case <-time.After(time.Minute):
			t.Fatalf("WaitForCacheSync still waited a minute after stop closed, for an informer that never syncs: " +
				"it must return once stop closes (select on stop beside each informer's synced channel)")
		}
		f.Shutdown()
	})
}

// bubbleGoroutines returns the stacks of the goroutines of the current
// synctest bubble other than the caller and the bubble's own machinery.
func bubbleGoroutines() string {
	buf := make([]byte, 1<<20)
	buf = buf[:goruntime.Stack(buf, true)]
	var left []string
	for i, g := range strings.Split(string(buf), "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		if i == 0 || !strings.Contains(header, "synctest bubble") {
			continue // the caller comes first
		}
		if strings.Contains(g, "internal/synctest.Run(") || strings.Contains(g, "testing/synctest.testingSynctestTest(") {
			continue // the bubble itself
		}
		left = append(left, g)
	}
	return strings.Join(left, "\n\n")
}

// TestCacheIsWrittenBeforeHandlers applies deltas with a handler that
// looks each object up in the cache while it is being called: it must
// already find the new state (or, for a delete, nothing). client-go's
// delta processing is not exported, so this runs on the reference only.
func TestCacheIsWrittenBeforeHandlers(t *testing.T) {
	for _, name := range sides {
		im := impls[name]
		if im.NewDeltaProcessor == nil {
			continue // client-go
		}
		t.Run(name, func(t *testing.T) {
			h := &cacheChecker{t: t}
			process, lookup := im.NewDeltaProcessor(h)
			h.lookup = lookup
			steps := []struct{ typ, obj string }{
				{"Added", "ns/a@1"}, {"Updated", "ns/a@2"}, {"Replaced", "ns/b@3"}, {"Sync", "ns/b@3"},
				{"Deleted", "ns/a@4"}, {"ReplacedAll", "ns/c@5"},
			}
			for _, s := range steps {
				obj, _ := newObject("pods", s.obj)
				if err := process(s.typ, obj); err != nil {
					t.Fatalf("%s %s: %v", s.typ, s.obj, err)
				}
			}
			if h.calls != 7 { // the ReplacedAll deletes b and adds c
				t.Errorf("the handler was called %d times, want 7", h.calls)
			}
			// The first list, on an empty cache, takes a path of its own
			// (nothing to delete): the cache first there too (trial I
			// told the handlers before the Replace, and every check
			// passed).
			first := &cacheChecker{t: t}
			process, first.lookup = im.NewDeltaProcessor(first)
			obj, _ := newObject("pods", "ns/x@1")
			if err := process("ReplacedAll", obj); err != nil {
				t.Fatalf("a first ReplacedAll: %v", err)
			}
			if first.calls != 1 {
				t.Errorf("a first list of one object called the handler %d times, want 1", first.calls)
			}
		})
	}
}

// cacheChecker fails the test when a callback finds the cache behind.
type cacheChecker struct {
	t      *testing.T
	lookup func(obj any) (any, bool)
	calls  int
}

func (c *cacheChecker) check(obj any, wantPresent bool) {
	c.calls++
	cached, ok := c.lookup(obj)
	switch {
	case ok != wantPresent && wantPresent:
		c.t.Errorf("the cache must be written first: the handler was told of %s, which the cache does not hold yet", notation.Format(obj))
	case ok != wantPresent:
		c.t.Errorf("the cache must be written first: the handler was told of the delete of %s, which the cache still holds", notation.Format(obj))
	case ok && cached != obj && notation.Format(cached) == notation.Format(obj):
		// Same name and version, another object: trial C read "told of
		// ns/b@3 while the cache still holds ns/b@3" as a contradiction.
		c.t.Errorf("the cache must be written first: the handler was told of %s while the cache still holds the object it replaces (same name and version, not yet written over)", notation.Format(obj))
	case ok && cached != obj:
		c.t.Errorf("the cache must be written first: the handler was told of %s while the cache still holds %s", notation.Format(obj), notation.Format(cached))
	}
}

func (c *cacheChecker) OnAdd(obj any, _ bool)  { c.check(obj, true) }
func (c *cacheChecker) OnUpdate(_, newObj any) { c.check(newObj, true) }
func (c *cacheChecker) OnDelete(obj any)       { c.check(obj, false) }

// TestRunWaitsForItsHandlers: Run returns only once everything it started
// has stopped, a handler's call in flight included (client-go's
// processor waits for every listener's goroutines, and Run for the
// processor). A Run that returns early leaves handlers running against a
// controller that believes the informer is gone: cancel, and Run must
// still wait while a handler is stuck in OnAdd, and return once it comes
// back.
func TestRunWaitsForItsHandlers(t *testing.T) {
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	names := []string{name}
	if name == scenario.Reference && !scenario.OnYourCopy() {
		names = append(names, scenario.ClientGo)
	}
	for _, name := range names {
		im := impls[name]
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				lw := newScriptedLW("pods")
				obj, _ := newObject("pods", "ns/a@1")
				lw.setList("1", []runtime.Object{obj})
				inf := im.NewInformer(lw, 0, atomicRealFIFO)
				stuck := newRecorder(im, "stuck", true)
				_, _ = inf.AddEventHandler(stuck, nil)
				ctx, cancel := context.WithCancel(context.Background())
				returned := make(chan struct{})
				go func() { defer close(returned); inf.Run(ctx) }()
				synctest.Wait() // the handler is stuck in its first OnAdd
				cancel()
				synctest.Wait()
				select {
				case <-returned:
					stuck.unblock()
					t.Fatal("Run returned while a handler was still in OnAdd: it must wait for the processor, and the processor for every listener's goroutines")
				default:
				}
				stuck.unblock()
				synctest.Wait()
				select {
				case <-returned:
				default:
					t.Fatal("Run still runs after the handler returned and ctx ended")
				}
			})
		})
	}
}

// TestStoppedWatchLeavesNoRelay: the pipeline relays each event of the
// ListerWatcher's watch to chapter 01's Reflector on a goroutine of its
// own (exercise 9). When the Reflector stops reading (its ctx ended)
// while the relay holds an event, Stop must end the relay's hand-over
// too, or that goroutine waits for ever on a reader that is gone: one
// leaked goroutine per watch an informer ever stopped. The tracer's
// Watched hook runs between the relay taking the event and handing it
// over; there the test cancels and lets everything else stop first, so
// the relay finds nobody reading, every time. A goroutine still blocked
// when the bubble ends fails the test, with its stack.
func TestStoppedWatchLeavesNoRelay(t *testing.T) {
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	im := impls[name]
	if im.NewWatchedInformer == nil {
		t.Skipf("%s has no hook between its watch and its Reflector", name)
	}
	synctest.Test(t, func(t *testing.T) {
		lw := newScriptedLW("pods")
		obj, _ := newObject("pods", "ns/a@1")
		lw.setList("1", []runtime.Object{obj})
		ctx, cancel := context.WithCancel(context.Background())
		inf := im.NewWatchedInformer(lw, func() {
			cancel()
			time.Sleep(time.Second) // the Reflector stops reading, and stops the watch
		})
		returned := make(chan struct{})
		go func() { defer close(returned); inf.Run(ctx) }()
		synctest.Wait() // listed, watching
		updated, _ := newObject("pods", "ns/a@2")
		if !lw.send(watch.Event{Type: watch.Modified, Object: updated}) {
			t.Fatal("no watch open after the list")
		}
		<-returned
		time.Sleep(2 * time.Second) // the hook returns: the relay goes on
		synctest.Wait()
		// With the relay still waiting to hand the event over, the bubble
		// ends here with a goroutine blocked in it, and synctest says so.
	})
}
