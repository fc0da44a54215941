package progress

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/gotest"
)

// sideBySide is a package whose two checks run in parallel: one crashes
// the binary from a goroutine of its own while the other is still
// running, as a stub's panic in a watch cache's goroutine does in
// chapter 07.
const sideBySide = `package p

import (
	"testing"
	"time"
)

func TestInnocent(t *testing.T) {
	t.Parallel()
	time.Sleep(300 * time.Millisecond)
}

func TestCrasher(t *testing.T) {
	t.Parallel()
	t.Log("tempdir", t.TempDir())
	done := make(chan struct{})
	go func() {
		time.Sleep(50 * time.Millisecond)
		panic("not done: exercise 5")
	}()
	<-done
}
`

// TestCrashAmidParallelChecksRerunsThemOneAtATime: the check that kept
// running beside the crash is not blamed for it; run again alone, it
// passes, and only the crasher carries the crash.
func TestCrashAmidParallelChecksRerunsThemOneAtATime(t *testing.T) {
	bin := buildPackage(t, sideBySide)
	res, err := runTests(bin, nil, 0, gotest.Idle{}, "", "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed["TestInnocent"] {
		t.Errorf("TestInnocent ran beside the crash and was judged by it: %q", res.CrashOf["TestInnocent"])
	}
	if res.Passed["TestCrasher"] || !strings.Contains(res.CrashOf["TestCrasher"], "not done: exercise 5") {
		t.Errorf("TestCrasher: passed %v, crash %q; want failed with its panic", res.Passed["TestCrasher"], res.CrashOf["TestCrasher"])
	}
	// The crash left its temporary directory behind, inside the
	// binary's own, which Remove deletes.
	_, after, ok := strings.Cut(res.Output["TestCrasher"], "tempdir ")
	left := strings.Fields(after)
	if !ok || len(left) == 0 {
		t.Fatalf("TestCrasher did not say its temporary directory:\n%s", res.Output["TestCrasher"])
	}
	if _, err := os.Stat(left[0]); err != nil {
		t.Fatalf("%s: %v; want it left behind by the crash until Remove", left[0], err)
	}
	bin.Remove()
	if _, err := os.Stat(left[0]); !os.IsNotExist(err) {
		t.Errorf("%s is still there after Remove (%v)", left[0], err)
	}
}

// TestPlainFailureKeepsTheReason: a failing plain test that logged much on
// the way still shows the line that says why, its last.
func TestPlainFailureKeepsTheReason(t *testing.T) {
	var out strings.Builder
	out.WriteString("=== RUN   TestX\n")
	for i := range 30 {
		out.WriteString("    x_test.go:5: step " + string(rune('a'+i%26)) + "\n")
	}
	out.WriteString("    x_test.go:9: events: [MODIFIED], want MODIFIED DELETED\n--- FAIL: TestX (0.01s)\n")
	k := &code{s: &standIn{yours: map[string]string{}}}
	got, _ := k.plain(out.String())
	if !strings.Contains(got, "want MODIFIED DELETED") || !strings.Contains(got, "(19 lines left out)") || strings.Count(got, "\n") != 14 {
		t.Errorf("plain report:\n%s", got)
	}
}

// TestSaidBeforeALeak: a test that failed with t.Fatal and then ended its
// bubble with goroutines still waiting says why before the leak; logs
// before its message and the panic after it are left out.
func TestSaidBeforeALeak(t *testing.T) {
	out := "I0101 00:00:00.000000 1 reflector.go:220] \"Failed to watch\"\n" +
		"--- FAIL: TestStress/x (0.00s)\n" +
		"    lifecycle_test.go:455: WaitForCacheSync still waited a minute\n" +
		"panic: deadlock: main bubble goroutine has exited but blocked goroutines remain\n\ngoroutine 9 [running]:\n"
	k := &code{s: &standIn{yours: map[string]string{}}}
	if got, want := k.saidBeforeCrash(out), "Failed:\n  lifecycle_test.go:455: WaitForCacheSync still waited a minute\n"; got != want {
		t.Errorf("said before the crash:\n%q\nwant\n%q", got, want)
	}
	if got := k.saidBeforeCrash("panic: deadlock\n"); got != "" {
		t.Errorf("a test that wrote nothing: %q, want nothing", got)
	}
}

