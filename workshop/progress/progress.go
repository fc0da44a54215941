// Package progress says, per exercise, how a learner's copy of a chapter
// is doing: it runs the chapter's scenarios against the exercise copy and
// attributes each scenario's result to the exercise its header names.
package progress

import (
	"fmt"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/gotest"
	"example.com/walkthrough/workshop/scenario"
)

// Status is where one exercise stands.
type Status int

const (
	Pass       Status = iota // every scenario that checks it passes
	NotStarted               // its stub still panics
	Blocked                  // its scenarios stop at another unfinished exercise
	Fail                     // its scenarios diverge from client-go
	Unchecked                // no scenario names it (a gap in the chapter)
)

func (s Status) String() string {
	return [...]string{"pass", "todo", "blocked", "FAIL", "unchecked"}[s]
}

// Exercise is one exercise's result.
type Exercise struct {
	exgen.Exercise
	Status  Status
	Blocker int // for Blocked: the unfinished exercise in the way
	// BlockerChapter is the chapter of Blocker: another chapter's when
	// the tests run on your own earlier chapters (--mine).
	BlockerChapter string
	Test           string // the first scenario that did not pass
	Report         string // what that scenario printed
	// AlsoFailing names the other checks that fail on this exercise's
	// own code: only Test's report is shown, and a count of passing
	// checks with one failure under it would hide them.
	AlsoFailing []string
	// LeftOut names the checks of this exercise that were not run, as
	// they would wait where the stuck check shown (Test) did: neither
	// passing nor failing, they are not counted in Passing of Checked.
	LeftOut []string
	// Runs lists the exercises of this chapter whose code Test runs
	// (from the chapter's blame file), the exercise itself included.
	Runs []int
	// Suspects, for a failure Unproved, lists the exercises you changed
	// whose code Test runs: the divergence is in one of them.
	Suspects []int
	// Passing of Checked of the scenarios and stress tests that check it
	// pass: a failing exercise may be partly right.
	Passing, Checked int

	tests []string // the scenarios and stress tests that check it
	// WaitsFor, for an exercise that passes, lists the exercises of this
	// chapter still stubbed that stop checks which also run its code: it
	// passes so far, and those checks judge it once they are done.
	WaitsFor []int
	// Located says how the failure this result shows was proved to come
	// from this exercise's code, if it was; the blame file then does not
	// re-judge it.
	Located Proof
	// Func is the function of yours the proof points at, when one does,
	// found as FuncProof says.
	Func      string
	FuncProof FuncProof
	// SwapRuns is how many runs in a row the check passed with the
	// reference's code of this exercise in its place (FlakyBySwap).
	SwapRuns int
	// SwapWanted is how many runs in a row would have made passing them
	// by luck unlikely, when the time a swap may take allowed fewer
	// (SwapRuns): the blame is then likely, not proved.
	SwapWanted int
}

// Proof is how a failure was put on one exercise's code.
type Proof int

const (
	NotLocated       Proof = iota
	ByFrames               // the frame that panicked, a leaked goroutine's loop, the racing access with no lock, or the literal that wrote the text that diverged, is in it
	OnlySuspect            // of the exercises the check runs, the only one not the reference's to the letter
	BySwap                 // with the reference's code of it in its place, the check passes
	Flaky                  // not located: the check passed when run again with your code unchanged
	FlakyBySwap            // the check fails only sometimes; with the reference's code of it in its place, it passed every one of SwapRuns runs
	Unsteady               // the check fails only sometimes, and failed too with the reference's code in place of every exercise: not your code
	Likely                 // the check fails only sometimes, and runs code of this exercise that checks failing every time were proved to diverge in
	WaitsLike              // left out of every run, as it would wait where a stuck check did, which was put on this exercise
	Unproved               // no swap of one exercise settled it; of those you changed that it runs, the one its frames name, else the last
	FailsOnReference       // it fails every time, and with the reference's code in place of every exercise too: not your exercises' code
	InGiven                // with the generated code of the functions outside the exercises you changed in place of yours, it passes
)

