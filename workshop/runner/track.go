package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

// Deep takes on a chapter's deep track: the functions of every deep
// exercise in your copy become stubs (found by name, like reset of one
// exercise), while your core work stays as it is. It asks first and
// keeps a backup.
func (r *Runner) Deep(chapter string) error {
	c, deep, err := r.deepExercises(chapter)
	if err != nil {
		return err
	}
	gen, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return err
	}
	ids := exerciseIDs(deep)
	write, err := stubPlan(c, gen, ids)
	if err != nil {
		return err
	}
	back, from := r.deepWorkKept(c, gen, ids, write)
	r.say("", fmt.Sprintf("The deep track of %s adds %s over the concurrent and looping heart of it:", c.Name, countOf(len(deep), "exercise")))
	for _, e := range deep {
		r.printf("  %d %s\n", e.ID, strings.TrimSuffix(e.Title, "."))
	}
	if len(back) > 0 {
		// Trial H: deep, then core, then deep again stubbed its own deep
		// code, to be found among backups by hand.
		others := "; the other deep functions become stubs"
		if len(back) == len(ids) {
			others = "" // trial L2: chapter 06 has one deep exercise, and no other
		}
		r.say("", fmt.Sprintf("Your own code of %s, kept when you went to the core track (backup %s), goes back in%s. Your core exercises stay as they are. A backup of the files is kept.", exercisesNamed(back), from, others))
	} else {
		r.say("", "Their functions in your copy become stubs; your other exercises stay as they are. A backup of the files is kept.")
	}
	if todo := stillStubs(c, gen, exerciseIDs(others(c, deep))); len(todo) > 0 {
		// Trial J took "your other exercises stay as they are" on a
		// fresh clone for "the core ones are written".
		r.say("", fmt.Sprintf("Still stubs in your copy, to write as well: %s. The deep track is every exercise of the chapter.", exercisesNamed(todo)))
	}
	if LoadState(r.Root).Tracks[c.Name] == TrackCore && len(back) < len(ids) {
		// Trial G: core then deep asked for the code the core copy had
		// just shown. Say so, and how to avoid it next time.
		r.say("", fmt.Sprintf("Your copy of %s was on the core track, which showed these functions written out. "+
			"If you read them, write them again from their hints and the tests, not from memory; "+
			"for a chapter you have not read yet, choose deep from the start (%s).", c.Name, r.cmd("start", "NN", "deep")))
	}
	r.warnWork(c, ids, write, "deep "+c.Number(), "stubs %s again")
	return r.writeTrack(c, write, ids, "Take on the deep track? [y/N] ", TrackDeep, "deep "+c.Number())
}

// deepWorkKept finds the code of the deep exercises ids that you wrote
// yourself before the last core of this chapter put the reference's in
// its place (its backup): neither the stub nor the core copy's code. It
// puts those functions' bodies into write (the stub plan) and returns the
// exercises it brought back and the backup's name.
func (r *Runner) deepWorkKept(c chapters.Chapter, gen map[string][]byte, ids []int, write map[string][]byte) ([]int, string) {
	list, err := backupsOf(r.Root, c)
	if err != nil {
		return nil, ""
	}
	i := slices.IndexFunc(list, func(b kept) bool { return b.Why == "core "+c.Number() })
	if i < 0 {
		return nil, ""
	}
	b := list[i]
	core, err := exgen.GenerateCore(c.Dir)
	if err != nil {
		return nil, ""
	}
	var back []int
	for _, id := range ids {
		parts, err := exgen.ExerciseParts(gen, id)
		if err != nil || len(parts) == 0 {
			continue
		}
		planned := map[string][]byte{}
		yours := false
		for name, funcs := range parts {
			old, err := os.ReadFile(filepath.Join(r.Root, b.Dir, c.Name, name))
			if errors.Is(err, fs.ErrNotExist) {
				// core kept no copy of a file it did not change: your code
				// of it is in your copy still (trial K's exercise 4, half
				// in a file core left alone, became stubs).
				old, err = os.ReadFile(filepath.Join(c.Dir, name))
			}
			if err != nil {
				yours = false
				break
			}
			if !exgen.Untouched(old, gen[name], funcs) && !exgen.Untouched(old, core[name], funcs) {
				yours = true
			}
			now := write[name]
			if now == nil {
				if now, err = os.ReadFile(filepath.Join(c.Dir, name)); err != nil {
					yours = false
					break
				}
			}
			if planned[name], err = exgen.SpliceBodies(now, old, funcs); err != nil {
				yours = false
				break
			}
		}
		if !yours {
			continue
		}
		for name, src := range planned {
			write[name] = src
		}
		back = append(back, id)
	}
	return back, b.Name
}