// TestLeakReportHasAHeader: the leak check's report starts as a test's
// does, with what failed and its file (trial W, F7: it started straight
// at "Leak:"), then says which goroutine of yours was left.
func TestLeakReportHasAHeader(t *testing.T) {
	k := testCode()
	k.s.dir = filepath.Join(t.TempDir(), "03-indexer")
	if err := os.MkdirAll(k.s.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(k.s.dir, "leak_test.go"), []byte("package indexer_test\n\nfunc TestMain(m *testing.M) {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	k.s.yours = map[string]string{"/w/03-indexer/store.go": "03-indexer/exercise/store.go"}
	dump := `goroutine 9 [select]:
example.com/walkthrough/03-indexer.(*ThreadSafeStore).Update(0xc0000a0e00, {0x8c3a5e, 0x4})
	/w/03-indexer/store.go:11 +0x4e
`
	res := &runs{Result: &gotest.Result{Passed: map[string]bool{"TestA": true}}, Leaks: dump}
	o := k.outcomes(res, 0)[LeakCheck]
	if o == nil {
		t.Fatal("no leak check outcome")
	}
	want := "Leak check failed (TestMain in 03-indexer/leak_test.go):\n  Leak:     goroutines of your code were still running after every test had\n"
	if !strings.HasPrefix(o.report, want) {
		t.Errorf("leak report starts:\n%s\nwant it to start with\n%s", o.report, want)
	}
	if !strings.Contains(o.report, "03-indexer/exercise/store.go:11") {
		t.Errorf("leak report does not show where the goroutine waits:\n%s", o.report)
	}
	k.s.dir = t.TempDir() // no TestMain to be found
	if got := k.leakLine(); got != "Leak check failed (TestMain):\n" {
		t.Errorf("with no file: %q", got)
	}
}

// TestExampleFailureShowsBothOutputs: an example's got and want are
// shown whole, whatever their length, so the differing lines are there.
func TestExampleFailureShowsBothOutputs(t *testing.T) {
	out := "--- FAIL: ExampleQueue (0.00s)\ngot:\n"
	for i := range 9 {
		out += fmt.Sprintf("line %d\n", i)
	}
	out += "adds: 0\nwant:\n"
	for i := range 9 {
		out += fmt.Sprintf("line %d\n", i)
	}
	out += "adds: 4\nFAIL\n"
	k := &code{s: &standIn{yours: map[string]string{}}}
	got, _ := k.plain(out)
	for _, want := range []string{"\n  got:\n", "adds: 0", "\n  want:\n", "adds: 4"} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "left out") {
		t.Errorf("an example's output was cut:\n%s", got)
	}
}

// TestPlainFailureFoldsProse: a test's long message is folded to the
// report's width, wrapped, not cut; a diff keeps its layout.
func TestPlainFailureFoldsProse(t *testing.T) {
	long := "x_test.go:7: " + strings.Repeat("the watch stayed open although the ring moved past it ", 4)
	diff := "      -  {Name: " + strings.Repeat("a", 90) + "}"
	k := &code{s: &standIn{yours: map[string]string{}}}
	got, _ := k.plain("    " + long + "\n    " + diff + "\n")
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if len(line) > reportWidth && !strings.Contains(line, "Name: ") {
			t.Errorf("line wider than %d: %q", reportWidth, line)
		}
	}
	if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields("Failed: "+long+" "+diff), " ") {
		t.Errorf("folding lost or changed text:\n%s", got)
	}
	if !strings.Contains(got, "\n  "+diff+"\n") {
		t.Errorf("the indented diff line was not kept as it was:\n%s", got)
	}
}

// setupCrash is a package whose TestScenarios stops the binary in its own
// setup, before any scenario runs, as a stub called while a chapter's
// scenarios start their server would; a test after it must still run.
const setupCrash = `package p

import "testing"

func TestScenarios(t *testing.T) {
	done := make(chan struct{})
	go func() { panic("p exercise 2 is not done yet") }()
	<-done
	t.Run("first", func(t *testing.T) {})
}

func TestLater(t *testing.T) {}
`

// TestCrashInASetupSkipsItAndRunsTheRest: the crash is in no check, so
// the rerun skips the test that crashed, and the checks it would have run
// fail as not run: never judged passing.
func TestCrashInASetupSkipsItAndRunsTheRest(t *testing.T) {
	bin := buildPackage(t, setupCrash)
	res, err := runTests(bin, nil, 0, gotest.Idle{}, "", "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed["TestLater"] {
		t.Errorf("TestLater: passed %v, output %q; want it run and passed after the crash", res.Passed["TestLater"], res.Output["TestLater"])
	}
	top, err := bin.TopLevel()
	if err != nil {
		t.Fatal(err)
	}
	markNotRun(res, []string{"TestScenarios/first"}, false, top)
	if passed, ok := res.Passed["TestScenarios/first"]; !ok || passed {
		t.Fatalf("TestScenarios/first: passed %v (recorded %v); want failed as not run", passed, ok)
	}
	k := &code{s: &standIn{yours: map[string]string{}}}
	o := k.outcome("TestScenarios/first", res, 0)
	if o.stub != 2 {
		t.Errorf("outcome: stub %d, report %q; want the crash's stub, exercise 2", o.stub, o.report)
	}
}

