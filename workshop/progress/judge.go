package progress

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/gotest"
	"example.com/walkthrough/workshop/leak"
	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/wrap"
)

// outcome is what one failing check says: either it stopped at a stub
// (an exercise not done yet), or it diverged, with why, and whose code
// made it diverge.
type outcome struct {
	test        string
	stubChapter string // the chapter of the stub it stopped at, if it did
	stub        int
	report      string // for a person
	owners      []int  // the exercises its evidence (stack frames) points at
	// proof says whether owners[0] settles the culprit: the frame that
	// panicked, or the loop of a leaked goroutine, is the code to fix; a
	// race's two accesses and a stuck goroutine's wait are only suspects
	// (the lock missing may be on either side; the Unlock missing is not
	// where the others wait), unless one function of yours keeps the lock
	// or takes it twice (lockCulprit).
	proof bool
	race  bool // a race report is part of its evidence
	// raceOnly: the race is all it failed on (no step diverged, nothing
	// crashed or stuck): it may only have run beside the racing code.
	raceOnly bool
	culprit  int // the exercise whose code made it diverge, once known
	// suspects are the exercises whose code it may have diverged in: the
	// ones its frames name, then those it runs, never one that is the
	// reference's to the letter.
	suspects []int
	located  Proof // how culprit was proved, if it was
	notRun   bool  // it never ran: the binary stopped before it
	stuck    bool  // it was stopped for making no progress
	hung     bool  // left out: it would wait where a stuck test did (HungOn)
	// follows is the stuck check a hung one was left out beside in
	// confirm's run too: never run, it is not known to fail on its own,
	// and is put where that check is, not searched (trial K's
	// add-after-never-waits-for-the-loop, which passes, was swapped and
	// blamed on the first exercise whose swap let it run).
	follows string
	// passedAlone: left out of the first run (hung), it passed every run
	// on its own (confirm): it fails only beside the check that got stuck.
	passedAlone bool
	took        time.Duration // how long its first run took
	// failRate is the share of its runs on your code as it is that
	// failed (confirm): 1 for a check that fails every time.
	failRate float64
	swapRuns int // runs in a row per swap it passed to be located (FlakyBySwap)
	// swapWanted: the runs in a row that would prove it, when swapBudget
	// allowed fewer (slow checks, whose failure rate is known roughly).
	swapWanted int
	// fn is the function of yours the proof points at ("Cache.start"),
	// when one does: the frame that panicked, the access with no lock,
	// the literal that wrote the text; or the one a swap of function
	// bodies found (narrow), as fnProof says.
	fn      string
	fnProof FuncProof
}

// LeakCheck is the name a leak is judged under: goroutines your code left
// running once every test passed (workshop/leak, from each chapter's
// TestMain). It is no test of its own, so it has no line in the blame
// file: the frames of the leaked goroutines say whose code started them.
const LeakCheck = "TestMain (leak check)"

var (
	// notDone is how the scenario runner reports a stub it recovered.
	notDone = regexp.MustCompile(`needs (\S+) exercise (\d+), which is not done yet`)
	// crashNotDone is a stub's panic that no test recovered: one raised in
	// a goroutine of the code under test (an informer's, a queue's), which
	// stops the whole test binary (todo.NotDone's Error text).
	crashNotDone = regexp.MustCompile(`^panic: (\S+) exercise (\d+) is not done yet`)
)

// newCode reads which exercise each function of the chapter belongs to.
func newCode(c chapters.Chapter, s *standIn) (*code, error) {
	pkg, err := exgen.ModulePath(c.Dir)
	if err != nil {
		return nil, err
	}
	gen, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return nil, err
	}
	done, err := exgen.Generate(c.Dir, func(int) bool { return false })
	if err != nil {
		return nil, err
	}
	exercises, err := exgen.Exercises(c.Dir)
	if err != nil {
		return nil, err
	}
	funcs := map[string]int{}
	for _, e := range exercises {
		parts, err := exgen.ExerciseParts(gen, e.ID)
		if err != nil {
			return nil, err
		}
		for _, keys := range parts {
			for _, key := range keys {
				funcs[key] = e.ID
			}
		}
	}
	return &code{s: s, pkg: pkg, funcs: funcs, done: done, stubs: gen}, nil
}