// bySwap says whether a swap proved it: the check passed, once or as
// often as it had to, with the reference's code of the exercise in place.
func (p Proof) bySwap() bool { return p == BySwap || p == FlakyBySwap }

// notYours says whether the check fails on the reference too, so that
// it counts against no exercise: now and then (Unsteady), or every time
// (FailsOnReference).
func (p Proof) notYours() bool { return p == Unsteady || p == FailsOnReference }

// settled says whether a check's culprit is found: by any proof, not
// merely marked flaky (confirm's Flaky, which the search must still take
// up) or not yet looked for.
func (p Proof) settled() bool { return p != NotLocated && p != Flaky }

func (p Proof) String() string {
	return [...]string{"not located", "by frames", "only suspect", "by swap", "flaky", "flaky, by swap", "unsteady on the reference", "likely", "waits like a stuck check", "unproved", "fails on the reference", "in your code outside the exercises"}[p]
}

// Chapter is one chapter's result.
type Chapter struct {
	Chapter   chapters.Chapter
	Exercises []Exercise
	Build     string // compiler output when the exercise copy does not build
	// Tests maps each scenario and stress test (its full test name) to
	// whether it passed.
	Tests map[string]bool
	// NotRun names the checks of Tests that never ran: the binary
	// stopped before them, or has no such test.
	NotRun map[string]bool
	// Only is Options.Only: when not 0, only that exercise's result is
	// whole; the others' checks mostly did not run.
	Only int
	// Reused is true when the result is the last check's, kept because
	// nothing it was judged on changed since (Options.Reuse).
	Reused bool `json:"-"`
	// Unreleased warns of each function of yours that reaches a return
	// still holding a lock it took (keepers), whatever the checks said:
	// a path no check takes (a not-ready branch, an early return) leaves
	// the lock held for good, and the next caller waits forever.
	Unreleased []KeptLock
	// Given lists the functions outside every exercise (the code the
	// copy gives) that your copy changed, "synctrack.go: maybeSynced": a
	// bug there can only be put on an exercise that runs it.
	Given []string
	// Unsteady holds the reports of the checks that failed on your code
	// and also on the reference, now and then (Proof Unsteady) or every
	// time (FailsOnReference): they count against no exercise, and the
	// runner says so.
	Unsteady []string
	// Outside holds the checks that fail on the code outside the
	// exercises you changed (Given; Proof InGiven): with the generated
	// code of it in place of yours, they pass.
	Outside []Failure
	// Prints sums, per exercise, your code of it as this check judged
	// it (the runner keeps those of the exercises that passed:
	// Options.PassedPrints).
	Prints map[int]string
}

// Failure is one check's name, as shown, and its report.
type Failure struct {
	Test, Report string
}

// Done counts the exercises that pass.
func (c *Chapter) Done() int {
	n := 0
	for _, e := range c.Exercises {
		if e.Status == Pass {
			n++
		}
	}
	return n
}

// Check runs the chapter's scenarios against the exercise copy. files, if
// not nil, stands in for files of the chapter for this run only (see
// gotest.Run); the tests of the tests use it to check the generated copy
// without touching yours.
func Check(c chapters.Chapter, files map[string][]byte) (*Chapter, error) {
	return CheckWith(c, Options{Files: files})
}

