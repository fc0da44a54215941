package runner

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
)

// Watch re-runs the current exercise every time a file of your copy
// changes, clearing the screen (on a terminal) and drawing the result
// afresh. When the exercise passes it moves on to the next one, and to the
// next chapter after the last; when everything passes it returns.
//
// It polls: every r.Poll it hashes the files in each chapter's exercise/
// directory, which works on every filesystem (network mounts, containers,
// editors that replace files) and needs nothing but Go. A save in another
// chapter's exercise/ (one the current chapter builds on with --mine, or
// any other) runs that chapter too, and the next draw says whether it
// still passes what it passed before. It stops when ctx is done.
func (r *Runner) Watch(ctx context.Context) error {
	poll := r.Poll
	if poll <= 0 {
		poll = 500 * time.Millisecond
	}
	r.watching = true
	defer func() { r.watching = false }()
	runs := 0          // counted when drawn, so the first drawn run is run 1
	var moved string   // what the last run moved on from, said on the next draw
	var saved []string // chapters whose exercise/ changed since the last run
	for {
		pos, err := r.watchTarget()
		if err != nil {
			return err
		}
		before := r.fingerprints()
		if pos == nil {
			runs++
			r.draw(runs, func() {
				if moved != "" {
					r.say("", r.paint(green, moved))
				}
				r.say("", "You have reached the end of the last chapter, so watch stops here.")
				r.next("Next: see which exercises are left, if any:", r.cmd("status"))
			})
			return nil
		}
		c, err := r.chapter(pos.Chapter)
		if err != nil {
			return err
		}
		x, err := r.check(c)
		if err != nil {
			return err
		}
		if x.res == nil {
			// No exercises (any more): on to the next chapter.
			r.remember(c, 0)
			r.finishChapter(c)
			continue
		}
		e, found := x.find(pos.Exercise)
		if !found {
			if e, found = x.next(); !found {
				e, _ = x.find(1)
			}
			r.remember(c, e.ID)
		}
		if x.res.Build == "" && e.Status == progress.Pass {
			// Passed: say so, and move on to the next exercise.
			moved = fmt.Sprintf("Exercise %d of %s passes. On to the next one.", e.ID, c.Name)
			next, ok := x.next()
			if !ok {
				moved = fmt.Sprintf("Exercise %d passes, and with it every exercise of %s.", e.ID, c.Name)
				r.remember(c, 0)
				r.finishChapter(c)
				continue // the next chapter needs a run of its own
			}
			r.remember(c, next.ID)
			e = next
		}
		if x.res.Build == "" && e.Status == progress.Blocked {
			// Its scenarios stop at another exercise first: that one is
			// the way forward.
			if b, ok := x.find(e.Blocker); ok && e.BlockerChapter == c.Name && b.ID != e.ID {
				note := fmt.Sprintf("Exercise %d of %s cannot pass before exercise %d: its scenarios stop there first. On to exercise %d.", e.ID, c.Name, b.ID, b.ID)
				if moved != "" {
					moved += "\n" + note
				} else {
					moved = note
				}
				r.remember(c, b.ID)
				e = b
			}
		}
		elsewhere := r.checkSaved(saved, c)
		saved = nil
		runs++
		r.draw(runs, func() {
			for _, o := range elsewhere {
				r.savedReport(o)
			}
			if moved != "" {
				for _, line := range strings.Split(moved, "\n") {
					r.say("", r.paint(green, line))
				}
				r.printf("\n")
				moved = ""
			}
			r.printf("%s  %s\n\n", c.Name, Bar(x.done(), x.total(), 20))
			r.row(x, e)
			r.printf("\n")
			if x.res.Build != "" {
				r.buildFailed(x)
			} else {
				_ = r.explain(x, e)
			}
			r.printf("\n")
			r.say("", fmt.Sprintf("Watching %s/%s and every other chapter's %s/: save a file to run again. Press Ctrl-C to stop.", c.Name, exgen.ExerciseDir, exgen.ExerciseDir))
		})
		if saved, err = r.waitForChange(ctx, before, poll); err != nil {
			return nil // ctx is done: stopping is not an error
		}
	}
}

// savedCheck is a chapter you saved in while watch was on another one:
// its result, and the exercises that passed before the save and no
// longer do.
type savedCheck struct {
	x    *result
	lost []int
}

// checkSaved runs the chapters named in saved, other than the one watch
// is on, and compares each with what passed when it was last checked
// (State.Passed), which it then updates.
func (r *Runner) checkSaved(saved []string, on chapters.Chapter) []savedCheck {
	var out []savedCheck
	for _, name := range saved {
		if name == on.Name {
			continue
		}
		c, err := r.chapter(name)
		if err != nil {
			continue
		}
		x, err := r.check(c)
		if err != nil || x.res == nil {
			continue
		}
		s := LoadState(r.Root)
		var now, lost []int
		for _, e := range x.res.Exercises {
			if x.res.Build == "" && e.Status == progress.Pass {
				now = append(now, e.ID)
			}
		}
		for _, id := range s.Passed[c.Name] {
			if !slices.Contains(now, id) {
				lost = append(lost, id)
			}
		}
		s.Passed[c.Name] = now
		_ = s.Save(r.Root) // a convenience: not worth stopping for
		out = append(out, savedCheck{x: x, lost: lost})
	}
	return out
}

