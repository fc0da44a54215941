// Package gotest builds a chapter's test binary once and runs it as often
// as a check needs, collecting what each test did, for the learner's
// runner and the tests of the tests.
//
// Building once matters: a check that reruns tests (after a crash, or to
// find which exercise a divergence comes from) would otherwise pay the
// compiler, and the race detector's instrumentation, every time.
package gotest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Result is the outcome of one run of a test binary.
type Result struct {
	Passed map[string]bool   // test name → passed; subtests are "TestX/sub"
	Output map[string]string // test name → everything it printed
	Build  string            // compiler output, when the package did not build
	OK     bool              // the binary exited 0
	// Crash is the "panic: ..." (or "fatal error: ...") line that stopped
	// the test binary: a panic no test recovered, raised in a goroutine of
	// the code under test. The goroutine dump after it is kept out of
	// Output, in Dump: it is noise to a learner until it is cut down to
	// the frames of their own code.
	Crash string
	// Repanicked is the test that Crash came from when testing reported
	// its failure first and then raised the panic again ("[recovered,
	// repanicked]"): a panic on the test's own goroutine that nothing
	// below testing recovered, such as synctest's "blocked goroutines
	// remain" when the test ends.
	Repanicked string
	// Stuck lists the tests that were running when the binary was stopped
	// for printing nothing for too long (see Binary.Run); their goroutines'
	// stacks are in Dump.
	Stuck []string
	// StuckAfter is how long the binary had printed nothing when it was
	// stopped as stuck: the quiet period, or less when it also computed
	// nothing (Run's idle).
	StuckAfter time.Duration
	// Waited says the stuck binary was stopped for waiting (Idle), not
	// only for printing nothing: every test in Stuck had been running,
	// computing nothing and printing nothing, for Idle.After.
	Waited bool
	Dump   string // the goroutine dump of a crash or of a stuck binary
	// Leak is what the binary printed, after every test passed, about
	// goroutines still running (workshop/leak).
	Leak string
	// Took is how long each test ran, by name.
	Took map[string]time.Duration
	// Fails counts each test's failed runs: more than one only when the
	// binary ran the tests several times (-count).
	Fails map[string]int
	// Skipped names the tests that skipped themselves (t.Skip): they ran,
	// and have no verdict in Passed.
	Skipped map[string]bool
}