// Options change what CheckWith runs.
type Options struct {
	// PassedPrints are, per exercise, the sums of your code of it
	// (Chapter.Prints) at the last check it passed: the runner keeps
	// them. An exercise unchanged since is the last suspect the search
	// for a divergence swaps.
	PassedPrints map[int]string
	// Impl is the implementation the scenarios run against; empty means
	// scenario.Exercise, the learner's copy.
	Impl string
	// Files, if not nil, stands in for files for this run only (a go build
	// overlay, see gotest.Run). Paths are relative to the chapter and may
	// reach into other chapters ("../03-indexer/keys.go"): the learner's
	// runner uses that to build a chapter on the learner's own earlier
	// chapters.
	Files map[string][]byte
	// OffTrack names the exercises the learner is not doing (the deep
	// track's, on the core track): their code is the reference. A test
	// tagged with one of them also judges the last on-track exercise
	// whose code it runs, so a bug there cannot hide behind it.
	OffTrack func(id int) bool
	// Race runs the tests under the race detector: the learner's runner
	// always does, since every chapter has locks or goroutines.
	Race bool
	// EverySuspect keeps, among the suspects of a divergence, the
	// exercises whose code is the reference's to the letter, which
	// cannot have diverged. The tests of the tests set it: their copies
	// are the reference but for one planted bug, and the search for its
	// exercise must be proved on all the suspects a learner's copy has.
	EverySuspect bool
	// Focus, if set, is a -run pattern: only the tests it matches run.
	Focus string
	// FailFast starts no test after the first that fails: enough for the
	// tests of the tests, which ask whether a planted bug is caught and
	// put on its exercise, not for a learner, who is shown every failure.
	FailFast bool
	// RunStubbed runs the checks a stub of yours is known to stop too
	// (the blame file names the exercises each runs). The tests of the
	// tests set it when they measure the blame file, which must not read
	// itself. A learner's check leaves them out: each could only stop on
	// the stub, and in 07 each such stop is a crash that costs a new run
	// of the binary (check 07 2 with ten exercises still stubs: 47 runs,
	// 30 s).
	RunStubbed bool
	// Only, when not 0, runs just the checks that can judge that
	// exercise: those tagged with it, and those whose blame line names it
	// (they run its code). The other exercises' results are then partial.
	Only int
	// Say, if set, hears what the check is doing as it starts each part
	// (building, running, finding whose code diverged), and every few
	// seconds how far the run got or that the part is still going: a
	// check is never silent for more than two seconds.
	Say func(what string)
	// Reuse returns the result of the last whole check with the same
	// options when nothing it was judged on changed since (see reuse.go),
	// instead of checking again. Keep must be set too: only a kept check's
	// result is written down.
	Reuse bool
	// Keep builds the test binary into .cache/bin/ and keeps it, so that
	// a check of code that did not change since the last one skips the
	// link (see gotest.BuildAt), and writes a whole check's result down.
	// The learner's runner sets it; the tests of the tests, which check
	// many copies of one chapter at once, do not.
	Keep bool
}