// TestNotRunIsNeverAPass: a scenario that never ran because its parent
// failed first (no panic, no stuck test) fails, with the parent's reason;
// one that skipped itself, or whose parent did, ran.
func TestNotRunIsNeverAPass(t *testing.T) {
	res := &runs{Result: &gotest.Result{
		Passed:  map[string]bool{"TestScenarios": false},
		Output:  map[string]string{"TestScenarios": "=== RUN   TestScenarios\n    run.go:71: no go.mod at or above /x\n--- FAIL: TestScenarios (0.00s)\n"},
		Skipped: map[string]bool{"TestStress": true, "TestScenarios/skips": true},
	}, NotRun: map[string]bool{}}
	top := []string{"TestScenarios", "TestStress"}
	markNotRun(res, []string{"TestScenarios/a", "TestScenarios/skips", "TestStress/exercise-1/x", "TestGone/x"}, false, top)
	if passed, ok := res.Passed["TestScenarios/a"]; !ok || passed {
		t.Fatalf("TestScenarios/a: passed %v (recorded %v); want failed as not run", passed, ok)
	}
	for _, test := range []string{"TestScenarios/skips", "TestStress/exercise-1/x", "TestGone/x"} {
		if _, ok := res.Passed[test]; ok {
			t.Errorf("%s skipped or not in the binary, yet was marked not run", test)
		}
	}
	k := &code{s: &standIn{yours: map[string]string{}}}
	o := k.outcome("TestScenarios/a", res, 0)
	if !o.notRun || !strings.Contains(o.report, "TestScenarios failed before this test ran") || !strings.Contains(o.report, "no go.mod") {
		t.Errorf("report:\n%s", o.report)
	}
	if e := judge("p", exgen.Exercise{ID: 1}, []string{"TestScenarios/a"}, map[string]*outcome{"TestScenarios/a": o}, nil); e.Status != Fail {
		t.Errorf("exercise 1: %v; want Fail", e.Status)
	}
	// Under -failfast, a run that failed stops early on purpose.
	res = &runs{Result: &gotest.Result{Passed: map[string]bool{"TestX": false}, Skipped: map[string]bool{}}, NotRun: map[string]bool{}}
	markNotRun(res, []string{"TestScenarios/a"}, true, top)
	if _, ok := res.Passed["TestScenarios/a"]; ok {
		t.Errorf("-failfast: TestScenarios/a marked not run after a failure")
	}
}

// leftover is a package where a test that passed leaves a goroutine
// behind that panics while TestScenarios sets up, before any scenario
// runs: the setup is innocent, and its scenarios must still run.
const leftover = `package p

import (
	"testing"
	"time"
)

func TestA(t *testing.T) {
	go func() {
		time.Sleep(100 * time.Millisecond)
		panic("p exercise 1 is not done yet")
	}()
}

func TestScenarios(t *testing.T) {
	time.Sleep(400 * time.Millisecond)
	t.Run("first", func(t *testing.T) {})
}
`

// TestALeftoverCrashDoesNotSkipTheSetupItStopped: run alone, the setup
// the crash came amid passes, and so do its scenarios.
func TestALeftoverCrashDoesNotSkipTheSetupItStopped(t *testing.T) {
	bin := buildPackage(t, leftover)
	res, err := runTests(bin, nil, 0, gotest.Idle{}, "", "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed["TestScenarios/first"] {
		t.Errorf("TestScenarios/first: passed %v (recorded %v); want run alone and passed", res.Passed["TestScenarios/first"], res.Output["TestScenarios/first"] != "")
	}
}

// buildPackage builds the test binary of a one-file package.
func buildPackage(t *testing.T, src string) *gotest.Binary {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module p\n\ngo 1.25\n", "p_test.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	bin, build, err := gotest.Build(dir, nil)
	if err != nil || bin == nil {
		t.Fatalf("build: %v %s", err, build)
	}
	t.Cleanup(bin.Remove)
	return bin
}

