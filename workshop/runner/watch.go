package runner

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
// editors that replace files) and needs nothing but Go. It stops when ctx
// is done.
func (r *Runner) Watch(ctx context.Context) error {
	poll := r.Poll
	if poll <= 0 {
		poll = 500 * time.Millisecond
	}
	r.watching = true
	defer func() { r.watching = false }()
	runs := 0
	var moved string // what the last run moved on from, said on the next draw
	for {
		pos, err := r.watchTarget()
		if err != nil {
			return err
		}
		before := r.fingerprint()
		runs++
		if pos == nil {
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
		r.draw(runs, func() {
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
			r.say("", fmt.Sprintf("Watching %s/%s: save a file to run again. Press Ctrl-C to stop.", c.Name, exgen.ExerciseDir))
		})
		if err := r.waitForChange(ctx, before, poll); err != nil {
			return nil // ctx is done: stopping is not an error
		}
	}
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

// waitForChange polls until the fingerprint differs from before.
func (r *Runner) waitForChange(ctx context.Context, before string, poll time.Duration) error {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			if r.fingerprint() != before {
				return nil
			}
		}
	}
}

// fingerprint hashes the names and contents of the files in every
// chapter's exercise/ directory. Contents, not modification times: some
// filesystems keep times to the second or two, and a quick second save
// must still count.
func (r *Runner) fingerprint() string {
	h := sha256.New()
	list, _ := chapters.All(r.Root)
	for _, c := range list {
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
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}