// Failed lists the tests that ran and failed, sorted.
func (r *Result) Failed() []string {
	var names []string
	for name, ok := range r.Passed {
		if !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// Run builds the test binary of the package in dir and runs it once:
// `go test -count=1 args...`, where args mix build flags (-race, -vet=off,
// which Build takes) and test flags (-run, -skip, -timeout, -failfast).
// files, if not empty, replaces or adds source files for this run only (a
// go build overlay: path relative to dir → content; nil content deletes
// the file), leaving the working tree untouched.
func Run(dir string, env []string, files map[string][]byte, args ...string) (*Result, error) {
	var build, test []string
	for _, a := range args {
		switch {
		case a == ".":
		case a == "-race" || strings.HasPrefix(a, "-vet"):
			build = append(build, a)
		default:
			test = append(test, a)
		}
	}
	bin, out, err := Build(dir, files, build...)
	if err != nil {
		return nil, err
	}
	if bin == nil {
		return &Result{Build: out, Passed: map[string]bool{}, Output: map[string]string{}, Skipped: map[string]bool{}}, nil
	}
	defer bin.Remove()
	return bin.Run(env, 0, Idle{}, test...)
}

// Binary is a built test binary of one package.
type Binary struct {
	Path string // the executable
	Dir  string // the package's directory, where it must run
	// OnTest, if set, hears of every test that ends, as it ends: a check
	// that takes a while says how far it got.
	OnTest func(test string, passed bool)
	// OnRun, if set, hears of every test that starts running (or goes on,
	// after a parallel test's pause); OnStop of every one that stops
	// without a result: paused, or skipped.
	OnRun, OnStop func(test string)
	// OnStuck, if set, hears when tests that made no progress are about
	// to be stopped, so that a check can say why it is still busy.
	OnStuck func(tests []string, after time.Duration)
	tmp     string
	kept    bool // Path is BuildAt's, kept between runs
}

// Build compiles the test binary of the package in dir with the build
// flags given (-race, -vet=off) and the overlay files. When the package
// does not compile, it returns no binary and the compiler's output.
func Build(dir string, files map[string][]byte, flags ...string) (*Binary, string, error) {
	return BuildAt("", dir, files, flags...)
}

// BuildAt is Build into the file at path, kept between runs (Remove leaves
// it): the go command relinks it only when what it is built from changed,
// so a check of unchanged code skips the link, seconds for a binary that
// links client-go; and when the sum of the workspace says nothing changed
// (buildKey), the go command is not even asked. The caller holds the lock of path (Lock) from the
// build until the last run. An empty path is a fresh temporary file.
func BuildAt(path, dir string, files map[string][]byte, flags ...string) (*Binary, string, error) {
	tmp, err := os.MkdirTemp("", "walkthrough-test-")
	if err != nil {
		return nil, "", err
	}
	bin := &Binary{Path: filepath.Join(tmp, "chapter.test"), Dir: dir, tmp: tmp}
	if path != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			bin.Remove()
			return nil, "", err
		}
		bin.Path, bin.kept = path, true
	}
	key := ""
	if path != "" {
		if key = buildKey(dir, files, flags); builtFrom(path, key) {
			return bin, "", nil
		}
		os.Remove(keyFile(path))
		os.Remove(listFile(path))
	}
	// -s -w: no symbol table or DWARF, which only debuggers read; stacks
	// keep their files and lines. It makes the link, the slow part of a
	// rebuild, markedly quicker.
	args := append([]string{"test", "-c", "-o", bin.Path, "-ldflags=-s -w"}, flags...)
	var standIns map[string]string // stand-in file → the path it replaces
	if len(files) > 0 {
		overlay, replaced, cleanup, err := writeOverlay(dir, files)
		if err != nil {
			bin.Remove()
			return nil, "", err
		}
		defer cleanup()
		args = append(args, "-overlay="+overlay)
		standIns = replaced
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		bin.Remove()
		return nil, "", fmt.Errorf("go test -c in %s: %w", dir, err)
	}
	if err != nil {
		bin.Remove()
		text := strings.TrimSpace(string(out))
		if text == "" {
			text = err.Error()
		}
		// The compiler names a stand-in by its temporary file; say the
		// path it stands in for, which the caller knows how to name.
		for stand, real := range standIns {
			text = strings.ReplaceAll(text, stand, real)
		}
		return nil, text, nil
	}
	if _, err := os.Stat(bin.Path); err != nil {
		// A package without test files builds no binary.
		bin.Remove()
		return nil, "", fmt.Errorf("go test -c in %s wrote no test binary (no test files?)", dir)
	}
	if path != "" {
		keepKey(path, key)
	}
	return bin, "", nil
}

// Remove deletes the binary, unless it is kept (BuildAt), and the
// temporary files of its tests.
func (b *Binary) Remove() { os.RemoveAll(b.tmp) }

// TopLevel lists the binary's top-level tests, fuzz targets and examples
// (not its benchmarks), as -test.list names them.
//
// A kept binary (BuildAt) keeps its list beside it, stamped as its key
// is: starting a binary that links client-go and etcd under the race
// detector only to list its tests took 1 to 1.7 s of a warm check 07 on
// 2 busy cores, and the list changes only with the binary.
func (b *Binary) TopLevel() ([]string, error) {
	out, ok := b.keptList()
	if !ok {
		cmd := exec.Command(b.Path, "-test.list", ".")
		cmd.Dir = b.Dir
		var err error
		if out, err = cmd.Output(); err != nil {
			return nil, fmt.Errorf("%s -test.list: %w", filepath.Base(b.Path), err)
		}
		b.keepList(out)
	}
	var names []string
	for _, name := range strings.Fields(string(out)) {
		if !strings.HasPrefix(name, "Benchmark") {
			names = append(names, name)
		}
	}
	return names, nil
}

