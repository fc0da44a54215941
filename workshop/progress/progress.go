// Package progress says, per exercise, how a learner's copy of a chapter
// is doing: it runs the chapter's scenarios against the exercise copy and
// attributes each scenario's result to the exercise its header names.
package progress

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
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
	// Runs lists the exercises of this chapter whose code Test runs
	// (from the chapter's blame file), the exercise itself included.
	Runs []int
	// Passing of Checked of the scenarios and stress tests that check it
	// pass: a failing exercise may be partly right.
	Passing, Checked int

	tests []string // the scenarios and stress tests that check it
}

// Chapter is one chapter's result.
type Chapter struct {
	Chapter   chapters.Chapter
	Exercises []Exercise
	Build     string // compiler output when the exercise copy does not build
	// Tests maps each scenario and stress test (its full test name) to
	// whether it passed.
	Tests map[string]bool
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
	// does for a chapter with stress tests, where a data race is a bug.
	Race bool
}

// CheckWith is Check with the implementation and overlay chosen by opts.
func CheckWith(c chapters.Chapter, opts Options) (*Chapter, error) {
	impl := opts.Impl
	if impl == "" {
		impl = scenario.Exercise
	}
	exercises, err := exgen.Exercises(c.Dir)
	if err != nil {
		return nil, err
	}
	res, err := runTests(c.Dir, []string{scenario.EnvImpl + "=" + impl}, opts.Files, opts.Race)
	if err != nil {
		return nil, err
	}
	out := &Chapter{Chapter: c, Build: res.Build}
	tagged, err := scenariosByExercise(c.Dir)
	if err != nil {
		return nil, err
	}
	for id, tests := range stressTests(res.Result) {
		tagged[id] = append(tagged[id], tests...)
	}
	out.Tests = res.Passed
	blame, err := LoadBlame(c.Dir)
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
	for _, ex := range exercises {
		e := judge(c.Name, ex, tagged[ex.ID], res)
		e.tests = tagged[ex.ID]
		for _, t := range e.tests {
			e.Checked++
			if res.Passed[t] {
				e.Passing++
			}
		}
		out.Exercises = append(out.Exercises, e)
	}
	if res.Build == "" {
		blameBlockers(c.Name, out.Exercises, blame, res.Passed)
	}
	for i := range out.Exercises {
		if e := &out.Exercises[i]; e.Test != "" {
			e.Runs = blame[e.Test]
		}
	}
	return out, nil
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

var (
	// notDone is how the scenario runner reports a stub it recovered.
	notDone = regexp.MustCompile(`needs (\S+) exercise (\d+), which is not done yet`)
	// crashNotDone is a stub's panic that no test recovered: one raised in
	// a goroutine of the code under test (an informer's, a queue's), which
	// stops the whole test binary (todo.NotDone's Error text).
	crashNotDone = regexp.MustCompile(`^panic: (\S+) exercise (\d+) is not done yet`)
)

// judge decides one exercise's status from the scenarios that check it.
func judge(chapter string, ex exgen.Exercise, tests []string, res *runs) Exercise {
	e := Exercise{Exercise: ex, Status: Pass}
	if res.Build != "" {
		return Exercise{Exercise: ex, Status: Fail, Report: res.Build}
	}
	if len(tests) == 0 {
		e.Status = Unchecked
		return e
	}
	for _, test := range tests {
		passed, ran := res.Passed[test]
		if passed {
			continue
		}
		report := res.Output[test]
		m := notDone.FindStringSubmatch(report)
		crash := res.CrashOf[test]
		if !ran {
			crash = res.Crash
		}
		if m == nil && crash != "" {
			// The binary stopped: this test crashed, or never ran because
			// another did. Either way the stub that panicked is in the way.
			if m = crashNotDone.FindStringSubmatch(crash); m != nil {
				report = crashReport(report, m[1], m[2], ran)
			} else if !ran {
				report = fmt.Sprintf("This scenario did not run: the test binary stopped at\n%s", crash)
			}
		}
		status, blocker, blockerChapter := Fail, 0, ""
		if m != nil {
			blockerChapter = m[1]
			blocker, _ = strconv.Atoi(m[2])
			status = Blocked
			if blocker == ex.ID && blockerChapter == chapter {
				status, blocker, blockerChapter = NotStarted, 0, ""
			}
		} else if !ran && report == "" {
			report = "This scenario did not run (the test binary stopped before it)."
		}
		// The exercise's own stub says most about it; then a blocker;
		// then a divergence.
		if e.Status == Pass || rank(status) < rank(e.Status) {
			e.Status, e.Blocker, e.BlockerChapter, e.Test, e.Report = status, blocker, blockerChapter, test, cleanReport(report)
		}
	}
	return e
}

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

func rank(s Status) int {
	return map[Status]int{NotStarted: 0, Blocked: 1, Fail: 2}[s]
}

// cleanReport keeps the scenario runner's report and drops go test's
// framing ("--- FAIL", "run.go:107:").
func cleanReport(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") || regexp.MustCompile(`^\w+\.go:\d+:\s*$`).MatchString(t) {
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
