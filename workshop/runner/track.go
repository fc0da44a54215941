package runner

import (
	"fmt"
	"os"
	"path/filepath"
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
	var ids []int
	for _, e := range deep {
		ids = append(ids, e.ID)
	}
	write, err := stubPlan(c, gen, ids)
	if err != nil {
		return err
	}
	r.say("", fmt.Sprintf("The deep track of %s adds %d exercises over the concurrent and looping heart of it:", c.Name, len(deep)))
	for _, e := range deep {
		r.printf("  %d %s\n", e.ID, strings.TrimSuffix(e.Title, "."))
	}
	r.say("", "Their functions in your copy become stubs; your other exercises stay as they are. A backup of the files is kept.")
	return r.writeTrack(c, write, "Take on the deep track? [y/N] ")
}

// Blank stubs every exercise of both tracks at once: the chapter from
// scratch, for a learner who wants to build all of it. The types and doc
// comments stay; the code goes. reset puts the core track back.
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
	r.say("", fmt.Sprintf("This stubs all %d exercises of %s, core and deep, at once: the types and doc comments stay, the code goes. Your changes to these files are lost from them, but a backup is kept:", len(list), c.Name))
	names := keys(write)
	sort.Strings(names)
	for _, n := range names {
		r.printf("  %s/%s\n", c.Name, filepath.ToSlash(n))
	}
	return r.writeTrack(c, write, "Blank it? [y/N] ")
}

// onDeepTrack reports whether you took on a chapter's deep track: the
// state file says so, or a deep exercise's stub is in your copy (the
// state file is only a cache, and may be gone).
func (r *Runner) onDeepTrack(c chapters.Chapter, list []exgen.Exercise, fresh map[int]bool) bool {
	if LoadState(r.Root).Deep[c.Name] {
		return true
	}
	for _, e := range list {
		if e.Track == exgen.TrackDeep && fresh[e.ID] {
			return true
		}
	}
	return false
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
// and puts the chapter on the deep track in the state file, so status
// shows its deep exercises.
func (r *Runner) writeTrack(c chapters.Chapter, write map[string][]byte, question string) error {
	s := LoadState(r.Root)
	if len(write) == 0 && s.Deep[c.Name] {
		r.next("There is nothing to change: your copy already has those stubs. Next: check it:", r.checkCmd(c, 1))
		return nil
	}
	if !r.confirm(question) {
		r.say("", "Nothing changed.")
		return nil
	}
	backup, err := r.backup(c, 0, keys(write))
	if err != nil {
		return err
	}
	for name, src := range write {
		if err := os.WriteFile(filepath.Join(c.Dir, name), src, 0o644); err != nil {
			return err
		}
	}
	s = LoadState(r.Root)
	s.Deep[c.Name] = true
	if err := s.Save(r.Root); err != nil {
		return err
	}
	if len(write) > 0 {
		r.say("", fmt.Sprintf("Done. Your old files are in %s. `reset %s` puts the core track back.", backup, c.Number()))
	}
	r.next("Next: see where you start:", r.cmd("check", c.Number()))
	return nil
}