// Blank stubs every exercise of both tracks at once: the chapter from
// scratch, for a learner who wants to build all of it. The types and doc
// comments stay; the code goes. core puts the core track back.
func (r *Runner) Blank(chapter string) error {
	c, err := r.chapter(chapter)
	if err != nil {
		return err
	}
	list, err := exgen.Exercises(c.Dir)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return fmt.Errorf("%s has no exercises yet", c.Name)
	}
	gen, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return err
	}
	write := map[string][]byte{}
	for name, src := range gen {
		if mine, err := os.ReadFile(filepath.Join(c.Dir, name)); err != nil || string(mine) != string(src) {
			write[name] = src
		}
	}
	// A copy already blank needs no change, and writeTrack says so alone
	// (trial X saw "These files change" over an empty list, then "needed
	// no change"), as core does.
	if len(write) > 0 {
		r.say("", fmt.Sprintf("This stubs all %d exercises of %s, core and deep, at once: the types and doc comments stay, the code goes. These files change (a backup of them is kept):", len(list), c.Name))
		r.fileList(c, write)
		r.warnWork(c, exerciseIDs(list), write, "blank "+c.Number(), "stubs %s")
	}
	return r.writeTrack(c, write, exerciseIDs(list), "Blank it? [y/N] ", TrackBlank, "blank "+c.Number())
}

// Core puts a chapter's core track back: the functions of the deep
// exercises get the reference code the core track writes for you, and
// your core work stays as it is (core exercises you have not done stay
// stubs). It asks first and keeps a backup. reset puts the whole chapter
// back as generated instead.
func (r *Runner) Core(chapter string) error {
	c, err := r.chapter(chapter)
	if err != nil {
		return err
	}
	list, err := exgen.Exercises(c.Dir)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return fmt.Errorf("%s has no exercises yet", c.Name)
	}
	var deep []exgen.Exercise
	for _, e := range list {
		if e.Track == exgen.TrackDeep {
			deep = append(deep, e)
		}
	}
	all, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return err
	}
	core, err := exgen.GenerateCore(c.Dir)
	if err != nil {
		return err
	}
	ids := exerciseIDs(deep)
	write, err := splicePlan(c, all, core, ids)
	if err != nil {
		return fmt.Errorf("%w\n%s", err, Wrap("", fmt.Sprintf("To put the whole chapter back as generated instead (a backup is kept): %s", r.cmd("reset", c.Number())), Width))
	}
	if len(write) > 0 {
		r.say("", fmt.Sprintf("The core track of %s writes its %s for you. This puts their reference code back in your copy; your core exercises stay as they are. A backup of these files is kept:", c.Name, countOf(len(deep), "deep exercise")))
		r.fileList(c, write)
		r.warnWork(c, ids, write, "core "+c.Number(), "replaces %s with the reference")
	}
	return r.writeTrack(c, write, nil, "Put the core track back? [y/N] ", TrackCore, "core "+c.Number())
}

// splicePlan works out the files that give the functions of the
// exercises ids, in your copy, their bodies from the generated copy from;
// the functions are found by their stubs in stubbed (a copy with them
// stubbed). Only those functions change, so your other work in the same
// files stays; the imports the new bodies need come with them. A file you
// do not have is written whole. It returns only the files that change.
// With from the core copy, the deep exercises get their reference code
// back (core).
func splicePlan(c chapters.Chapter, stubbed, from map[string][]byte, ids []int) (map[string][]byte, error) {
	write := map[string][]byte{}
	onDisk := map[string][]byte{}
	for _, id := range ids {
		parts, err := exgen.ExerciseParts(stubbed, id)
		if err != nil {
			return nil, err
		}
		for name, funcs := range parts {
			if _, done := onDisk[name]; done && onDisk[name] == nil {
				continue // written whole from from
			}
			mine, planned := write[name]
			if !planned {
				mine, err = os.ReadFile(filepath.Join(c.Dir, name))
				if os.IsNotExist(err) {
					write[name], onDisk[name] = from[name], nil
					continue
				}
				if err != nil {
					return nil, err
				}
				onDisk[name] = mine
			}
			spliced, err := exgen.SpliceBodies(mine, from[name], funcs)
			if err == nil {
				spliced, err = addImports(spliced, from[name])
			}
			if err != nil {
				return nil, fmt.Errorf("%s/%s: %w", c.Name, name, err)
			}
			write[name] = spliced
		}
	}
	for name, src := range write {
		if onDisk[name] != nil && bytes.Equal(onDisk[name], src) {
			delete(write, name)
		}
	}
	return write, nil
}