// replaysAnEarlierChapter is 07's shape: a test that runs an earlier
// chapter's scenarios against this chapter's code, once with that
// chapter's code and once with client-go's.
const replaysAnEarlierChapter = `package p

import "testing"

func TestReplay(t *testing.T) {
	t.Run("01-listwatch", func(t *testing.T) { t.Run("a.txt", func(t *testing.T) {}) })
	t.Run("client-go", func(t *testing.T) { t.Run("a.txt", func(t *testing.T) {}) })
}
`

// TestAnEarlierChaptersReferenceRunsOnlyWhenItIsYours: the subtest named
// after chapter 01 runs when 01's files are yours (--mine), and is
// skipped when they are the reference's; client-go's beside it always
// runs.
func TestAnEarlierChaptersReferenceRunsOnlyWhenItIsYours(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"01-listwatch", "07-watchserver"} {
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name, "go.mod"), []byte("module "+name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := chapters.Chapter{Name: "07-watchserver", Dir: filepath.Join(root, "07-watchserver")}
	bin := buildPackage(t, replaysAnEarlierChapter)
	for _, tc := range []struct {
		files map[string][]byte
		ran01 bool
	}{
		{files: nil, ran01: false},
		{files: map[string][]byte{"../01-listwatch/reflector.go": nil}, ran01: true},
	} {
		skip, err := referenceRuns(c, tc.files)
		if err != nil {
			t.Fatal(err)
		}
		res, err := runTests(bin, nil, 0, gotest.Idle{}, "", skip, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, ran01 := res.Passed["TestReplay/01-listwatch/a.txt"]
		if ran01 != tc.ran01 || !res.Passed["TestReplay/client-go/a.txt"] {
			t.Errorf("files %v, -skip %q: ran 01's %v, want %v; client-go's passed: %v",
				tc.files, skip, ran01, tc.ran01, res.Passed["TestReplay/client-go/a.txt"])
		}
	}
}

// Of two failing scenarios of an exercise, the one that runs the fewest
// exercises is shown: an off-by-one in 05's backoff shows the limiter's
// own "when a" before a whole queue's timeline.
func TestJudgeShowsTheNarrowestCheck(t *testing.T) {
	outcomes := map[string]*outcome{
		"TestScenarios/backoff-timeline":    {report: "timeline"},
		"TestScenarios/exponential-backoff": {report: "when a"},
	}
	blame := Blame{"TestScenarios/backoff-timeline": {1, 2, 3, 5, 8}, "TestScenarios/exponential-backoff": {5}}
	tests := []string{"TestScenarios/backoff-timeline", "TestScenarios/exponential-backoff"}
	if e := judge("p", exgen.Exercise{ID: 5}, tests, outcomes, blame); e.Test != "TestScenarios/exponential-backoff" {
		t.Errorf("shown %s; want TestScenarios/exponential-backoff, which runs exercise 5 alone", e.Test)
	}
	if e := judge("p", exgen.Exercise{ID: 5}, tests, outcomes, nil); e.Test != "TestScenarios/backoff-timeline" {
		t.Errorf("with no blame file, shown %s; want the first in order", e.Test)
	}
	// The one not shown is named: the 07 trial read "16 of 18 checks
	// pass" over a single failure.
	if e := judge("p", exgen.Exercise{ID: 5}, tests, outcomes, blame); !slices.Equal(e.AlsoFailing, []string{"TestScenarios/backoff-timeline"}) {
		t.Errorf("also failing: %q; want the timeline, the failure not shown", e.AlsoFailing)
	}
}

// A check that fails every time is shown before one that fails now and
// then, however narrow: trial R's Get that left the item dirty showed a
// "Flaky" step first, which reads as a race.
func TestJudgeShowsASteadyFailureFirst(t *testing.T) {
	outcomes := map[string]*outcome{
		"TestScenarios/blocking-get":           {report: "flaky", failRate: 0.2},
		"TestScenarios/dirty-while-processing": {report: "steady", failRate: 1},
	}
	blame := Blame{"TestScenarios/blocking-get": {2}, "TestScenarios/dirty-while-processing": {1, 2, 3}}
	tests := []string{"TestScenarios/blocking-get", "TestScenarios/dirty-while-processing"}
	if e := judge("p", exgen.Exercise{ID: 2}, tests, outcomes, blame); e.Test != "TestScenarios/dirty-while-processing" {
		t.Errorf("shown %s; want the check that fails every time", e.Test)
	}
}

// Your copy runs in the reference's place: a subtest named "reference"
// is shown as "yours" (the 02 trial read "TestPopBlocksUntilAWrite/
// reference/DeltaFIFO made no progress" as the reference being broken).
func TestShownNameSaysYours(t *testing.T) {
	for in, want := range map[string]string{
		"TestPopBlocksUntilAWrite/reference/DeltaFIFO": "TestPopBlocksUntilAWrite/yours/DeltaFIFO",
		"TestCloseWakesEveryPop/client-go/RealFIFO":    "TestCloseWakesEveryPop/client-go/RealFIFO",
		"TestScenarios/reference-version":              "TestScenarios/reference-version",
		"TestEveryDrainReturns/reference":              "TestEveryDrainReturns/yours",
		"TestStress/exercise-3/every-change-once":      "TestStress/every-change-once",
	} {
		if got := shownName(in); got != want {
			t.Errorf("shownName(%q) = %q, want %q", in, got, want)
		}
	}
}

// stuckOnce is a package whose first check blocks the first time it runs
// (a marker file says it did) and passes after: a hang that depends on
// timing, beside a check that passes.
const stuckOnce = `package p

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestStuckOnce(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(os.Getenv("MARKER_DIR"), "ran")
	if _, err := os.Stat(marker); err != nil {
		os.WriteFile(marker, nil, 0o644)
		select {}
	}
}

func TestBeside(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(os.Getenv("MARKER_DIR"), "beside")
	if _, err := os.Stat(marker); err != nil {
		os.WriteFile(marker, nil, 0o644)
		time.Sleep(3 * time.Second) // still running when the stop comes
	}
}
`

// TestAProvedHangAmidParallelChecksStaysAHang: when the dump of a stop of
// checks side by side proves a function keeps a lock, the checks that run
// it are stuck, though one would pass run again (the 07 trial's missing
// Unlock on a not-ready path did, and read as a pass); the others run again.
func TestAProvedHangAmidParallelChecksStaysAHang(t *testing.T) {
	bin := buildPackage(t, stuckOnce)
	hangs := func(string) ([]string, bool) { return []string{"TestStuckOnce"}, true }
	res, err := runTests(bin, []string{"MARKER_DIR=" + t.TempDir()}, time.Second, gotest.Idle{}, "", "", false, hangs)
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed["TestStuckOnce"] || !slices.Contains(res.Stuck, "TestStuckOnce") || res.DumpOf["TestStuckOnce"] == "" {
		t.Errorf("TestStuckOnce: passed %v, stuck %v, dump %d bytes; want stuck, with its dump", res.Passed["TestStuckOnce"], res.Stuck, len(res.DumpOf["TestStuckOnce"]))
	}
	if !res.Passed["TestBeside"] {
		t.Errorf("TestBeside, run again, did not pass")
	}
}

// A check that replays every scenario file (04's TestScenarios/classic)
// fails in a subtest: the failed subtest's step report is the check's
// reason, not "failed without saying why"; a passed one's output is not.
func TestAReplayOfScenariosSaysWhyFromItsFailedFile(t *testing.T) {
	res := &runs{Result: &gotest.Result{
		Passed: map[string]bool{"TestScenarios/classic": false, "TestScenarios/classic/a.txt": true, "TestScenarios/classic/b.txt": false},
		Output: map[string]string{
			"TestScenarios/classic":       "=== RUN   TestScenarios/classic\n--- FAIL: TestScenarios/classic (0.00s)\n",
			"TestScenarios/classic/a.txt": "    a.txt:3: step 1 passed quietly\n",
			"TestScenarios/classic/b.txt": "    b.txt:26: step 4 diverged\n      - h1: UPDATE ns/a@5 -> ns/a@12\n      + h1: ADD ns/a@12\n",
		},
	}, NotRun: map[string]bool{}}
	k := &code{s: &standIn{yours: map[string]string{}}}
	o := k.outcome("TestScenarios/classic", res, 0)
	if !strings.Contains(o.report, "b.txt:26: step 4 diverged") || !strings.Contains(o.report, "+ h1: ADD ns/a@12") ||
		strings.Contains(o.report, "without saying why") || strings.Contains(o.report, "passed quietly") {
		t.Errorf("report of a replay whose b.txt diverged:\n%s", o.report)
	}
}

// twoWaiting is two checks side by side that wait for good, beside one
// skipped (07's doc check is skipped on your copy).
const twoWaiting = `package p

import (
	"os"
	"path/filepath"
	"testing"
)

func started(name string) {
	f, _ := os.OpenFile(filepath.Join(os.Getenv("MARKER_DIR"), "runs"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	f.WriteString(name + "\n")
	f.Close()
}

func TestSkipped(t *testing.T) { t.Skip("not on your copy") }

func TestWaitsA(t *testing.T) { t.Parallel(); started("A"); select {} }

func TestWaitsB(t *testing.T) { t.Parallel(); started("B"); select {} }
`

// TestAStopForWaitingIsEveryWaitersOwn: checks side by side that all
// waited out the idle period are each stuck in that one run; none runs
// again alone to wait it out once more (07's TestKubectl did, 16 s), and
// a skipped test is not one the stop found running.
func TestAStopForWaitingIsEveryWaitersOwn(t *testing.T) {
	bin := buildPackage(t, twoWaiting)
	dir := t.TempDir()
	res, err := runTests(bin, []string{"MARKER_DIR=" + dir}, time.Minute, gotest.Idle{After: time.Second}, "", "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, test := range []string{"TestWaitsA", "TestWaitsB"} {
		if res.Passed[test] || !slices.Contains(res.Stuck, test) || res.DumpOf[test] == "" {
			t.Errorf("%s: passed %v, stuck %v, dump %d bytes; want stuck, with its dump", test, res.Passed[test], res.Stuck, len(res.DumpOf[test]))
		}
	}
	if passed, judged := res.Passed["TestSkipped"]; judged || !res.Skipped["TestSkipped"] {
		t.Errorf("TestSkipped: judged %v (passed %v), skipped %v; want skipped only, not running when the stop came", judged, passed, res.Skipped["TestSkipped"])
	}
	runs, _ := os.ReadFile(filepath.Join(dir, "runs"))
	if got := strings.Fields(string(runs)); len(got) != 2 {
		t.Errorf("the waiting checks started %d times (%v), want once each", len(got), got)
	}
}

// TestPlainFailureKeepsADiffsChanges: a fuzz target's cmp.Diff, fifty
// lines long, keeps its - and + lines wherever they are (trial I's
// FuzzInformer report kept its first and last lines and left the first
// change out).
func TestPlainFailureKeepsADiffsChanges(t *testing.T) {
	var out strings.Builder
	out.WriteString("    fuzz_test.go:37: after step 0, your copy and client-go differ (-client-go +your copy):\n          (\n          \t\"\"\"\n")
	for i := range 30 {
		fmt.Fprintf(&out, "          \tstep %d\n", i)
	}
	out.WriteString("        - \th1: ADD ns/a@5\n        + \th1: ADD ns/b@6\n")
	for i := range 20 {
		fmt.Fprintf(&out, "          \tafter %d\n", i)
	}
	out.WriteString("          \t\"\"\"\n          )\n")
	k := &code{s: &standIn{yours: map[string]string{}}}
	got, _ := k.plain(out.String())
	for _, want := range []string{"differ (-client-go", "- \th1: ADD ns/a@5", "+ \th1: ADD ns/b@6", "step 29", "after 1\n", "… (29 lines left out)", "… (17 lines left out)"} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "step 27") || strings.Contains(got, "after 5\n") {
		t.Errorf("report keeps lines far from the change:\n%s", got)
	}
}