// outcomes reads every failing check of a run (and a leak, if every test
// passed but the binary found one).
func (k *code) outcomes(res *runs, quiet time.Duration) map[string]*outcome {
	out := map[string]*outcome{}
	for test, passed := range res.Passed {
		if passed || !IsCheck(test) {
			continue
		}
		out[test] = k.outcome(test, res, quiet)
	}
	if res.Leaks != "" {
		after := "every test had passed"
		for _, passed := range res.Passed {
			if !passed {
				after = "the tests had ended" // trial K read "had passed" over ten failing checks
				break
			}
		}
		text, owners := k.leaked(res.Leaks, after)
		out[LeakCheck] = &outcome{test: LeakCheck, report: k.leakLine() + indentReason(text), owners: owners, proof: len(owners) > 0}
	}
	return out
}

func (k *code) outcome(test string, res *runs, quiet time.Duration) *outcome {
	o := &outcome{test: test, took: res.Took[test]}
	_, ran := res.Output[test]
	// A check's subtests say why it failed: their output is its output.
	// All of a plain test's (a fuzz test's seeds, a table's cases); the
	// failed ones of a check that replays scenario files
	// (TestScenarios/classic/<file>: the 04 trials read "failed without
	// saying why" where the diff was one level down).
	output := res.Output[test]
	var subs []string
	for t := range res.Output {
		if strings.HasPrefix(t, test+"/") && (!isScenario(test) || !res.Passed[t]) {
			subs = append(subs, t)
		}
	}
	sort.Strings(subs)
	for _, t := range subs {
		output += res.Output[t]
	}
	output = k.condensePanicLogs(output)
	if m := notDone.FindStringSubmatch(output); m != nil {
		o.stubChapter, o.stub = m[1], atoi(m[2])
		o.report = k.s.translate(cleanReport(output))
		return o
	}
	crash := res.CrashOf[test]
	if !ran && crash == "" {
		// A check that never ran is stopped by the crash of a test it
		// belongs to (a setup runTests skipped), not by whichever crash
		// came first.
		crash = res.Crash
		if res.NotRun[test] {
			crash = ancestorCrash(res.CrashOf, test)
		}
	}
	if m := crashNotDone.FindStringSubmatch(crash); m != nil {
		o.stubChapter, o.stub = m[1], atoi(m[2])
		o.report = crashReport(k.s.translate(cleanReport(output)), m[1], m[2], ran)
		return o
	}
	var b strings.Builder
	said := false // a reason is written, beyond the test's name
	if cleaned := cleanReport(output); scenario.StepReport.MatchString(cleaned) {
		loc := scenario.StepReport.FindStringIndex(cleaned)
		b.WriteString(strings.TrimRight(k.s.translate(cleaned[loc[0]:]), "\n") + "\n")
		said = true
	} else if test != LeakCheck {
		b.WriteString(k.testLine(test))
	}
	add := func(text string, owners []int) {
		if text != "" {
			b.WriteString(indentReason(text))
			o.owners = append(o.owners, owners...)
			said = true
		}
	}
	stuck := false
	for _, t := range res.Stuck {
		stuck = stuck || t == test
	}
	o.stuck = stuck
	if i := strings.Index(output, "  Panic:"); i >= 0 && !stuck {
		// A step that panicked in your code: the scenario's report
		// shows the frames.
		mine := k.yours(parseFrames(strings.Split(output[i:], "\n")))
		o.owners = append(o.owners, k.owners(mine)...)
		o.proof = len(o.owners) > 0 && !k.victimPanic(output[i:])
		if note := k.deliberateNote(output[i:]); note != "" {
			add(note, nil)
		} else if strings.Contains(output[i:], nilDereference) {
			add(wrap.Label("Why:      ", "a nil pointer was used here. The code that should have set it (a constructor, a field "+
				"left unset) is as likely the bug as the code that used it.", reportWidth-2)+"\n", nil)
		}
		// A victim's frame names no function: narrow finds it by swaps.
		for _, f := range mine {
			if k.owner(f) != 0 && o.proof {
				o.fn = funcKey(f.fn, k.pkg)
				break
			}
		}
	}
	switch {
	case stuck:
		took := quiet
		if d := res.StuckFor[test]; d > 0 {
			took = d
		}
		text, owners, culprit := k.stuck(test, output, res.DumpOf[test], took.String())
		add(text, owners)
		// The one function of yours that keeps the lock, or takes it
		// twice, is the proof; the waiters alone are suspects.
		o.proof, o.fn = culprit != "", cmp.Or(culprit, o.fn)
	case res.CrashOf[test] != "":
		if strings.Contains(res.CrashOf[test], "blocked goroutines remain") {
			// The test said why before its bubble ended with goroutines
			// still waiting: its words first, the leak after (trial A's
			// WaitForCacheSync that ignored stop showed only the leak).
			add(k.saidBeforeCrash(output), nil)
		}
		text, owners, culprit := k.crashed(res.CrashOf[test], res.DumpOf[test])
		add(text, owners)
		// A deadlock's frames show who waits, a concurrent map write who
		// wrote, and an unlock of an unlocked mutex whose Unlock found it
		// free, not who forgot the lock or let it go: suspects, not
		// proof, unless one function of yours keeps the lock, takes it
		// twice or releases its caller's.
		crash := res.CrashOf[test]
		bySymptom := strings.Contains(crash, "deadlock") || strings.Contains(crash, "concurrent map") || unlockedFree(crash) || k.victimPanic(crash)
		o.proof = len(o.owners) > 0 && !bySymptom || culprit != ""
		o.fn = cmp.Or(culprit, o.fn)
	case res.HungOn[test] != "":
		stuck := res.HungOn[test]
		text, owners, culprit := k.hungReport(test, stuck, res.DumpOf[stuck])
		add(text, owners)
		o.hung, o.proof, o.fn = true, culprit != "", culprit
	case !ran:
		o.notRun = true
		add(k.notRun(test, res, crash), nil)
	}
	if text, owners, fn := k.raced(output); text != "" {
		o.raceOnly = !said && ran
		add(text, nil)
		if fn != "" {
			// The function that took no lock is the proof, ahead of a
			// crash's frames: the 03 trial's index updated after Update
			// let go of the lock crashed on a concurrent map write in
			// exercise 5's code, called by exercise 3's, which held no
			// lock there.
			o.owners = append(slices.Clone(owners), o.owners...)
		} else {
			o.owners = append(o.owners, owners...)
		}
		o.race, o.proof = true, fn != ""
		o.fn = cmp.Or(fn, o.fn)
	}
	if dump, ok := leakReported(output); ok && !said {
		// A test that runs itself again in a process of its own (07's
		// fan-out test) fails with that process's output, leak check
		// included: a dump to read, not to print raw.
		add(k.leaked(dump, "this test had passed, in a process of its own"))
	}
	if !said {
		add(k.plain(output))
	}
	if said && !stuck && !o.race && len(o.owners) == 0 && res.CrashOf[test] == "" {
		// A text that diverged, written by a literal of yours alone: in
		// a scenario's report, or anywhere a plain test printed (whole:
		// the reason above may be shortened).
		text := b.String()
		if !isScenario(test) {
			text = withoutEchoes(output)
		}
		if found, ids := k.textOwners(text); len(ids) == 1 {
			add(k.wroteIt(found), ids)
			o.proof, o.fn = true, found[0].fn
		}
	}
	if !said {
		b.WriteString("  Failed:   the test failed without saying why (no output).\n")
	}
	o.report = b.String()
	return o
}