// onDeepTrack reports whether a chapter's deep exercises are yours to do.
// The files decide first: the committed copy is the core track whatever
// the state file says (`make exercises FORCE=1` and reset write it), and
// a deep exercise's stub in your copy puts it on the deep track. In
// between, the track you chose (state file) decides.
func (r *Runner) onDeepTrack(c chapters.Chapter, list []exgen.Exercise, fresh map[int]bool) bool {
	for _, e := range list {
		if e.Track == exgen.TrackDeep && fresh[e.ID] {
			return true
		}
	}
	if isCoreCopy(c) {
		return false
	}
	switch LoadState(r.Root).Tracks[c.Name] {
	case TrackDeep, TrackBlank:
		return true
	}
	return false
}

// isCoreCopy reports whether your copy of a chapter is exactly what the
// generator writes for the core track: nothing of yours in it.
func isCoreCopy(c chapters.Chapter) bool {
	stale, err := exgen.Stale(c.Dir)
	return err == nil && len(stale) == 0
}

// deepExercises finds a chapter and its deep exercises.
func (r *Runner) deepExercises(chapter string) (chapters.Chapter, []exgen.Exercise, error) {
	c, err := r.chapter(chapter)
	if err != nil {
		return c, nil, err
	}
	list, err := exgen.Exercises(c.Dir)
	if err != nil {
		return c, nil, err
	}
	if len(list) == 0 {
		return c, nil, fmt.Errorf("%s has no exercises yet", c.Name)
	}
	var deep []exgen.Exercise
	for _, e := range list {
		if e.Track == exgen.TrackDeep {
			deep = append(deep, e)
		}
	}
	if len(deep) == 0 {
		return c, nil, fmt.Errorf("%s has no deep track yet: its %d exercises are all core", c.Name, len(list))
	}
	return c, deep, nil
}

// writeTrack asks, backs up, writes (write holds only files that change),
// and records the chapter's track in the state file, so status shows the
// exercises of that track. why names the command, for restore's list.
// The exercises stubbed are no longer known to pass: a check of one
// exercise, which judges only its own, would otherwise skip them when it
// names the next one to do.
func (r *Runner) writeTrack(c chapters.Chapter, write map[string][]byte, stubbed []int, question, track, why string) error {
	if len(write) == 0 {
		if err := SetTrack(r.Root, c.Name, track); err != nil {
			return err
		}
		r.say("", fmt.Sprintf("%s is on the %s track; your copy needed no change.", c.Name, track))
		r.trackNext(c)
		return nil
	}
	// A track you just chose in answer to a question, on a copy that holds
	// nothing of yours, needs no second question (the backup is still kept).
	if !(r.picked && isCoreCopy(c)) && !r.confirm(question) {
		r.declined(why)
		return nil
	}
	backup, err := r.backup(c, 0, keys(write), why)
	if err != nil {
		return err
	}
	for name, src := range write {
		if err := os.WriteFile(filepath.Join(c.Dir, name), src, 0o644); err != nil {
			return err
		}
	}
	s := LoadState(r.Root)
	s.Tracks[c.Name] = track
	s.forgetPassed(c.Name, stubbed)
	if err := s.Save(r.Root); err != nil {
		return err
	}
	r.say("", fmt.Sprintf("Done: %s is on the %s track. Your old files are in %s (`restore %s` puts them back).", c.Name, track, backup, c.Number()))
	r.trackNext(c)
	return nil
}

// trackNext is the next step after choosing a track; none when a check
// goes on right after.
func (r *Runner) trackNext(c chapters.Chapter) {
	if r.checking {
		return
	}
	r.next(fmt.Sprintf("Next: read %s, then see where you start:", docOf(r.Root, c.Name)), r.cmd("check", c.Number()))
}

// fileList prints the files a command writes, one a line.
func (r *Runner) fileList(c chapters.Chapter, write map[string][]byte) {
	names := keys(write)
	sort.Strings(names)
	for _, n := range names {
		r.printf("  %s/%s\n", c.Name, filepath.ToSlash(n))
	}
}