// A check left out beside a stuck one (WaitsLike) was never run: it is
// named apart from the checks that failed (trial K's b04 listed
// add-after-never-waits-for-the-loop, which passes, as failing).
func TestJudgeNamesChecksLeftOutApart(t *testing.T) {
	outcomes := map[string]*outcome{
		"TestScenarios/stuck":    {report: "stuck", culprit: 4, located: ByFrames, hung: false},
		"TestScenarios/beside":   {report: "left out", culprit: 4, located: WaitsLike, hung: true, follows: "TestScenarios/stuck"},
		"TestScenarios/diverges": {report: "diff", culprit: 4, located: BySwap},
	}
	tests := []string{"TestScenarios/beside", "TestScenarios/diverges", "TestScenarios/stuck"}
	e := judge("p", exgen.Exercise{ID: 4}, tests, outcomes, nil)
	if e.Status != Fail || e.Test == "TestScenarios/beside" {
		t.Fatalf("shown %s (%v); want a check that ran", e.Test, e.Status)
	}
	if !slices.Equal(e.LeftOut, []string{"TestScenarios/beside"}) || slices.Contains(e.AlsoFailing, "TestScenarios/beside") {
		t.Errorf("left out %q, also failing %q; want the check left out named apart", e.LeftOut, e.AlsoFailing)
	}
}