// testMessage is a line a test wrote with t.Error or t.Fatal.
var testMessage = regexp.MustCompile(`^\s*\w+_test\.go:\d+: `)

// saidBeforeCrash is what a test wrote (t.Error, t.Fatal) before the
// panic that ended its binary, as a plain failure; "" if it wrote nothing.
func (k *code) saidBeforeCrash(output string) string {
	before, _, _ := strings.Cut(output, "\npanic: ")
	lines := strings.Split(before, "\n")
	first := slices.IndexFunc(lines, testMessage.MatchString)
	if first < 0 {
		return ""
	}
	text, _ := k.plain(strings.Join(lines[first:], "\n"))
	return text
}

// leakReported finds, in a test's output, the goroutine dump of the leak
// check of another process of the test binary (workshop/leak's report),
// with the indentation go test gave the test's message taken off.
func leakReported(output string) (string, bool) {
	_, dump, ok := strings.Cut(output, leak.Header)
	if !ok {
		return "", false
	}
	lines := strings.Split(dump, "\n")
	for i, line := range lines {
		lines[i] = strings.TrimSpace(line)
	}
	return strings.Join(lines, "\n"), true
}

// victimPanic reports whether a panic's frames may well be the victim's,
// not the culprit's: a send on a closed channel, or a second close, panics
// in the sender or the second closer, while the bug is as often the close
// that came first, or the code that left the channel reachable after it
// (the 04 trial's removed listener left in the processor's map: its add
// panicked in exercise 2 for exercise 5's removal). Its frames are
// suspects, and a swap decides.
//
// So is a panic the reference raises on purpose, a check of an invariant
// (04's "synctrack: negative counter"): its frame is where the broken
// invariant was found, not where it was broken (trial G's add that never
// started the tracker failed a correct exercise 3 by finished's panic).
//
// And a nil pointer dereference: the code that used the nil is as often
// right as the code that should have set it (trial H's constructor that
// left the Cond's Locker nil was put on Pop, which waited on it).
func (k *code) victimPanic(text string) bool {
	if strings.Contains(text, "send on closed channel") || strings.Contains(text, "close of closed channel") ||
		strings.Contains(text, nilDereference) {
		return true
	}
	return k.deliberate(text) != ""
}