// referenceRuns is a -skip pattern for the subtests named after another
// chapter that is not yours in this check (its files are not in files):
// 07 replays chapter 01's scenarios on your server with 01's Reflector
// beside client-go's. With 01's reference code that subtest judges your
// server no better than client-go's beside it, and 01's Reflector waits
// out its backoff on the real clock, the longest wait of the check; with
// your 01 (--mine) it judges your two chapters together, and runs.
func referenceRuns(c chapters.Chapter, files map[string][]byte) (string, error) {
	all, err := chapters.All(filepath.Dir(c.Dir))
	if err != nil {
		return "", err
	}
	yours := overlaidChapters(files)
	var names []string
	for _, other := range all {
		if other.Name != c.Name && !yours[other.Name] {
			names = append(names, regexp.QuoteMeta(other.Name))
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	// Level one matches any test, level two the chapter's name.
	return "/^(" + strings.Join(names, "|") + ")$", nil
}

// overlaidChapters names the other chapters whose files stand in the
// overlay ("../03-indexer/keys.go" gives 03-indexer): the learner's
// copies --mine builds on.
func overlaidChapters(files map[string][]byte) map[string]bool {
	names := map[string]bool{}
	for path := range files {
		if rest, ok := strings.CutPrefix(path, "../"); ok {
			if dir, _, ok := strings.Cut(rest, "/"); ok {
				names[dir] = true
			}
		}
	}
	return names
}

// keptBinary is where a chapter's test binary is kept between checks.
func keptBinary(c chapters.Chapter, race bool) string {
	name := c.Name
	if race {
		name += "-race"
	}
	return filepath.Join(filepath.Dir(c.Dir), ".cache", "bin", name, "chapter.test")
}

// Warm starts compiling, in the background, what chapter c's tests import,
// as a check will build them (race: under the race detector), unless a
// check already built them; started says whether it did. A check stops it
// when it begins (what it compiled by then is kept).
func Warm(c chapters.Chapter, race bool) (started bool, err error) {
	bin := keptBinary(c, race)
	if _, err := os.Stat(bin); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return false, err
	}
	flags := []string{"-tags=" + scenario.StandInTag}
	if race {
		flags = append(flags, "-race")
	}
	return true, gotest.Warm(c.Dir, warmMarker(c, race), flags...)
}

// StopWarm stops the build Warm started for c, if it still runs.
func StopWarm(c chapters.Chapter, race bool) {
	gotest.StopWarm(warmMarker(c, race))
}

// warmMarker is the file that says Warm's build of c runs.
func warmMarker(c chapters.Chapter, race bool) string {
	return keptBinary(c, race) + ".warm"
}

// say tells opts.Say, if set.
// sayFailed names the checks that failed, before any time goes into
// finding whose code diverged: the headline comes first (trial Q waited
// 20 to 100 s for a failing check's report, where a passing one took 6).
func (opts Options) sayFailed(outcomes map[string]*outcome, waiting map[string]int, runsAStub func(test string) bool) {
	var failed []string
	for test, o := range outcomes {
		// A stub's panic is no news, nor a check that runs a stub (trial
		// U read "failed: TestHTTPErrorsBecomeStatusErrors" as its
		// exercise 3 failing, for a test that waits for exercise 6).
		if _, stubbed := waiting[test]; !stubbed && o.stub == 0 && !runsAStub(test) {
			failed = append(failed, shownName(test))
		}
	}
	if len(failed) == 0 {
		return
	}
	slices.Sort(failed)
	more := ""
	if len(failed) > 3 {
		more = fmt.Sprintf(" and %d more", len(failed)-3)
		failed = failed[:3]
	}
	opts.say("failed: %s%s", strings.Join(failed, ", "), more)
}

// runsAStub says whether a test runs the code of an exercise still
// stubbed: one the blame file says it runs, or any, for a test it does
// not know (culprits reads the same).
func runsAStub(test string, blame Blame, stubbed map[int]bool) bool {
	ids, known := blame[test]
	if !known {
		for _, s := range stubbed {
			if s {
				return true
			}
		}
		return false
	}
	return slices.ContainsFunc(ids, func(id int) bool { return stubbed[id] })
}

func (opts Options) say(format string, args ...any) {
	if opts.Say != nil {
		opts.Say(fmt.Sprintf(format, args...))
	}
}

// CheckWith is Check with the implementation and overlay chosen by opts.
//
// On your copy (the default), the chapter's test binary is built once
// with your files standing in for the reference package (standIn), so
// every test that judges the reference judges your code, and it is
// built with -race when opts.Race. Each failing test is then put on the
// exercise whose code made it fail (see culprits), and says why.
func CheckWith(c chapters.Chapter, opts Options) (*Chapter, error) {
	impl := opts.Impl
	if impl == "" {
		impl = scenario.Exercise
	}
	exercises, err := exgen.Exercises(c.Dir)
	if err != nil {
		return nil, err
	}
	count := opts.Say // where the tracker says how far the run got
	var hb *heartbeat
	if opts.Say != nil {
		hb = startHeartbeat(opts.Say)
		defer hb.stop()
		opts.Say, count = hb.Say, hb.Count
	}
	env := []string{scenario.EnvImpl + "=" + impl}
	var s *standIn
	if impl == scenario.Exercise {
		if s, err = newStandIn(filepath.Dir(c.Dir), c, opts.Files); err != nil {
			return nil, err
		}
		env = []string{scenario.EnvImpl + "=" + scenario.Reference, scenario.EnvStandIn + "=1"}
	} else {
		s = &standIn{dir: c.Dir, files: opts.Files, yours: map[string]string{}}
	}
	k, err := newCode(c, s)
	if err != nil {
		return nil, err
	}
	k.say = opts.say
	k.idle = idleFor(c.RealClock())
	k.everySuspect = opts.EverySuspect
	k.asked = opts.Only
	k.passedPrints = opts.PassedPrints
	if k.notYours, err = referenceRuns(c, opts.Files); err != nil {
		return nil, err
	}
	flags := []string{"-vet=off"} // make test vets the code; a check compiles a new stub set each time
	if impl == scenario.Exercise {
		flags = append(flags, "-tags="+scenario.StandInTag)
	}
	if opts.Race {
		flags = append(flags, "-race")
	}
	keptAt, key := keptResultFile(c, opts), ""
	if opts.Keep {
		key = resultKey(c, opts, flags, k.notYours, exercises)
	}
	if opts.Reuse {
		if res := reuse(keptAt, key); res != nil {
			opts.say("nothing changed since the last check: its result stands")
			return res, nil
		}
	}
	out := &Chapter{Chapter: c, Only: opts.Only}
	stopped, warmed := gotest.StopWarm(warmMarker(c, opts.Race))
	if stopped {
		opts.say("stopped the build that start began in the background: this check builds what it had left")
	}
	how := ""
	if opts.Race {
		how = ", under the race detector"
		if _, err := os.Stat(keptBinary(c, true)); err != nil && !warmed {
			how += " (the first time takes minutes)" // the dependencies too
		}
	}
	opts.say("building the tests with your copy%s", how)
	kept := ""
	if opts.Keep {
		path := keptBinary(c, opts.Race)
		if unlock, ok := gotest.Lock(path); ok {
			defer unlock()
			kept = path
		}
	}
	bin, build, err := gotest.BuildAt(kept, c.Dir, s.files, flags...)
	if err != nil {
		return nil, err
	}
	if bin == nil {
		out.Build = s.translate(build)
		for _, ex := range exercises {
			out.Exercises = append(out.Exercises, Exercise{Exercise: ex, Status: Fail, Report: out.Build})
		}
		keep(keptAt, key, out)
		return out, nil
	}
	defer bin.Remove()
	k.bin = bin
	quiet := quietFor(c.RealClock())
	blame, err := LoadBlame(c.Dir)
	if err != nil {
		return nil, err
	}
	top, err := bin.TopLevel()
	if err != nil {
		return nil, err
	}
	k.plainChecks = plainChecks(top)
	run := opts.Focus
	var only []string // the checks check NN N runs; nil: all
	if opts.Only > 0 {
		only, err = judging(c.Dir, blame, opts.Only)
		if err != nil {
			return nil, err
		}
		if len(only) > 0 {
			// The plain tests too: the blame file names scenarios and
			// stress tests only, and check NN finds whose code made a
			// plain test fail, so check NN N must run them as check NN does.
			only = append(only, k.plainChecks...)
			run = runPattern(only)
		}
	}
	opts.say("running the tests")
	tr := newTracker(count)
	bin.OnTest, bin.OnRun, bin.OnStop = tr.ended, tr.run, tr.stop
	if hb != nil {
		hb.detail(tr.still) // for the first run only: the reruns say what they run
	}
	if count != nil {
		// A count, not a part: the heartbeat still names the part.
		bin.OnStuck = func(tests []string, after time.Duration) {
			count(fmt.Sprintf("%s made no progress for %s: stopping it to see where it waits", commaNames(tests), after))
		}
	}
	extra := []string{}
	if opts.FailFast {
		extra = append(extra, "-failfast")
	}
	// A suspect is an exercise whose code may have diverged: on your
	// track, or off it but changed; never one that is the reference's to
	// the letter.
	same, stubbed, err := k.asReference(exercises)
	if err != nil {
		return nil, err
	}
	k.printsNow = k.prints(exercises)
	out.Prints = k.printsNow
	expected := only
	if expected == nil {
		if expected, err = allChecks(c.Dir, blame); err != nil {
			return nil, err
		}
	}
	skip, waiting := k.notYours, map[string]int{}
	if !opts.RunStubbed {
		waiting = stoppedByStubs(expected, blame, stubbed)
		if len(waiting) > 0 {
			skip = strings.Trim(skip+"|"+skipPattern(slices.Sorted(maps.Keys(waiting))), "|")
		}
	}
	res, err := runTests(bin, env, quiet, k.idle, run, skip, !opts.RunStubbed, k.hangsLike(blame), extra...)
	if hb != nil {
		hb.detail(nil)
	}
	if err != nil {
		return nil, err
	}
	for test, id := range waiting {
		// Judged as if run: the stub's panic is all it would have said.
		res.Passed[test] = false
		res.Output[test] = fmt.Sprintf("  Not run:  it needs %s exercise %d, which is not done yet (this check runs its code).\n", c.Name, id)
	}
	markNotRun(res, expected, opts.FailFast, top)
	tagged, err := checksByExercise(c.Dir, res.Result, blame)
	if err != nil {
		return nil, err
	}
	if opts.OffTrack != nil {
		for id, tests := range tagged {
			if !opts.OffTrack(id) {
				continue
			}
			for _, test := range tests {
				if on := lastOnTrack(blame[test], opts.OffTrack); on != 0 {
					tagged[on] = append(tagged[on], test)
				}
			}
		}
	}
	for _, tests := range tagged {
		sort.Strings(tests)
	}
	outcomes := k.outcomes(res, quiet)
	if err := k.misattributed(outcomes, res, blame, env, quiet); err != nil {
		return nil, err
	}
	opts.sayFailed(outcomes, waiting, func(test string) bool { return runsAStub(test, blame, stubbed) })
	onTrack := func(id int) bool { return opts.OffTrack == nil || !opts.OffTrack(id) }
	suspect := func(id int) bool {
		if same[id] {
			return opts.EverySuspect && onTrack(id)
		}
		return true
	}
	if err := k.culprits(outcomes, blame, tagged, onTrack, suspect, func(id int) bool { return stubbed[id] }, env, quiet, flags); err != nil {
		return nil, err
	}
	for t, o := range outcomes {
		if o.passedAlone {
			// It passes: the stuck check beside it is what fails.
			res.Passed[t] = true
			delete(outcomes, t)
		}
	}
	out.Tests, out.NotRun = res.Passed, res.NotRun
	for _, ex := range exercises {
		e := judge(c.Name, ex, tagged[ex.ID], outcomes, blame)
		// Its checks: those tagged with it, and those that diverged in
		// its code wherever they are tagged.
		e.tests = slices.Clone(tagged[ex.ID])
		for t, o := range outcomes {
			if o.stub == 0 && o.culprit == ex.ID && !slices.Contains(e.tests, t) {
				e.tests = append(e.tests, t)
			}
		}
		sort.Strings(e.tests)
		ran := true
		for _, t := range e.tests {
			_, seen := res.Passed[t]
			ran = ran && seen
			if outcomes[t].leftOut() {
				continue // never run: neither passing nor failing (LeftOut)
			}
			e.Checked++
			if res.Passed[t] {
				e.Passing++
			}
		}
		if e.Status == Pass {
			e.WaitsFor = waitingChecks(ex.ID, c.Name, outcomes, blame)
		}
		if e.Status == Pass && !ran && opts.Only > 0 && ex.ID != opts.Only {
			// Its checks did not all run (check NN N runs N's): not
			// known to pass.
			e.Status = Unchecked
		}
		out.Exercises = append(out.Exercises, e)
	}
	blameBlockers(c.Name, out.Exercises, blame, res.Passed, onTrack)
	for i := range out.Exercises {
		if e := &out.Exercises[i]; e.Test != "" {
			e.Runs = blame[e.Test]
		}
	}
	out.Unreleased = k.unreleased()
	out.Given = k.givenChanged()
	for _, t := range slices.Sorted(maps.Keys(outcomes)) {
		switch o := outcomes[t]; {
		case o.located.notYours():
			out.Unsteady = append(out.Unsteady, o.report)
		case o.located == InGiven:
			out.Outside = append(out.Outside, Failure{Test: shownName(t), Report: o.report})
		}
	}
	keep(keptAt, key, out)
	return out, nil
}

// waitingChecks lists the exercises whose stubs stop a check that runs
// the code of exercise id (by the blame file; a test it does not know may
// run any), so that check could not judge id yet.
func waitingChecks(id int, chapter string, outcomes map[string]*outcome, blame Blame) []int {
	var ids []int
	for test, o := range outcomes {
		if o.stub == 0 || o.stub == id || o.stubChapter != chapter || slices.Contains(ids, o.stub) {
			continue
		}
		if runs, known := blame[test]; !known || slices.Contains(runs, id) {
			ids = append(ids, o.stub)
		}
	}
	slices.Sort(ids)
	return ids
}

// allChecks lists the checks a full run includes: every scenario file,
// and every test the blame file names.
func allChecks(chapterDir string, blame Blame) ([]string, error) {
	tags, err := ScenarioTags(chapterDir)
	if err != nil {
		return nil, err
	}
	var tests []string
	for test := range tags {
		tests = append(tests, test)
	}
	for test := range blame {
		if _, ok := tags[test]; !ok {
			tests = append(tests, test)
		}
	}
	sort.Strings(tests)
	return tests, nil
}

// plainChecks is, of the binary's top-level tests, those that are checks
// of their own (IsCheck), not the end-to-end ones: the plain tests, whose
// code the blame file does not measure (only scenarios and stress tests
// are).
func plainChecks(top []string) []string {
	return slices.DeleteFunc(slices.Clone(top), func(test string) bool { return !isPlain(test) || strings.HasPrefix(test, "TestE2E") })
}

// stoppedByStubs is, among the checks expected to run, those the blame
// file says run the code of an exercise still stubbed: each to the first
// such exercise (the one culprits would say it waits for).
func stoppedByStubs(expected []string, blame Blame, stubbed map[int]bool) map[string]int {
	out := map[string]int{}
	for _, test := range expected {
		if i := slices.IndexFunc(blame[test], func(id int) bool { return stubbed[id] }); i >= 0 {
			out[test] = blame[test][i]
		}
	}
	return out
}

// markNotRun fails each expected check that has no result: it never ran
// (the binary stopped before it, or the test it belongs to, such as
// TestScenarios, failed in its own setup), and a check that never ran is
// not known to pass. One that skipped itself, or whose parent did, ran;
// one whose top-level test the binary does not have (top lists them) was
// never to run. Under -failfast the run stops at the first failure on
// purpose.
func markNotRun(res *runs, expected []string, failFast bool, top []string) {
	if failFast && len(res.Failed()) > 0 {
		return
	}
	for _, test := range expected {
		if _, ok := res.Passed[test]; ok || skipped(res.Skipped, test) {
			continue
		}
		name, _, _ := strings.Cut(test, "/")
		if !slices.Contains(top, name) {
			continue
		}
		res.Passed[test], res.NotRun[test] = false, true
	}
}

// skipped reports whether test, or a test it belongs to, skipped itself.
func skipped(skips map[string]bool, test string) bool {
	for name := range lineage(test) {
		if skips[name] {
			return true
		}
	}
	return false
}

// lineage yields test, then each test it belongs to, innermost first:
// "TestScenarios/add/step", "TestScenarios/add", "TestScenarios".
func lineage(test string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for name := test; yield(name); {
			i := strings.LastIndex(name, "/")
			if i < 0 {
				return
			}
			name = name[:i]
		}
	}
}