// Run runs the binary once with the test flags given, in plain go test
// spelling (-run, -skip, -timeout, -failfast; "-test." is added). When
// stuck is more than zero and the binary prints nothing for that long
// while a test runs, it is made to dump its goroutines and stop (SIGQUIT),
// and the tests that were running are reported in Result.Stuck: a lock
// never released or a channel nobody closes is caught in seconds instead
// of at the test timeout. A binary that waits (see Idle) is stopped
// sooner.
func (b *Binary) Run(env []string, stuck time.Duration, idle Idle, flags ...string) (*Result, error) {
	args := []string{"-test.v=test2json", "-test.count=1"}
	for _, f := range flags {
		if strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "-test.") {
			f = "-test." + f[1:]
		}
		args = append(args, f)
	}
	test := exec.Command(b.Path, args...)
	test.Dir = b.Dir
	// Every goroutine's stack on a crash or a SIGQUIT: where your code
	// waits is in another goroutine than the one that panicked. The
	// tests' temporary directories go under the binary's own, which
	// Remove deletes: a test the binary stops (a crash, a stuck test)
	// never cleans up after itself, and an etcd's data is megabytes.
	tmp := filepath.Join(b.tmp, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	test.Env = append(append(os.Environ(), "GOTRACEBACK=all", "TMPDIR="+tmp, raceOptions()), env...)
	raw, err := test.StdoutPipe()
	if err != nil {
		return nil, err
	}
	test.Stderr = test.Stdout // one stream, as go test shows it
	// test2json turns the binary's framed output into events; it reads
	// its standard input when given no command.
	conv := exec.Command("go", "tool", "test2json", "-t")
	conv.Stdin = raw
	events, err := conv.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var convErr bytes.Buffer
	conv.Stderr = &convErr
	if err := test.Start(); err != nil {
		return nil, err
	}
	if err := conv.Start(); err != nil {
		test.Process.Kill()
		test.Wait()
		return nil, err
	}
	w := newWatch(test.Process, stuck, idle, b.OnStuck)
	r := parse(events, w, b)
	w.stop()
	convWaitErr := conv.Wait()
	testErr := test.Wait()
	if convWaitErr != nil && convErr.Len() > 0 {
		return nil, fmt.Errorf("go tool test2json: %s", strings.TrimSpace(convErr.String()))
	}
	if _, isExit := testErr.(*exec.ExitError); testErr != nil && !isExit {
		return nil, fmt.Errorf("%s: %w", filepath.Base(b.Path), testErr)
	}
	r.OK = testErr == nil
	if stuckTests, after, waited := w.fired(); stuckTests != nil {
		r.Stuck, r.StuckAfter, r.Waited, r.Crash = stuckTests, after, waited, ""
		for _, t := range stuckTests {
			r.Passed[t] = false
		}
	}
	return r, nil
}

// Idle says when a binary that prints nothing is waiting for good: it has
// printed nothing for After and used no more than Share of one CPU over
// that time (where the system tells a process's CPU time). For tests in
// synctest bubbles every goroutine waiting means a deadlock, so Share is
// 0 (the runtime's upkeep aside); a binary on the real clock with etcds
// in it idles at their raft ticks, about 2% of a CPU, and After must
// outlast its own longest wait on that clock. The zero Idle never stops
// a binary.
type Idle struct {
	After time.Duration
	Share float64
}

// watch stops a binary that prints nothing for too long while a test runs,
// or, with idle set, that prints nothing and computes next to nothing for
// idle.After.
type watch struct {
	mu      sync.Mutex
	proc    *os.Process
	quiet   time.Duration
	idle    Idle
	last    time.Time
	running map[string]bool
	said    map[string]bool // the lines printed so far, numbers as #
	stuck   []string        // the tests running when it fired; nil until then
	after   time.Duration   // how long it had printed nothing then
	waited  bool            // it fired for Idle, not only for quiet
	done    chan struct{}
	// idleSince is when the binary last used more than idleCPU ticks of
	// CPU over cpuAt.
	idleSince time.Time
	cpuAt     int64
	onStuck   func([]string, time.Duration)
}

// digits are the numbers in a line: times, counts, addresses.
var digits = regexp.MustCompile(`[0-9]+`)

// idleCPU is how much CPU time, in ticks (10 ms each), a binary whose
// goroutines all wait may still use besides Idle.Share: the runtime's own
// upkeep.
const idleCPU = 2

// ticksPerSecond is the kernel's clock tick rate for CPU times (USER_HZ).
const ticksPerSecond = 100

func newWatch(p *os.Process, quiet time.Duration, idle Idle, onStuck func([]string, time.Duration)) *watch {
	w := &watch{proc: p, quiet: quiet, idle: idle, last: time.Now(), idleSince: time.Now(), running: map[string]bool{}, said: map[string]bool{}, done: make(chan struct{}), onStuck: onStuck}
	if quiet > 0 {
		go w.loop()
	}
	return w
}