// nilDereference is how the runtime's panic for a nil pointer reads.
const nilDereference = "nil pointer dereference"

// deliberate is the function of the reference that raises, on purpose,
// the panic text speaks of; "".
func (k *code) deliberate(text string) string {
	for msg, fn := range k.deliberatePanics() {
		if strings.Contains(text, msg) {
			return fn
		}
	}
	return ""
}

// deliberateNote says that a panic is one the reference raises on purpose:
// where it is raised found a broken invariant, which callers broke (trial
// G's learner looked in finished for the negative counter of an add that
// never started the tracker).
func (k *code) deliberateNote(text string) string {
	fn := k.deliberate(text)
	if fn == "" {
		return ""
	}
	return wrap.Label("Why:      ", fmt.Sprintf("the reference's %s panics with this too, on purpose: it checks a rule "+
		"that its callers broke. Look at the code that calls it, not where it panics.", fn), reportWidth-2) + "\n"
}

// deliberatePanics is the texts the reference panics with on purpose (the
// string literals passed to panic), each with its function, read once per
// check.
func (k *code) deliberatePanics() map[string]string {
	k.panicsOnce.Do(func() {
		k.panics = map[string]string{}
		k.eachReferenceFile(func(src []byte) {
			_, decls := funcDecls(src)
			for _, d := range decls {
				name := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) > 0 {
					name = typeName(d.Recv.List[0].Type) + "." + name
				}
				ast.Inspect(d.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok || len(call.Args) != 1 {
						return true
					}
					if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "panic" {
						return true
					}
					if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if text, err := strconv.Unquote(lit.Value); err == nil && len(text) >= 12 {
							k.panics[text] = name
						}
					}
					return true
				})
			}
		})
	})
	return k.panics
}

// ancestorCrash is the crash that stopped the innermost test that test
// belongs to, if one did.
func ancestorCrash(crashOf map[string]string, test string) string {
	for name := range lineage(test) {
		if name != test && crashOf[name] != "" {
			return crashOf[name]
		}
	}
	return ""
}

// notRun says why a check has no result of its own: the binary stopped
// before it, or the test it belongs to failed before it ran.
func (k *code) notRun(test string, res *runs, crash string) string {
	switch {
	case crash != "":
		return fmt.Sprintf("Not run:  the test binary stopped before this test, at\n          %s\n", crash)
	case len(res.Stuck) > 0:
		return fmt.Sprintf("Not run:  the test binary was stopped before this test: %s made no progress.\n", shownName(strings.Join(res.Stuck, ", ")))
	}
	if parent, _, ok := strings.Cut(test, "/"); ok {
		if passed, ran := res.Passed[parent]; ran && !passed {
			text, _ := k.plain(res.Output[parent])
			return fmt.Sprintf("Not run:  %s failed before this test ran.\n%s", parent, text)
		}
	}
	return "Not run:  the test binary ended without running this test.\n"
}