// lastOnTrack is the highest exercise of ids not off the track, or 0.
func lastOnTrack(ids []int, offTrack func(int) bool) int {
	last := 0
	for _, id := range ids {
		if !offTrack(id) && id > last {
			last = id
		}
	}
	return last
}

// ScenarioTags maps each scenario file's subtest name
// ("TestScenarios/resync") to the exercises its header names.
func ScenarioTags(chapterDir string) (map[string][]int, error) {
	paths, err := filepath.Glob(filepath.Join(chapterDir, "testdata", "scenarios", "*.txt"))
	if err != nil {
		return nil, err
	}
	tags := map[string][]int{}
	for _, p := range paths {
		f, err := scenario.ReadFile(p)
		if err != nil {
			return nil, err
		}
		tags["TestScenarios/"+strings.TrimSuffix(filepath.Base(p), ".txt")] = f.Exercises
	}
	return tags, nil
}

// scenariosByExercise maps an exercise id to the subtest names of the
// scenario files whose header names it.
func scenariosByExercise(chapterDir string) (map[int][]string, error) {
	tags, err := ScenarioTags(chapterDir)
	if err != nil {
		return nil, err
	}
	byID := map[int][]string{}
	for test, ids := range tags {
		for _, id := range ids {
			byID[id] = append(byID[id], test)
		}
	}
	for _, tests := range byID {
		sort.Strings(tests)
	}
	return byID, nil
}