// failing lists the exercises of a result that fail: written, and wrong.
func failing(x *result) []int {
	var ids []int
	for _, e := range x.res.Exercises {
		if e.Status == progress.Fail {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// savedReport says how a chapter you saved in stands: red, with the
// exercises that stopped passing, when your change broke one.
func (r *Runner) savedReport(o savedCheck) {
	x := o.x
	where := fmt.Sprintf("You saved in %s/%s:", x.c.Name, exgen.ExerciseDir)
	failed := failing(x)
	switch {
	case x.res.Build != "":
		r.say("", r.paint(red, where+" it does not compile now."))
		r.next("Next: fix it there; this shows the errors:", r.cmd("check", x.c.Number()))
	case len(o.lost) > 0 || len(failed) > 0:
		lost := o.lost
		if len(lost) > 0 {
			r.say("", r.paint(red, fmt.Sprintf("%s %s passed before this change and %s not now.", where, exercisesNamed(lost), map[bool]string{true: "does", false: "do"}[len(lost) == 1])))
		} else {
			// Failing, though not known to have passed before (a reset
			// or a restore since: trial S's broken exercise 2 read "none
			// that passed before has stopped").
			lost = failed
			r.say("", r.paint(red, fmt.Sprintf("%s %s %s now.", where, exercisesNamed(lost), map[bool]string{true: "fails", false: "fail"}[len(lost) == 1])))
		}
		for _, e := range x.res.Exercises {
			if slices.Contains(lost, e.ID) {
				r.row(x, e)
			}
		}
		// Why, for the first of them, as check says it: the run that
		// found it has the report, so no second run is needed to see it.
		e, _ := x.find(lost[0])
		if e.Status == progress.Blocked && e.BlockerChapter == x.c.Name {
			e, _ = x.find(e.Blocker) // the failure in the way is the one to see
		}
		if hasReport(e) {
			r.printf("\n")
			r.failure(x, e)
			r.next("Next: fix it; this runs again when you save. The same, on its own:", r.checkCmd(x.c, e.ID))
			r.printf("\n")
			return
		}
		r.next("Next: see why there:", r.checkCmd(x.c, lost[0]))
	default:
		r.say("", fmt.Sprintf("%s %d of %d exercises pass, and none that passed before has stopped.", where, x.done(), x.total()))
	}
	r.printf("\n")
}

// draw starts a fresh screen (or, off a terminal, a separator line) and
// prints one run's result.
func (r *Runner) draw(run int, body func()) {
	if r.Clear {
		r.printf("\x1b[H\x1b[2J")
	} else if run > 1 {
		r.printf("\n%s\n\n", strings.Repeat("-", Width))
	}
	r.printf("%s\n\n", r.paint(bold, fmt.Sprintf("workshop watch: run %d at %s%s", run, r.clock().Format("15:04:05"), r.mineNote())))
	body()
}

// watchTarget is the exercise to watch: the current one from the state
// file, else the first exercise of the first chapter with exercises; nil
// when the current one was the last.
func (r *Runner) watchTarget() (*Position, error) {
	s := LoadState(r.Root)
	list, err := chapters.All(r.Root)
	if err != nil {
		return nil, err
	}
	withExercises := func(c chapters.Chapter) bool {
		ex, _ := exgen.Exercises(c.Dir)
		return len(ex) > 0
	}
	if s.Current != nil {
		for i, c := range list {
			if c.Name != s.Current.Chapter {
				continue
			}
			if s.Current.Exercise > 0 {
				return s.Current, nil
			}
			// Chapter finished: the first exercise of the next chapter.
			for _, later := range list[i+1:] {
				if withExercises(later) {
					return &Position{Chapter: later.Name, Exercise: 1}, nil
				}
			}
			return nil, nil
		}
	}
	for _, c := range list {
		if withExercises(c) {
			return &Position{Chapter: c.Name, Exercise: 1}, nil
		}
	}
	return nil, fmt.Errorf("no chapter has exercises yet")
}

// finishChapter moves the current exercise to the next chapter's first.
func (r *Runner) finishChapter(c chapters.Chapter) {
	list, _ := chapters.All(r.Root)
	for _, later := range list {
		if later.Name <= c.Name {
			continue
		}
		if ex, _ := exgen.Exercises(later.Dir); len(ex) > 0 {
			r.remember(later, 1)
			return
		}
	}
}

// waitForChange polls until some chapter's fingerprint differs from
// before, and returns the chapters that changed.
func (r *Runner) waitForChange(ctx context.Context, before map[string]string, poll time.Duration) ([]string, error) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
			var changed []string
			for name, sum := range r.fingerprints() {
				if before[name] != sum {
					changed = append(changed, name)
				}
			}
			if len(changed) > 0 {
				sort.Strings(changed)
				return changed, nil
			}
		}
	}
}

// fingerprints hashes, per chapter, the names and contents of the files
// in its exercise/ directory.
func (r *Runner) fingerprints() map[string]string {
	sums := map[string]string{}
	list, _ := chapters.All(r.Root)
	for _, c := range list {
		sums[c.Name] = fingerprint(c)
	}
	return sums
}

// fingerprint hashes the names and contents of the files in c's
// exercise/ directory. Contents, not modification times: some filesystems
// keep times to the second or two, and a quick second save must still
// count.
func fingerprint(c chapters.Chapter) string {
	h := sha256.New()
	dir := filepath.Join(c.Dir, exgen.ExerciseDir)
	var paths []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		fmt.Fprintf(h, "%s\x00", p)
		io.Copy(h, f)
		f.Close()
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}