// testLine names a failing test that is not a scenario, and its file.
func (k *code) testLine(test string) string {
	top, _, _ := strings.Cut(test, "/")
	where := ""
	paths, _ := filepath.Glob(filepath.Join(k.s.dir, "*_test.go"))
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err == nil && (bytes.Contains(src, []byte("func "+top+"(")) || bytes.Contains(src, []byte("func "+top+"["))) {
			where = fmt.Sprintf(" (%s/%s)", filepath.Base(k.s.dir), filepath.Base(p))
			break
		}
	}
	return fmt.Sprintf("%s failed%s:\n", shownName(test), where)
}

// shownName is a test's name as you should read it: your copy runs in
// the reference's place, so the subtests a test names "reference" (its
// run on the chapter's own package, beside "client-go") run your code.
// A stress test's exercise-N level, the last exercise it needs, is left
// out too: the 02 trial read "TestStress/exercise-3/..." above a blame on
// exercise 2 as a contradiction.
func shownName(test string) string {
	parts := strings.Split(test, "/")
	var shown []string
	for i, p := range parts {
		switch {
		case i > 0 && p == scenario.Reference:
			p = "yours"
		case i == 1 && parts[0] == "TestStress" && stressLevel.MatchString(p):
			continue
		}
		shown = append(shown, p)
	}
	return strings.Join(shown, "/")
}

// stressLevel is the level scenario.Stress puts a stress test under.
var stressLevel = regexp.MustCompile(`^exercise-[0-9]+$`)

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// checksByExercise maps each exercise to the checks that judge it: a
// scenario file by its header, a stress test by its name, and any other
// test by the last exercise whose code it runs (its blame line), the
// exercise that completes what it needs.
func checksByExercise(chapterDir string, res *gotest.Result, blame Blame) (map[int][]string, error) {
	tagged, err := scenariosByExercise(chapterDir)
	if err != nil {
		return nil, err
	}
	for id, tests := range stressTests(res) {
		tagged[id] = append(tagged[id], tests...)
	}
	for test := range res.Passed {
		if _, stress := scenario.StressExercise(test); stress || isScenario(test) || !IsCheck(test) {
			continue
		}
		if ids := blame[test]; len(ids) > 0 {
			last := ids[len(ids)-1]
			tagged[last] = append(tagged[last], test)
		}
	}
	return tagged, nil
}

// judging lists the checks that can judge exercise id: the scenario files
// tagged with it, and every test whose blame line names it. Nil when the
// blame file knows no test of it (then every test runs).
func judging(chapterDir string, blame Blame, id int) ([]string, error) {
	tags, err := ScenarioTags(chapterDir)
	if err != nil {
		return nil, err
	}
	var tests []string
	for t, ids := range tags {
		if slices.Contains(ids, id) {
			tests = append(tests, t)
		}
	}
	for t, ids := range blame {
		if slices.Contains(ids, id) && !slices.Contains(tests, t) {
			tests = append(tests, t)
		}
	}
	sort.Strings(tests)
	if len(tests) == 0 {
		return nil, nil
	}
	return tests, nil
}

// culprits finds, for every check that diverged, the exercise whose code
// made it diverge. The stack frames of a panic, a race, a stuck goroutine
// or a leak name it. Else, when the check runs the code of one exercise
// on your track, that one. Else a swap settles it: your code of one
// candidate exercise is replaced by the reference's, and the checks run
// again; those that pass now diverged in that exercise. A check nothing
// settles stays with the exercise it is tagged with, unless that one is
// the reference's to the letter (offTheLetter).
func (k *code) culprits(outcomes map[string]*outcome, blame Blame, tagged map[int][]string, onTrack, suspect, stubbed func(int) bool, env []string, quiet time.Duration, flags []string) error {
	if err := k.search(outcomes, blame, tagged, onTrack, suspect, stubbed, env, quiet, flags); err != nil {
		return err
	}
	return k.offTheLetter(outcomes, tagged, suspect, env, quiet, flags)
}

