package progress

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/exgen"
)

// A race report as go test -race prints it (one from a real run, with
// the paths of a chapter).
const raceReport = `==================
WARNING: DATA RACE
Write at 0x00c000108600 by goroutine 9:
  runtime.mapassign_faststr()
      /usr/local/go/src/internal/runtime/maps/runtime_faststr.go:196 +0x0
  example.com/walkthrough/03-indexer.(*ThreadSafeStore).Update()
      /w/03-indexer/store.go:57 +0x53
  example.com/walkthrough/03-indexer.(*cache).Update.func1()
      /w/03-indexer/indexer.go:88 +0xe

Previous read at 0x00c000108600 by goroutine 10:
  example.com/walkthrough/03-indexer.(*ThreadSafeStore).List()
      /w/03-indexer/store.go:97 +0x53

Goroutine 9 (running) created at:
  sync.(*WaitGroup).Go()
      /usr/local/go/src/sync/waitgroup.go:238 +0x72
==================
`

// A goroutine dump as SIGQUIT makes the runtime print it.
const dump = `SIGQUIT: quit
PC=0x4735e1 m=0 sigcode=0

goroutine 7 gp=0xc000102a80 m=nil [sync.Mutex.Lock, 1 minutes]:
sync.runtime_SemacquireMutex(0xc0000a0e28?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/sema.go:95 +0x25
example.com/walkthrough/03-indexer.(*ThreadSafeStore).Get(0xc0000a0e00, {0x8c3a5e, 0x4})
	/w/03-indexer/store.go:94 +0x4e
created by example.com/walkthrough/03-indexer_test.TestX in goroutine 6
	/w/03-indexer/x_test.go:20 +0x9a

goroutine 8 [chan receive]:
example.com/walkthrough/workshop/scenario.play()
	/w/workshop/scenario/run.go:10 +0x1
`

func testCode() *code {
	s := &standIn{dir: "/w/03-indexer", yours: map[string]string{
		"/w/03-indexer/store.go":   "03-indexer/exercise/store.go",
		"/w/03-indexer/indexer.go": "03-indexer/exercise/indexer.go",
	}}
	return &code{s: s, pkg: "example.com/walkthrough/03-indexer", funcs: map[string]int{
		"ThreadSafeStore.Update": 3, "ThreadSafeStore.List": 6, "ThreadSafeStore.Get": 3, "cache.Update": 3,
	}}
}

func TestRaceReportNamesYourCode(t *testing.T) {
	k := testCode()
	text, owners, fn := k.raced(raceReport)
	proved := fn != ""
	if proved {
		t.Errorf("proved with no source to read: neither side is known to hold a lock")
	}
	for _, want := range []string{
		"- write in ThreadSafeStore.Update (exercise 3), no lock held\n            03-indexer/exercise/store.go:57\n",
		"- previous read in ThreadSafeStore.List (exercise 6), no lock held\n            03-indexer/exercise/store.go:97\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("race reason lacks %q:\n%s", want, text)
		}
	}
	if !slices.Equal(owners, []int{3, 6}) {
		t.Errorf("owners = %v, want [3 6]", owners)
	}
}