func (w *watch) loop() {
	every := w.quiet / 10
	if w.idle.After > 0 {
		every = min(every, w.idle.After/10)
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-w.done:
			return
		case <-tick.C:
		}
		cpu, measured := int64(0), false
		if w.idle.After > 0 {
			cpu, measured = cpuTicks(w.proc.Pid)
		}
		w.mu.Lock()
		now := time.Now()
		allowed := idleCPU + w.idle.Share*ticksPerSecond*now.Sub(w.idleSince).Seconds()
		if measured && float64(cpu-w.cpuAt) > allowed {
			w.idleSince, w.cpuAt = now, cpu
		}
		quiet := now.Sub(w.last) > w.quiet
		idle := measured && now.Sub(w.last) > w.idle.After && now.Sub(w.idleSince) > w.idle.After
		var stopping []string
		if w.stuck == nil && len(w.running) > 0 && (quiet || idle) {
			for t := range w.running {
				w.stuck = append(w.stuck, t)
			}
			sort.Strings(w.stuck)
			w.after = now.Sub(w.last).Round(100 * time.Millisecond)
			w.waited = idle
			stopping = w.stuck
			w.proc.Signal(syscall.SIGQUIT) // the Go runtime dumps every goroutine and exits
		}
		after := w.after
		w.mu.Unlock()
		if stopping != nil && w.onStuck != nil {
			w.onStuck(stopping, after)
		}
	}
}

// event notes one test2json event: the test it names is running or done,
// or it printed. A line it printed before, numbers aside, is no progress:
// a client retrying against a server that will never answer logs the
// same line every second or so, and a 07 check sat 5 minutes on such a
// hang, the quiet period never reached.
func (w *watch) event(action, test, output string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stuck != nil {
		return
	}
	if action == "output" {
		line := digits.ReplaceAllString(output, "#")
		if w.said[line] {
			return
		}
		w.said[line] = true
	}
	w.last = time.Now()
	switch action {
	case "run", "cont":
		w.running[test] = true
	case "pass", "fail", "skip", "pause":
		delete(w.running, test)
	}
}

func (w *watch) fired() ([]string, time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stuck, w.after, w.waited
}

func (w *watch) stop() { close(w.done) }

// parse reads test2json events into a Result.
func parse(events io.Reader, w *watch, b *Binary) *Result {
	r := &Result{Passed: map[string]bool{}, Output: map[string]string{}, Took: map[string]time.Duration{}, Skipped: map[string]bool{}, Fails: map[string]int{}}
	var dump, leak strings.Builder
	started := map[string]bool{}
	muted := map[string]bool{} // run again after a run that failed: its output is not kept
	sc := bufio.NewScanner(events)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	inLeak := false
	lastFail := "" // the test that failed last, if nothing ran since
	for sc.Scan() {
		var ev struct {
			Action, Test, Output string
			Elapsed              float64
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			continue
		}
		if ev.Test != "" {
			w.event(ev.Action, ev.Test, ev.Output)
		}
		if ev.Action == "output" && r.Crash == "" && dump.Len() == 0 && isCrash(ev.Output) {
			if strings.HasPrefix(ev.Output, "SIGQUIT") {
				dump.WriteString(ev.Output)
			} else {
				// A race report may cut into the line: keep its own words.
				r.Crash = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(ev.Output), "="))
				if strings.Contains(r.Crash, "[recovered") {
					r.Repanicked = lastFail
				}
			}
			continue
		}
		switch {
		case ev.Action == "output" && (r.Crash != "" || dump.Len() > 0):
			dump.WriteString(ev.Output) // the dump of a crash or of a stuck binary
		case ev.Action == "output" && ev.Test == "" && (inLeak || strings.HasPrefix(ev.Output, "leak: ")):
			inLeak = true
			leak.WriteString(ev.Output)
		case ev.Test == "":
		case ev.Action == "run" || ev.Action == "cont":
			if _, ranBefore := r.Passed[ev.Test]; ev.Action == "run" && ranBefore {
				// Run again (-count): the output kept is one run's, the
				// first that failed, not every run's one after another (a
				// scenario's report confirmed in ten runs read ten times
				// over, with every step's echo: 1,600 lines in trial A).
				if r.Fails[ev.Test] > 0 {
					muted[ev.Test] = true
				} else {
					r.Output[ev.Test] = ""
				}
			}
			started[ev.Test], lastFail = true, ""
			if b.OnRun != nil {
				b.OnRun(ev.Test)
			}
		case ev.Action == "pause":
			// A parallel test waits for its turn: not running until "cont".
			started[ev.Test] = false
			if b.OnStop != nil {
				b.OnStop(ev.Test)
			}
		case ev.Action == "output" && muted[ev.Test]:
		case ev.Action == "output":
			r.Output[ev.Test] += ev.Output
			// A top-level test's --- FAIL line comes before its "fail"
			// event; a parent's, after its failed subtest's, which it
			// must not hide.
			if strings.HasPrefix(strings.TrimSpace(ev.Output), "--- FAIL: "+ev.Test+" ") && !strings.HasPrefix(lastFail, ev.Test+"/") {
				lastFail = ev.Test
			}
		case ev.Action == "skip":
			// Done, with no result of its own: not one a crash stopped
			// (07's doc check, skipped on your copy, read as running at
			// every stuck stop and cost each a rerun of its neighbours).
			r.Skipped[ev.Test], started[ev.Test] = true, false
			if b.OnStop != nil {
				b.OnStop(ev.Test)
			}
		case ev.Action == "pass" || ev.Action == "fail":
			// Run several times (-count), a test fails if any run did.
			if passed, seen := r.Passed[ev.Test]; !seen || passed {
				r.Passed[ev.Test] = ev.Action == "pass"
			}
			lastFail = ""
			if ev.Action == "fail" {
				lastFail = ev.Test
				r.Fails[ev.Test]++
			}
			r.Took[ev.Test] = time.Duration(ev.Elapsed * float64(time.Second))
			if b.OnTest != nil {
				b.OnTest(ev.Test, ev.Action == "pass")
			}
		}
	}
	// A crash ends the binary without a result for the tests that were
	// running: they failed, with the crash as the reason.
	if r.Crash != "" || dump.Len() > 0 {
		for test, running := range started {
			if _, ok := r.Passed[test]; !ok && running {
				r.Passed[test] = false
			}
		}
	}
	r.Dump = strings.TrimSpace(dump.String())
	r.Leak = strings.TrimSpace(leak.String())
	return r
}