// search is culprits' search: frames, the only suspect, swaps.
func (k *code) search(outcomes map[string]*outcome, blame Blame, tagged map[int][]string, onTrack, suspect, stubbed func(int) bool, env []string, quiet time.Duration, flags []string) error {
	tagOf := map[string]int{}
	last := 0 // the last exercise on your track
	for id, tests := range tagged {
		if onTrack(id) && id > last {
			last = id
		}
		for _, t := range tests {
			if onTrack(id) && id > tagOf[t] {
				tagOf[t] = id
			}
		}
	}
	candidates := map[string][]int{}
	var open []string
	for test, o := range outcomes {
		if o.stub != 0 || o.notRun {
			continue
		}
		// The suspects: the exercises its evidence points at first, then
		// every exercise on your track whose code it runs (every one, for
		// a test the blame file does not know).
		runsOf, known := blame[test]
		if !known && test != LeakCheck {
			for id := range tagged {
				runsOf = append(runsOf, id)
			}
			slices.Sort(runsOf)
		}
		var cands []int
		for _, id := range append(slices.Clone(o.owners), runsOf...) {
			if suspect(id) && !slices.Contains(cands, id) {
				cands = append(cands, id)
			}
		}
		o.suspects = cands
		// A check that runs the code of an exercise still stubbed (for a
		// test the blame file does not know: that may) waits for it: a
		// test that recovers a stub's panic fails some other way. No
		// search; the first such stub is in the way.
		if first := slices.IndexFunc(runsOf, stubbed); first >= 0 {
			o.stubChapter, o.stub = filepath.Base(k.s.dir), runsOf[first]
			continue
		}
		// A check no exercise is tagged with (the leak check, a test the
		// blame file does not know yet) still fails something.
		o.culprit = cmp.Or(tagOf[test], last)
		switch {
		case o.proof && suspect(o.owners[0]):
			o.culprit, o.located = o.owners[0], ByFrames
		case len(cands) == 1 && len(k.givenChanged()) == 0:
			o.culprit, o.located = cands[0], OnlySuspect
		case len(cands) > 0 && test != LeakCheck:
			// (One suspect among the exercises, but code outside them
			// changed too: only a swap can say it is that one.)
			if len(o.owners) > 0 && suspect(o.owners[0]) {
				o.culprit = o.owners[0] // unless a swap proves another
			}
			candidates[test] = cands
			open = append(open, test)
		}
	}
	if len(k.s.yours) == 0 {
		return nil
	}
	if err := k.outside(outcomes, env, quiet, flags); err != nil {
		return err
	}
	open = slices.DeleteFunc(open, func(t string) bool { return outcomes[t].located == InGiven })
	if len(open) == 0 {
		return k.narrow(outcomes, env, quiet, flags)
	}
	sort.Strings(open)
	solid, flaky, err := k.confirm(outcomes, open, env, quiet, blame)
	if err != nil {
		return err
	}
	runs := map[int]int{} // how many checks run each exercise's code
	for _, ids := range blame {
		for _, id := range ids {
			runs[id]++
		}
	}
	if len(solid) > 0 {
		// A check that runs one exercise's code alone, or whose frames
		// name it, already proved that exercise wrong: the others most
		// likely diverged there too, and one swap of it settles them
		// (trial G's ring buffer, exercise 1, run by every check, was
		// the last suspect of a share-ordered search: 8 builds, 48 s).
		if err := k.bisect(outcomes, solid, candidates, runs, env, quiet, flags, false, provedCulprits(outcomes)); err != nil {
			return err
		}
	}
	for _, o := range outcomes {
		if f := outcomes[o.follows]; o.follows != "" && f != nil && f.located.settled() && f.culprit != 0 {
			o.culprit, o.located = f.culprit, WaitsLike
		}
	}
	// A flaky check that runs the code of an exercise proved wrong (by
	// frames, as the only suspect, or by a swap) is put on it unsearched
	// (Likely): it cannot judge the rest until that one passes (trial
	// G's ring buffer: 14 flaky checks searched for 27 s, under a load
	// of 8, to be listed under exercise 1's report; the 05 trial's Add
	// queueing a held item, put on exercise 2 by frames, had left its
	// flaky stress test on exercise 11).
	proved := provedCulprits(outcomes)
	var search []string
	for _, t := range flaky {
		if at := slices.IndexFunc(proved, func(id int) bool { return slices.Contains(candidates[t], id) }); at >= 0 {
			outcomes[t].culprit, outcomes[t].located = proved[at], Likely
			continue
		}
		search = append(search, t)
	}
	if err := k.narrow(outcomes, env, quiet, flags); err != nil {
		return err
	}
	if len(search) == 0 {
		return nil
	}
	if err := k.bisect(outcomes, search, candidates, runs, env, quiet, flags, true, nil); err != nil {
		return err
	}
	return k.onTheReference(outcomes, search, slices.Sorted(maps.Keys(tagged)), env, quiet, flags)
}