// warnWork warns, before a command (deep, blank, core) writes the files
// in write over the functions of the exercises ids, about those of them
// you wrote yourself and that it changes (core leaves alone code of yours
// that is the reference's to the letter), and says which passed when you
// last checked.
func (r *Runner) warnWork(c chapters.Chapter, ids []int, write map[string][]byte, command, does string) {
	yours := r.yourWork(c, ids, write)
	if len(yours) == 0 {
		return
	}
	passed := LoadState(r.Root).Passed[c.Name]
	var passing []int
	for _, id := range yours {
		if slices.Contains(passed, id) {
			passing = append(passing, id)
		}
	}
	text := fmt.Sprintf("Careful: %s %s code you wrote", exercisesNamed(yours), map[bool]string{true: "holds", false: "hold"}[len(yours) == 1])
	if len(passing) > 0 {
		text += fmt.Sprintf(", and %s when you last checked", passesNamed(passing, len(yours)))
	}
	them := map[bool]string{true: "it", false: "them"}[len(yours) == 1]
	text += fmt.Sprintf(". `%s` %s; the backup keeps your code, and `%s` brings it back.", command, fmt.Sprintf(does, them), r.cmd("restore", c.Number()))
	r.say("", r.paint(yellow, text))
}

// yourWork lists the exercises among ids whose code in your copy you
// wrote and write changes: not the stub, and, for a deep exercise on the
// core track, not the code the core track writes for you. (On the deep
// and blank tracks a deep exercise that is no stub is yours, even when it
// is the reference to the letter.)
func (r *Runner) yourWork(c chapters.Chapter, ids []int, write map[string][]byte) []int {
	track := LoadState(r.Root).Tracks[c.Name]
	deepIsYours := track == TrackDeep || track == TrackBlank
	all, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return nil
	}
	core, err := exgen.GenerateCore(c.Dir)
	if err != nil {
		return nil
	}
	var yours []int
	for _, id := range ids {
		parts, err := exgen.ExerciseParts(all, id)
		if err != nil {
			continue
		}
		for name, funcs := range parts {
			mine, err := os.ReadFile(filepath.Join(c.Dir, name))
			changes := write[name] != nil && !exgen.Untouched(mine, write[name], funcs)
			if err == nil && changes && !exgen.Untouched(mine, all[name], funcs) && (deepIsYours || !exgen.Untouched(mine, core[name], funcs)) {
				yours = append(yours, id)
				break
			}
		}
	}
	return yours
}

// countOf is n of a noun, in the plural unless n is 1: "1 deep
// exercise", "3 exercises".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// exercisesNamed is "exercise 3" or "exercises 3, 4 and 6".
func exercisesNamed(ids []int) string {
	if len(ids) == 1 {
		return fmt.Sprintf("exercise %d", ids[0])
	}
	return "exercises " + andList(ids)
}

// passesNamed says which of your n exercises passed: "it passed", "they
// all passed", "3 and 4 passed".
func passesNamed(ids []int, n int) string {
	switch {
	case n == 1:
		return "it passed"
	case len(ids) == n:
		return "they all passed"
	}
	return andList(ids) + " passed"
}

// andList is "3", "3 and 4", "3, 4 and 6".
func andList(ids []int) string {
	var s []string
	for _, id := range ids {
		s = append(s, fmt.Sprint(id))
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func exerciseIDs(list []exgen.Exercise) []int {
	var ids []int
	for _, e := range list {
		ids = append(ids, e.ID)
	}
	return ids
}

// others is the chapter's exercises that are not in these.
func others(c chapters.Chapter, these []exgen.Exercise) []exgen.Exercise {
	list, err := exgen.Exercises(c.Dir)
	if err != nil {
		return nil
	}
	var rest []exgen.Exercise
	for _, e := range list {
		if !slices.ContainsFunc(these, func(d exgen.Exercise) bool { return d.ID == e.ID }) {
			rest = append(rest, e)
		}
	}
	return rest
}

// stillStubs is those of ids whose functions are all still the stubs of
// gen (a copy with every exercise stubbed) in your copy.
func stillStubs(c chapters.Chapter, gen map[string][]byte, ids []int) []int {
	var todo []int
	for _, id := range ids {
		parts, err := exgen.ExerciseParts(gen, id)
		if err != nil || len(parts) == 0 {
			continue
		}
		stub := true
		for name, keys := range parts {
			mine, err := os.ReadFile(filepath.Join(c.Dir, name))
			if err != nil || !exgen.Untouched(mine, gen[name], keys) {
				stub = false
			}
		}
		if stub {
			todo = append(todo, id)
		}
	}
	return todo
}