// isCrash reports whether a line of output starts the end of the binary:
// a panic nothing recovered, a fatal runtime error (a concurrent map
// write, a deadlock), or the dump SIGQUIT asks for.
func isCrash(line string) bool {
	for _, p := range []string{"panic: ", "fatal error: ", "SIGQUIT: "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// WriteOverlay writes files to a temporary directory and an overlay JSON
// file that maps each real path to its stand-in, for the go command's
// -overlay flag. cleanup removes them.
func WriteOverlay(dir string, files map[string][]byte) (string, func(), error) {
	overlay, _, cleanup, err := writeOverlay(dir, files)
	return overlay, cleanup, err
}

// writeOverlay is WriteOverlay that also returns, for each stand-in file
// it wrote, the absolute path it replaces.
func writeOverlay(dir string, files map[string][]byte) (string, map[string]string, func(), error) {
	tmp, err := os.MkdirTemp("", "walkthrough-overlay-")
	if err != nil {
		return "", nil, nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	replace := map[string]string{}
	standIns := map[string]string{}
	i := 0
	for rel, content := range files {
		abs, err := filepath.Abs(filepath.Join(dir, rel))
		if err != nil {
			cleanup()
			return "", nil, nil, err
		}
		if content == nil {
			replace[abs] = "" // delete
			continue
		}
		i++
		stand := filepath.Join(tmp, fmt.Sprintf("%d-%s", i, filepath.Base(rel)))
		if err := os.WriteFile(stand, content, 0o644); err != nil {
			cleanup()
			return "", nil, nil, err
		}
		replace[abs] = stand
		standIns[stand] = abs
	}
	data, _ := json.Marshal(map[string]any{"Replace": replace})
	overlay := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlay, data, 0o644); err != nil {
		cleanup()
		return "", nil, nil, err
	}
	return overlay, standIns, cleanup, nil
}

// raceOptions is the GORACE setting for a binary built with -race.
//
// atexit_sleep_ms=0 lets it exit as soon as its tests are done. By default
// the race detector sleeps a second before exiting, for goroutines still
// running to report a race; a chapter's TestMain has already waited for
// every goroutine to end (workshop/leak), so the second is spent on
// nothing, in every check.
//
// suppress_equal_stacks=0 and suppress_equal_addresses=0 report a race
// each time it happens, not once per process: a check run again with
// -count=n, to tell whether your code fails it every time or which
// exercise's swap makes it pass, otherwise fails only in the run that
// saw the race first (the 04 trial's race read "failed 3 of 11 runs", and
// a swap of innocent code "passed 27 of 27"). A run still reports a race
// only a few times, however often its loop repeats it.
//
// A GORACE of the caller's that sets any of these is kept as it is.
func raceOptions() string {
	gorace := os.Getenv("GORACE")
	for _, opt := range []string{"atexit_sleep_ms=0", "suppress_equal_stacks=0", "suppress_equal_addresses=0"} {
		name, _, _ := strings.Cut(opt, "=")
		if !strings.Contains(gorace, name) {
			gorace += " " + opt
		}
	}
	return "GORACE=" + strings.TrimSpace(gorace)
}