// provedCulprits is the exercises checks were put on by their frames, as
// their only suspect or by a swap, in the order of the checks' names.
func provedCulprits(outcomes map[string]*outcome) []int {
	var proved []int
	for _, t := range slices.Sorted(maps.Keys(outcomes)) {
		o := outcomes[t]
		if (o.located == ByFrames || o.located == OnlySuspect || o.located == BySwap) && !slices.Contains(proved, o.culprit) {
			proved = append(proved, o.culprit)
		}
	}
	return proved
}

// onTheReference runs the flaky checks no swap settled with the
// reference's code in place of every exercise, as often as confirm ran
// them (twice at least). One that fails there too is unsteady on this
// machine as it is now (a busy machine slows etcd, and a watch's timeout
// runs out before the writes that should reach it: the 07 trial's
// websocket.txt under a load of 6): it says nothing of your code, and
// counts against no exercise. One that passes stays flaky, with the
// exercise it is for.
func (k *code) onTheReference(outcomes map[string]*outcome, flaky []string, ids []int, env []string, quiet time.Duration, flags []string) error {
	var open []string
	var slowest time.Duration
	for _, t := range flaky {
		if o := outcomes[t]; o.located == Flaky {
			open = append(open, t)
			slowest = max(slowest, o.took)
		}
	}
	if len(open) == 0 || len(k.s.yours) == 0 || len(ids) == 0 {
		return nil
	}
	runs := max(2, confirmRuns(slowest))
	sw := &swapper{k: k, gen: k.done, stubs: k.stubs, env: env, quiet: quiet / 3, flags: flags, repeat: runs, flaky: true}
	_, failed, ok, err := sw.try(ids, open)
	if err != nil || !ok {
		return err
	}
	for _, t := range failed {
		o := outcomes[t]
		o.located = Unsteady
		o.report += indentReason(fmt.Sprintf("Unsteady: it failed too in %d runs with the reference's code in place of every\n", runs) +
			"          exercise: the check itself fails now and then on this machine as it is\n" +
			"          (a busy machine slows etcd and the clocks the check waits on), not\n" +
			"          because of your code. It counts against no exercise.")
	}
	return nil
}