func TestStuckSaysWhereYourGoroutinesWait(t *testing.T) {
	k := testCode()
	text, owners, culprit := k.stuck("TestScenarios/x", "03-indexer/testdata/scenarios/x.txt:12:\nadd\n", dump, "15s")
	if culprit != "" {
		t.Errorf("culprit %q with no source to read", culprit)
	}
	for _, want := range []string{
		"the step at x.txt:12 made no progress for 15s",
		"A goroutine at 03-indexer/exercise/store.go:94 in ThreadSafeStore.Get (exercise 3)",
		"waits for a lock",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("stuck reason lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "scenario/run.go") {
		t.Errorf("stuck reason shows the harness's goroutine:\n%s", text)
	}
	if !slices.Equal(owners, []int{3}) {
		t.Errorf("owners = %v, want [3]", owners)
	}
}

func TestFuncKey(t *testing.T) {
	const pkg = "example.com/walkthrough/05-workqueue"
	for fn, want := range map[string]string{
		pkg + ".(*Typed[...]).Get":                       "Typed.Get",
		pkg + ".(*delayingQueue[...]).waitingLoop.func1": "delayingQueue.waitingLoop",
		pkg + ".NewTyped[...].gowrap1":                   "NewTyped",
		pkg + ".newQueue":                                "newQueue",
		// A closure of a method inlined into a test: the method's (trial H).
		pkg + ".TestX.func1.(*cacheWatcher).Stop.2":         "cacheWatcher.Stop",
		pkg + ".(*Typed[...]).Add.(*Typed[...]).push.func1": "Typed.push",
		"example.com/walkthrough/03-indexer.Get":            "",
	} {
		if got := funcKey(fn, pkg); got != want {
			t.Errorf("funcKey(%q) = %q, want %q", fn, got, want)
		}
	}
}

func TestPatterns(t *testing.T) {
	got := runPattern([]string{"TestScenarios/a.b", "TestStress/exercise-3/no-loss", "FuzzIndexer", "TestScenarios/c"})
	want := `^FuzzIndexer$|^TestScenarios$/^(a\.b|c)$|^TestStress$/^exercise-3$/^no-loss$`
	if got != want {
		t.Errorf("runPattern = %s\nwant          %s", got, want)
	}
	if got := skipPattern([]string{"TestE2E", "TestScenarios/a"}); got != `^TestE2E|^TestScenarios$/^(a)$` {
		t.Errorf("skipPattern = %s", got)
	}
}

func TestTranslateNamesYourFiles(t *testing.T) {
	k := testCode()
	got := k.s.translate("./store.go:12:3: undefined: x\n/w/03-indexer/indexer.go:4 +0x1")
	want := "03-indexer/exercise/store.go:12:3: undefined: x\n03-indexer/exercise/indexer.go:4 +0x1"
	if got != want {
		t.Errorf("translate:\n got %q\nwant %q", got, want)
	}
}

// TestShortenKeepsBothEnds: a whole object printed on one line loses its
// middle, not the end that says why the test failed.
func TestShortenKeepsBothEnds(t *testing.T) {
	line := "got " + strings.Repeat("x", 1000) + " want nothing"
	got := shorten(line)
	if !strings.HasPrefix(got, "got xxx") || !strings.HasSuffix(got, " want nothing") || !strings.Contains(got, "(717 characters left out)") {
		t.Errorf("shorten: %q", got)
	}
	if short := "got 1 want 2"; shorten(short) != short {
		t.Errorf("shorten changed a short line: %q", shorten(short))
	}
}

// Two failing exercises whose checks run each other's code never wait for
// each other: the first of them fails, and the second waits for it.
func TestNoCircleOfBlockers(t *testing.T) {
	exercises := []Exercise{
		{Exercise: exgen.Exercise{ID: 1}, Status: Fail, tests: []string{"TestScenarios/a"}},
		{Exercise: exgen.Exercise{ID: 2}, Status: Fail, tests: []string{"TestScenarios/b"}},
	}
	blame := Blame{"TestScenarios/a": {1, 2}, "TestScenarios/b": {1, 2}}
	passed := map[string]bool{"TestScenarios/a": false, "TestScenarios/b": false}
	blameBlockers("05-workqueue", exercises, blame, passed, func(int) bool { return true })
	if exercises[0].Status != Fail || exercises[1].Status != Blocked || exercises[1].Blocker != 1 {
		t.Errorf("1: %v (waits for %d), 2: %v (waits for %d); want 1 fail, 2 waiting for 1",
			exercises[0].Status, exercises[0].Blocker, exercises[1].Status, exercises[1].Blocker)
	}
}

// A stub with a check that runs only passing exercises is ready, even
// when another of its checks runs an earlier stub (trial P: 02's
// exercise 6, whose resync scenario runs on 1 and 2 alone, read "waits
// for exercise 5").
func TestAReadyStubWaitsForNothing(t *testing.T) {
	exercises := []Exercise{
		{Exercise: exgen.Exercise{ID: 1}, Status: Pass},
		{Exercise: exgen.Exercise{ID: 5}, Status: NotStarted, tests: []string{"TestScenarios/relist"}},
		{Exercise: exgen.Exercise{ID: 6}, Status: NotStarted, tests: []string{"TestScenarios/relist", "TestScenarios/resync"}},
		{Exercise: exgen.Exercise{ID: 7}, Status: NotStarted, tests: []string{"TestScenarios/relist"}},
	}
	blame := Blame{"TestScenarios/relist": {1, 5, 6, 7}, "TestScenarios/resync": {1, 6}}
	passed := map[string]bool{"TestScenarios/relist": false, "TestScenarios/resync": false}
	blameBlockers("02-deltafifo", exercises, blame, passed, func(int) bool { return true })
	if e := exercises[2]; e.Status != NotStarted {
		t.Errorf("6: %v (waits for %d); want not started, ready", e.Status, e.Blocker)
	}
	if e := exercises[3]; e.Status != Blocked || e.Blocker != 5 {
		t.Errorf("7: %v (waits for %d); want waiting for 5", e.Status, e.Blocker)
	}
}

// TestAGivenWaiterPointsAtYourCode: a goroutine of given code waiting on a
// channel (07's relay ranging over the channel a pump of yours never
// closed) says that what it waits for is yours to do.
func TestAGivenWaiterPointsAtYourCode(t *testing.T) {
	k := testCode()
	given := `goroutine 9 [chan receive]:
example.com/walkthrough/03-indexer.(*relay).run(0xc0000a0e00)
	/w/03-indexer/indexer.go:40 +0x4e
created by example.com/walkthrough/03-indexer.newRelay in goroutine 6
	/w/03-indexer/indexer.go:30 +0x9a
`
	text, _, _ := k.stuck("TestX", "", given, "15s")
	for _, want := range []string{"indexer.go:40 in relay.run", "waits to receive", "That is given code"} {
		if !strings.Contains(text, want) {
			t.Errorf("stuck reason lacks %q:\n%s", want, text)
		}
	}
	mine, _, _ := k.stuck("TestX", "", dump, "15s")
	if strings.Contains(mine, "given code") {
		t.Errorf("a wait in an exercise's function is called given code:\n%s", mine)
	}
}

// TestAPanicClientGoLoggedIsTwoLines: client-go's klog of a recovered
// panic, thirty lines of stack, reads as the panic and where in your code
// it was raised, once, with how often it came.
func TestAPanicClientGoLoggedIsTwoLines(t *testing.T) {
	k := testCode()
	k.panicsOnce.Do(func() { k.panics = map[string]string{"synctrack: negative counter": "syncTracker.finished"} })
	logged := `    E0101 00:00:00.000000 5657 synctrack.go:49] "Observed a panic" panic="synctrack: negative counter" stacktrace=<
    	goroutine 1193 [running]:
    	k8s.io/apimachinery/pkg/util/runtime.logPanic({0x1424710, 0xc000271c50})
    		/root/go/pkg/mod/k8s.io/apimachinery@v0.37.2/pkg/util/runtime/runtime.go:134 +0xdc
    	example.com/walkthrough/03-indexer.(*ThreadSafeStore).Get(0xc0000a0e00)
    		/w/03-indexer/store.go:94 +0x4e
     >
`
	got := k.condensePanicLogs(logged + logged + "    x_test.go:9: the reason\n")
	for _, want := range []string{
		"client-go recovered a panic and logged it (HandleCrash): synctrack: negative counter (2 times)",
		"raised at 03-indexer/exercise/store.go:94 in ThreadSafeStore.Get (exercise 3)",
		"x_test.go:9: the reason",
		"(the reference's syncTracker.finished panics so too, on purpose:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("condensed log lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "logPanic") {
		t.Errorf("the stack is still there:\n%s", got)
	}
}

// TestASpinningGoroutineIsShownBeforeItsWaiters: trial I's pump offered
// the same notification again and again; four goroutines waiting for the
// pipeline were shown, the spinning one, fifth, was left out.
func TestASpinningGoroutineIsShownBeforeItsWaiters(t *testing.T) {
	k := testCode()
	var waiters []string
	for i := range 4 {
		waiters = append(waiters, fmt.Sprintf(`goroutine %d [chan receive (durable), synctest bubble 1]:
example.com/walkthrough/03-indexer.(*ThreadSafeStore).List(0xc0000a0e00)
	/w/03-indexer/store.go:%d +0x4e
`, 20+i, 100+i))
	}
	spinning := `goroutine 33 [runnable, synctest bubble 1]:
example.com/walkthrough/03-indexer.(*ThreadSafeStore).Update(0xc0000a0e00)
	/w/03-indexer/store.go:57 +0x4e
`
	text, owners, _ := k.stuck("TestX", "", strings.Join(append(waiters, spinning), "\n"), "15s")
	want := "A goroutine at 03-indexer/exercise/store.go:57 in ThreadSafeStore.Update (exercise 3)\n            never waits"
	if !strings.Contains(text, want) {
		t.Errorf("stuck reason lacks %q:\n%s", want, text)
	}
	if first := strings.Index(text, "A goroutine at"); first < 0 || !strings.HasPrefix(text[first:], "A goroutine at 03-indexer/exercise/store.go:57") {
		t.Errorf("the spinning goroutine is not shown first:\n%s", text)
	}
	if len(owners) == 0 || owners[0] != 3 {
		t.Errorf("owners = %v, want exercise 3 first", owners)
	}
}
