package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/exindex"
	"example.com/walkthrough/workshop/progress"
	"example.com/walkthrough/workshop/scenario"
)

// blameRun collects, while the "exercise k alone stubbed" checks run, the
// tests each stub makes fail, then checks the chapter's blame file against
// them (or, with -record, writes it).
type blameRun struct {
	c        chapters.Chapter
	record   bool
	file     progress.Blame
	tagged   map[string][]int // test → the exercises its header names
	together []progress.Together

	mu      sync.Mutex
	measure progress.Blame // test → the exercises whose stub made it fail
	tests   map[string]bool
	ran     map[string]bool // tests that ran in some run: the others are gone from the code
	missing []int           // exercises whose run gave no result
}

func newBlameRun(c chapters.Chapter, exercises []exgen.Exercise, record bool) (*blameRun, error) {
	file, err := progress.LoadBlame(c.Dir)
	if err != nil {
		return nil, err
	}
	together, err := progress.LoadTogether(c.Dir)
	if err != nil {
		return nil, err
	}
	b := &blameRun{c: c, record: record, file: file, measure: progress.Blame{}, tests: map[string]bool{}, ran: map[string]bool{}, together: together}
	for _, e := range exercises {
		b.missing = append(b.missing, e.ID)
	}
	if b.tagged, err = progress.ScenarioTags(c.Dir); err != nil {
		return nil, err
	}
	return b, nil
}

// failed records the tests that failed with exercise id alone stubbed;
// notRun, those of them that never ran.
func (b *blameRun) failed(id int, tests, notRun map[string]bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.missing = slices.DeleteFunc(b.missing, func(n int) bool { return n == id })
	for test, passed := range tests {
		if !demanded(test) {
			continue
		}
		b.tests[test] = true
		b.ran[test] = b.ran[test] || !notRun[test]
		if !passed {
			b.measure[test] = append(b.measure[test], id)
		}
		if judged, ok := scenario.StressExercise(test); ok {
			b.tagged[test] = []int{judged}
		}
	}
}

func (b *blameRun) what() string {
	if b.record {
		return "wrote " + progress.BlameFile
	}
	return progress.BlameFile + " names every exercise whose stub fails each test, and no later one"
}

// finish checks (or writes) the blame file once every run is in.
func (b *blameRun) finish() string {
	if len(b.missing) > 0 {
		return fmt.Sprintf("no result for exercises %v (see their checks above)", b.missing)
	}
	for test := range b.tests {
		if b.record && !b.ran[test] {
			// Listed by the old blame file, run by no stub's run: a test
			// renamed or removed since (its line would fail every
			// exercise).
			delete(b.measure, test)
			continue
		}
		if b.measure[test] == nil {
			b.measure[test] = []int{}
		}
		slices.Sort(b.measure[test])
	}
	var wrong []string
	if b.record {
		if err := b.measure.Write(b.c.Dir); err != nil {
			return err.Error()
		}
		if err := writeDocTable(b.c); err != nil {
			return err.Error()
		}
		// The exercise index lists each exercise's checks from the
		// blame file: rewrite it too, or exgen -check fails on it.
		if _, err := exindex.Write(b.c.Dir); err != nil {
			return err.Error()
		}
	} else {
		for _, test := range sortedKeys(b.measure, b.file) {
			if !demanded(test) {
				continue // not measured here (see demanded)
			}
			got, want := b.measure[test], b.file[test]
			if !slices.Equal(got, want) {
				wrong = append(wrong, fmt.Sprintf("%s: stubbing exercises %v alone fails it; the file says %v", test, got, want))
			}
		}
		if len(wrong) > 0 {
			wrong = append(wrong, fmt.Sprintf("Measure it again: go run ./workshop/cmd/selftest -record %s", b.c.Number()))
		}
	}
	for _, test := range sortedKeys(b.measure, nil) {
		tag := slices.Max(append([]int{0}, b.tagged[test]...))
		if runs := b.measure[test]; tag > 0 && len(runs) > 0 && runs[len(runs)-1] > tag && !b.declared(tag, runs[len(runs)-1]) {
			wrong = append(wrong, fmt.Sprintf("%s checks exercise %d but runs the code of exercise %d, a later one: renumber, or tag it %d",
				test, tag, runs[len(runs)-1], runs[len(runs)-1]))
		}
	}
	return strings.Join(wrong, "\n")
}

// demanded reports whether the blame file names test: every scenario and
// stress test. A plain test is not measured: the copies selftest checks
// run the scenarios and stress tests alone (see runCopy), and the runner
// finds whose code a plain test's failure comes from by its frames or by
// swapping suspects.
func demanded(test string) bool {
	_, stress := scenario.StressExercise(test)
	file, isScenario := strings.CutPrefix(test, "TestScenarios/")
	return stress || isScenario && !strings.Contains(file, "/")
}

// sortedKeys lists the tests either blame names, sorted.
func sortedKeys(a, b progress.Blame) []string {
	keys := slices.AppendSeq(slices.Collect(maps.Keys(a)), maps.Keys(b))
	slices.Sort(keys)
	return slices.Compact(keys)
}

// writeDocTable refreshes the exercise table of the chapter's doc from
// the blame file just written.
func writeDocTable(c chapters.Chapter) error {
	root, err := chapters.Root()
	if err != nil {
		return err
	}
	path, now, want, err := progress.DocTable(root, c)
	if err != nil || string(now) == string(want) {
		return err
	}
	return os.WriteFile(path, want, 0o644)
}

// declared reports whether a and b are in one declared checked-together
// group: a test of one may run the other's code.
func (b *blameRun) declared(a, c int) bool {
	for _, g := range b.together {
		if g.Has(a) && g.Has(c) {
			return true
		}
	}
	return false
}
