// Package exindex builds a chapter's exercise index,
// testdata/exercises.txt: one block per exercise with everything the
// project says about it, gathered from the five places that say it. Those
// stay the truth, each edited where it is:
//
//   - the exercise markers in the reference (title, hints, track, and the
//     function bodies that are its regions), read by exgen;
//   - the scenario headers (`# exercise: N`);
//   - testdata/blame.txt (the tests whose code runs it), which selftest
//     -record measures;
//   - testdata/checked-together.txt (the groups no scenario checks apart);
//   - testdata/mutants/ (a mutant is the exercise's whose region holds the
//     first line it changes).
//
// The index is for people: no tool reads it, so a stale one can mislead
// no learner; `make exercises` and selftest -record write it, and
// `make exercises-check` fails when it is stale.
//
// It is a package of its own because it joins packages that sit above
// exgen (scenario and mutant import exgen, progress imports all three),
// and both exgen's command and selftest write it.
package exindex

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/mutant"
	"example.com/walkthrough/workshop/progress"
)

// Entry is what the five sources say about one exercise.
type Entry struct {
	exgen.Exercise
	Funcs     []exgen.Func
	Scenarios []string // the scenario files whose header names it
	Checks    []string // the tests whose line in blame.txt names it
	Together  []int    // the checked-together group it is in, or nil
	Mutants   []string // the mutants whose first changed line lies in its regions
}

// Index is a chapter's exercises in id order, and what the sources name
// that is under no exercise of the chapter: left out, it would be a fact
// the index silently drops.
type Index struct {
	Chapter string
	Entries []Entry
	// Unowned are the mutants whose first changed line is outside every
	// region (mutant.Exercise): selftest can prove only that they are
	// caught, not on which exercise.
	Unowned []string
	Loose   []string // anything else the sources say of no exercise
}

// Build reads the five sources of a chapter.
func Build(chapterDir string) (Index, error) {
	idx := Index{Chapter: filepath.Base(chapterDir)}
	exercises, err := exgen.Exercises(chapterDir)
	if err != nil {
		return idx, err
	}
	funcs, err := exgen.Funcs(chapterDir)
	if err != nil {
		return idx, err
	}
	byID := map[int]*Entry{}
	idx.Entries = make([]Entry, len(exercises))
	for i, e := range exercises {
		idx.Entries[i] = Entry{Exercise: e, Funcs: funcs[e.ID]}
		byID[e.ID] = &idx.Entries[i]
	}

	tags, err := progress.ScenarioTags(chapterDir)
	if err != nil {
		return idx, err
	}
	// A scenario runs as the subtest TestScenarios/<file name>, which is
	// how progress keys its tags; the index names the file.
	files := map[string][]int{}
	for test, ids := range tags {
		files[strings.TrimPrefix(test, "TestScenarios/")+".txt"] = ids
	}
	idx.place(byID, files, "scenario %s: its header", func(e *Entry) *[]string { return &e.Scenarios })

	blame, err := progress.LoadBlame(chapterDir)
	if err != nil {
		return idx, err
	}
	idx.place(byID, blame, "check %s: its line in blame.txt", func(e *Entry) *[]string { return &e.Checks })

	groups, err := progress.LoadTogether(chapterDir)
	if err != nil {
		return idx, err
	}
	for _, g := range groups {
		for _, id := range g.IDs {
			if e := byID[id]; e != nil {
				e.Together = g.IDs
			}
		}
	}

	mutants, err := mutant.Load(chapterDir)
	if err != nil {
		return idx, err
	}
	for _, m := range mutants {
		id, err := m.Exercise(chapterDir)
		if err != nil {
			return idx, err
		}
		if e := byID[id]; e != nil {
			e.Mutants = append(e.Mutants, m.Name)
		} else {
			idx.Unowned = append(idx.Unowned, m.Name)
		}
	}
	slices.Sort(idx.Loose)
	return idx, nil
}

// place adds each name to the list field gives of every exercise its ids
// name, in name order; a name with no ids, or an id no exercise has, is
// a loose fact, said as what (a format taking the name) goes on to say.
func (idx *Index) place(byID map[int]*Entry, named map[string][]int, what string, field func(*Entry) *[]string) {
	// Sorted first: the map's order would change the file from run to run.
	for _, name := range slices.Sorted(maps.Keys(named)) {
		ids := named[name]
		if len(ids) == 0 {
			idx.Loose = append(idx.Loose, fmt.Sprintf(what+" names no exercise", name))
		}
		for _, id := range ids {
			if e := byID[id]; e != nil {
				*field(e) = append(*field(e), name)
			} else {
				idx.Loose = append(idx.Loose, fmt.Sprintf(what+" names exercise %d, which does not exist", name, id))
			}
		}
	}
}