// cleanReport keeps the scenario runner's report and drops go test's
// framing ("--- FAIL", "run.go:107:").
func cleanReport(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") || regexp.MustCompile(`^\w+\.go:\d+:\s*$`).MatchString(t) || klogLine.MatchString(t) {
			continue
		}
		keep = append(keep, strings.TrimPrefix(line, "        "))
	}
	return strings.Join(keep, "\n")
}

// Summary is a one-line account of a chapter, for CI logs.
func (c *Chapter) Summary() string {
	return fmt.Sprintf("%s: %d/%d exercises pass", c.Chapter.Name, c.Done(), len(c.Exercises))
}

// commaNames lists tests for a progress line, innermost only (a
// scenario, not TestScenarios around it): the first, and how many more.
func commaNames(tests []string) string {
	var inner []string
	for _, t := range tests {
		if !slices.ContainsFunc(tests, func(u string) bool { return strings.HasPrefix(u, t+"/") }) {
			inner = append(inner, t)
		}
	}
	if len(inner) == 1 {
		return shownName(inner[0])
	}
	return fmt.Sprintf("%s and %d more", shownName(inner[0]), len(inner)-1)
}

// tracker follows a run's checks (gotest.Binary's OnRun, OnStop and
// OnTest): it tells say, at most every few seconds, how many have ended
// and how many failed, and names those still running for the heartbeat
// (trial Y read a minute of bare "still running the tests").
type tracker struct {
	say          func(string)
	mu           sync.Mutex
	last         time.Time
	done, failed int
	running      map[string]bool
}

func newTracker(say func(string)) *tracker {
	return &tracker{say: say, last: time.Now(), running: map[string]bool{}}
}

func (c *tracker) run(test string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running[test] = true
}

func (c *tracker) stop(test string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.running, test)
}

func (c *tracker) ended(test string, passed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.running, test)
	if !IsCheck(test) || c.say == nil {
		return
	}
	c.done++
	if !passed {
		c.failed++
	}
	if time.Since(c.last) > 3*time.Second {
		c.last = time.Now()
		c.say(fmt.Sprintf("%d tests done, %d failed so far", c.done, c.failed))
	}
}

// still names the checks running now, for "still running the tests":
// ", on TestStress/x and 2 more", or "" when none is.
func (c *tracker) still() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for t := range c.running {
		if IsCheck(t) {
			names = append(names, t)
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	return ", on " + commaNames(names)
}