// judge decides one exercise's status from its checks' outcomes, and from
// the checks that diverged in its code wherever they are tagged.
//
// Among reports alike, the check that runs the fewest exercises (blame)
// is shown: it is the one that speaks of this exercise most directly, as
// exponential-backoff.txt's "when a: 5ms" does for an off-by-one in the
// backoff, where a whole queue's backoff-timeline.txt only shows an item
// that came back late.
func judge(chapter string, ex exgen.Exercise, tests []string, outcomes map[string]*outcome, blame Blame) Exercise {
	e := Exercise{Exercise: ex, Status: Pass}
	if len(tests) == 0 {
		e.Status = Unchecked
	}
	mine := map[string]bool{}
	for _, t := range tests {
		mine[t] = true
	}
	names := make([]string, 0, len(outcomes))
	for t := range outcomes {
		names = append(names, t)
	}
	sort.Strings(names)
	hung := false      // the outcome shown was left out, not run
	var shown *outcome // the outcome shown, once there is one
	var failing, leftOut []string
	for _, test := range names {
		o := outcomes[test]
		if !mine[test] && !(o.stub == 0 && o.culprit == ex.ID) {
			continue
		}
		// A check that failed on a race alone, whose frames prove the
		// racing code another exercise's, a code the check does not run
		// (the blame file says), only ran beside it: the race detector
		// fails every test running when it reports. It counts against
		// the culprit, not here (the 07 trial's exercises 2, 3 and 12
		// read "blocked, waits for exercise 6" for a race in 6's
		// dispatch). A check that runs the culprit's code waits for it.
		// The blame file decides, not the frames: which of a race's
		// reports comes first changes from run to run, and the verdict
		// must not.
		if o.raceOnly && o.located == ByFrames && o.culprit != ex.ID && !slices.Contains(blame[test], o.culprit) {
			continue
		}
		// A check the reference fails too now and then says nothing of
		// your code (Chapter.Unsteady says so instead).
		// Nor does one that fails on your code outside the exercises
		// (Chapter.Outside).
		if o.located.notYours() || o.located == InGiven {
			continue
		}
		status, blocker, blockerChapter := Fail, 0, ""
		switch {
		case o.stub == ex.ID && o.stubChapter == chapter:
			status = NotStarted
		case o.stub != 0:
			status, blocker, blockerChapter = Blocked, o.stub, o.stubChapter
		case o.culprit != 0 && o.culprit != ex.ID:
			status, blocker, blockerChapter = Blocked, o.culprit, chapter
		}
		// The exercise's own stub says most about it; then a blocker;
		// then a divergence.
		// A scenario's report (a step and its trace) says more than a
		// plain test's.
		// A check that ran and failed says more than one left out for
		// waiting where it did.
		// A check that failed every time says more than one that failed
		// now and then (trial R's Get that left the item dirty showed a
		// "Flaky" step first, sending the learner after a race).
		sameRank := rank(status) == rank(e.Status)
		alike := sameRank && hung == o.hung && isScenario(test) == isScenario(e.Test)
		steadier := solid(o) && !solid(shown)
		better := rank(status) < rank(e.Status) ||
			sameRank && hung && !o.hung ||
			sameRank && hung == o.hung && steadier ||
			sameRank && hung == o.hung && solid(o) == solid(shown) && isScenario(test) && !isScenario(e.Test) ||
			alike && solid(o) == solid(shown) && narrower(blame[test], blame[e.Test])
		switch {
		case status == Fail && o.leftOut():
			leftOut = append(leftOut, test)
		case status == Fail:
			failing = append(failing, test)
		}
		if e.Status == Pass || e.Status == Unchecked || better {
			e.Status, e.Blocker, e.BlockerChapter, e.Test, e.Report = status, blocker, blockerChapter, test, o.report
			e.Located, e.Func, e.FuncProof, e.SwapRuns, e.SwapWanted = o.located, o.fn, o.fnProof, o.swapRuns, o.swapWanted
			e.Suspects = o.suspects
			hung, shown = o.hung, o
		}
	}
	if e.Status == Fail {
		for _, test := range failing {
			if test != e.Test {
				e.AlsoFailing = append(e.AlsoFailing, shownName(test))
			}
		}
		for _, test := range leftOut {
			if test != e.Test {
				e.LeftOut = append(e.LeftOut, shownName(test))
			}
		}
	}
	return e
}

// leftOut reports whether the check never ran: it was left out of every
// run, as it would wait where a stuck check did (WaitsLike), so it
// neither passes nor fails.
func (o *outcome) leftOut() bool { return o != nil && o.located == WaitsLike }

// solid reports whether an outcome failed every run it had on your code as
// it is: a failure rate below 1 is a flaky one (confirm). Nil, before any
// is shown, counts as flaky, so that any outcome is steadier.
func solid(o *outcome) bool { return o != nil && (o.failRate == 0 || o.failRate >= 1) }

// crashReport is what a scenario says when a stub's panic, raised outside
// the test's own goroutine, stopped the test binary: the steps it got
// through, if it was the one running, and which exercise is in the way.
func crashReport(output, chapter, id string, ran bool) string {
	where := fmt.Sprintf("%s exercise %s", chapter, id)
	if !ran {
		return fmt.Sprintf("  Stopped:  this scenario did not run: the run stopped when another reached\n            %s, which is not done yet.\n", where)
	}
	return fmt.Sprintf("%s  Stopped:  the next step needs %s, which is not done yet\n            (it ran in a goroutine of the code under test, which stopped the run).\n", output, where)
}

// narrower reports whether a check that runs the exercises a runs fewer
// of them than one that runs b; a check the blame file does not know
// (nil) is never narrower.
func narrower(a, b []int) bool {
	return len(a) > 0 && (len(b) == 0 || len(a) < len(b))
}

func rank(s Status) int {
	return map[Status]int{NotStarted: 0, Blocked: 1, Fail: 2}[s]
}
