package runner

import (
	"fmt"
	"slices"
	"strings"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
)

// label is how an exercise's state reads in a list, and a note after its
// title.
func (r *Runner) label(x *result, e progress.Exercise) (string, string) {
	if x.res.Build != "" {
		return r.paint(red, fmt.Sprintf("%-11s", "no build")), ""
	}
	switch e.Status {
	case progress.Pass:
		if len(e.WaitsFor) > 0 {
			return r.paint(green, fmt.Sprintf("%-11s", "pass")), soFarNote(e.WaitsFor)
		}
		return r.paint(green, fmt.Sprintf("%-11s", "pass")), ""
	case progress.Fail:
		return r.paint(red, fmt.Sprintf("%-11s", "fail")), partial(e)
	case progress.NotStarted:
		if stubs := x.stubs[e.ID]; len(stubs) > 0 {
			// Begun, but a check stopped at one of its own stubs.
			return r.paint(yellow, fmt.Sprintf("%-11s", "unfinished")), stubsNote(stubs)
		}
		return fmt.Sprintf("%-11s", "not started"), ""
	case progress.Blocked:
		if x.fresh[e.ID] {
			return fmt.Sprintf("%-11s", "not started"), fmt.Sprintf("(waits for %s)", blockerName(x, e))
		}
		// What already passes counts, even while another exercise is in
		// the way of the rest.
		note := fmt.Sprintf("(waits for %s)", blockerName(x, e))
		if passing := passCount(e); passing != "" {
			note = fmt.Sprintf("(%s; the rest wait for %s)", passing, blockerName(x, e))
		}
		return r.paint(yellow, fmt.Sprintf("%-11s", "blocked")), note
	}
	return fmt.Sprintf("%-11s", e.Status.String()), "(no scenario checks it)"
}

// partial says how much of a failing exercise already passes.
func partial(e progress.Exercise) string {
	if passing := passCount(e); passing != "" {
		return "(" + passing + ")"
	}
	return ""
}

// passCount is "2 of 5 checks pass", or "" when none passes or there is
// only one check.
func passCount(e progress.Exercise) string {
	if e.Passing == 0 || e.Checked < 2 {
		return ""
	}
	return fmt.Sprintf("%d of %d checks pass", e.Passing, e.Checked)
}

// row prints one exercise's line.
func (r *Runner) row(x *result, e progress.Exercise) {
	label, note := r.label(x, e)
	text := e.Title
	if e.Track == exgen.TrackDeep {
		text = "[deep] " + text
	}
	if note != "" {
		text += " " + note
	}
	// The label is 11 columns however it is painted.
	prefix := fmt.Sprintf("  %s %2d  ", label, e.ID)
	pad := strings.Repeat(" ", 18)
	wrapped := Wrap(pad, text, Width)
	fmt.Fprintln(r.Out, prefix+strings.TrimPrefix(wrapped, pad))
}

// header prints a chapter's name and bar.
func (r *Runner) header(x *result) {
	if x.res == nil {
		r.printf("%-16s no exercises yet\n", x.c.Name)
		return
	}
	bar := Bar(x.done(), x.total(), 30)
	if x.done() == x.total() {
		bar = r.paint(green, bar)
	}
	note := ""
	if x.notReady() {
		r.say(fmt.Sprintf("%-16s ", x.c.Name), "not ready: "+x.notReadyWhy())
		return
	}
	if x.res.Build != "" {
		note = "  " + r.paint(red, "does not compile")
	}
	r.printf("%-16s %s%s\n", x.c.Name, bar, note)
}

// announce says which exercises pass now that did not at the last check,
// so the moment an exercise starts passing does not go by without a word.
// An exercise this check could not judge (blocked by another, or not
// checked) keeps what it had; one that passed before, failed and passes
// again is said to pass again, not to be new.
func (r *Runner) announce(x *result) {
	if x.res == nil || x.res.Build != "" {
		return
	}
	s := LoadState(r.Root)
	name := x.c.Name
	before, seen := s.Passed[name]
	var now []int
	var again, fresh []progress.Exercise
	for _, e := range x.res.Exercises {
		unjudged := e.Status == progress.Blocked || e.Status == progress.Unchecked || x.res.Only > 0 && e.ID != x.res.Only
		if unjudged && slices.Contains(before, e.ID) {
			now = append(now, e.ID)
		}
		if !unjudged && x.mine == nil && x.sum != "" {
			if e.Status == progress.Pass {
				s.PassedOn[hintKey(name, e.ID)] = x.sum
			} else {
				delete(s.PassedOn, hintKey(name, e.ID))
			}
		}
		if unjudged || e.Status != progress.Pass {
			continue
		}
		if p := x.res.Prints[e.ID]; p != "" {
			s.PassedPrints[hintKey(name, e.ID)] = p // the search tries changed code first (progress.Options.PassedPrints)
		}
		now = append(now, e.ID)
		switch {
		case !seen || slices.Contains(before, e.ID):
		case slices.Contains(s.Ever[name], e.ID):
			again = append(again, e)
		default:
			fresh = append(fresh, e)
		}
		if !slices.Contains(s.Ever[name], e.ID) {
			s.Ever[name] = append(s.Ever[name], e.ID)
			slices.Sort(s.Ever[name])
		}
	}
	r.passNew(fresh)
	r.passAgain(again)
	slices.Sort(now)
	s.Passed[name] = now
	_ = s.Save(r.Root) // a convenience: not worth stopping for
}

// passNew says which exercises pass for the first time: each by name
// when there are one or two, else in one line (trial T's first check of
// a finished chapter said "New: ... passes so far" fourteen times, above
// a table that says it again).
func (r *Runner) passNew(fresh []progress.Exercise) {
	if len(fresh) <= 2 {
		for _, e := range fresh {
			r.say("  ", r.paint(green, fmt.Sprintf("New: exercise %d passes%s.", e.ID, soFar(e))))
		}
		return
	}
	var ids, waits []int
	for _, e := range fresh {
		ids = append(ids, e.ID)
		for _, w := range e.WaitsFor {
			if !slices.Contains(waits, w) {
				waits = append(waits, w)
			}
		}
	}
	slices.Sort(waits)
	line := fmt.Sprintf("New: exercises %s pass.", andList(ids))
	if len(waits) > 0 {
		line = fmt.Sprintf("New: exercises %s pass, so far: checks that may run some of them too wait for %s.", andList(ids), exercisesNamed(waits))
	}
	r.say("  ", r.paint(green, line))
}

// passAgain says which exercises pass again: each by name when there are
// one or two, else in one line (the first check after a restore brought
// back fifteen, one line each).
func (r *Runner) passAgain(again []progress.Exercise) {
	if len(again) > 2 {
		ids := make([]int, len(again))
		for i, e := range again {
			ids[i] = e.ID
		}
		r.say("  ", r.paint(green, fmt.Sprintf("Exercises %s pass again.", andList(ids))))
		return
	}
	for _, e := range again {
		r.say("  ", r.paint(green, fmt.Sprintf("Exercise %d passes again%s.", e.ID, soFar(e))))
	}
}

// offTrackNote says how many deep exercises the core track leaves out,
// and how to take them on.
func (r *Runner) offTrackNote(x *result) {
	if x.offTrack > 0 {
		them := map[bool]string{true: "it", false: "them"}[x.offTrack == 1]
		r.say("                  ", fmt.Sprintf("+ %s, written for you on the core track (take %s on: %s)",
			countOf(x.offTrack, "deep exercise"), them, r.cmd("deep", x.c.Number())))
	}
}

// Status runs every chapter's scenarios against your copy, or chapter's
// alone when it is not "", and prints where you stand, then the next
// step. A chapter none of whose exercises is begun is not built.
func (r *Runner) Status(chapter string) error {
	list, err := chapters.All(r.Root)
	if chapter != "" {
		list, err = chapters.Find(r.Root, chapter)
	}
	if err != nil {
		return err
	}
	r.printf("%s\n\n", r.paint(bold, "Your progress"+r.mineNote()))
	r.reuse = true
	checked, errs := r.checkAll(list)
	var results []*result
	done, total := 0, 0
	for i, c := range list {
		x, err := checked[i], errs[i]
		if err != nil {
			// A chapter being written may not be ready; the others are.
			r.say(fmt.Sprintf("%-16s ", c.Name), "not ready: "+firstLine(err.Error()))
			r.printf("\n")
			continue
		}
		results = append(results, x)
		r.header(x)
		if x.mine != nil && !x.mine.empty() {
			r.say(fmt.Sprintf("%-16s ", ""), "(built "+x.mine.short()+")")
		}
		if x.res != nil && !x.notReady() {
			r.announce(x)
			for _, e := range x.res.Exercises {
				r.row(x, e)
			}
			r.offTrackNote(x)
		}
		r.printf("\n")
		if !x.notReady() {
			done, total = done+x.done(), total+x.total()
		}
	}
	if len(list) > 1 {
		r.printf("%-16s %s\n\n", "Overall", Bar(done, total, 30))
	}
	r.reusedNote(results)
	for _, x := range r.fromCurrent(results) {
		if x.notReady() {
			continue
		}
		if x.res != nil && x.res.Build != "" {
			r.buildFailed(x)
			return nil
		}
		if e, ok := x.next(); ok {
			r.remember(x.c, e.ID)
			if e.Status == progress.Blocked && e.BlockerChapter != x.c.Name {
				r.nextElsewhere(x, e)
				return nil
			}
			r.say("Next: ", fmt.Sprintf("exercise %d of %s, %s.", e.ID, x.c.Name, strings.TrimSuffix(e.Title, ".")))
			r.next(nextStep(x.c, e), r.checkCmd(x.c, e.ID), r.cmd("watch"))
			return nil
		}
	}
	if total == 0 {
		r.say("", "No chapter has exercises yet. Next: read docs/contributing.md to write one.")
		return nil
	}
	if chapter != "" {
		r.next(fmt.Sprintf("Every exercise of %s passes. Next: see where you stand in the others:", list[0].Name), r.cmd("status"))
		return nil
	}
	r.next("Every exercise passes. Next: see your own chapters work together, each built on your earlier ones:", Cmd+" status --mine")
	return nil
}

// nextStep says what to do with e, the next exercise: fill in its stubs,
// or fix code of yours that fails a check (trial X: status told a learner
// whose exercise 3 failed, with no stub left, to "fill in the function
// that panics").
func nextStep(c chapters.Chapter, e progress.Exercise) string {
	if e.Status == progress.Fail {
		return fmt.Sprintf("Your code of it in %s fails a check: check it to see where and why, then fix it. "+
			"Or let watch re-run it every time you save:", exerciseFile(c, e.Exercise))
	}
	return fmt.Sprintf("Open %s and fill in the function that panics. Then check it, or let watch re-run it every time you save:",
		exerciseFile(c, e.Exercise))
}

// reusedNote names the chapters status did not check again, since
// nothing they are judged on changed after their last whole check.
func (r *Runner) reusedNote(results []*result) {
	var names []string
	for _, x := range results {
		if x.res != nil && x.res.Reused {
			names = append(names, x.c.Name)
		}
	}
	if len(names) > 0 {
		r.say("", fmt.Sprintf("Unchanged since their last check, so not checked again: %s. To check one again: %s",
			strings.Join(names, ", "), r.cmd("check", "NN")))
		r.printf("\n")
	}
}

// fromCurrent orders the results for choosing the next step: the chapter
// you are working on first (the one you last checked), then the chapters
// after it, then the earlier ones, so finishing a chapter moves you on
// rather than back to the first unfinished one.
func (r *Runner) fromCurrent(results []*result) []*result {
	s := LoadState(r.Root)
	if s.Current == nil {
		return results
	}
	for i, x := range results {
		if x.c.Name == s.Current.Chapter {
			return append(append([]*result{}, results[i:]...), results[:i]...)
		}
	}
	return results
}

func (r *Runner) mineNote() string {
	if r.Mine {
		return " (on your own earlier chapters that pass)"
	}
	return ""
}

// remember makes an exercise the current one, for watch and for check
// without arguments. The state file is a convenience: failing to write it
// is not worth stopping for.
func (r *Runner) remember(c chapters.Chapter, id int) {
	s := LoadState(r.Root)
	s.Current = &Position{Chapter: c.Name, Exercise: id}
	_ = s.Save(r.Root)
}

// soFarNote follows a passing exercise's title in a list when checks
// that may run its code wait for other exercises.
func soFarNote(ids []int) string {
	return fmt.Sprintf("(so far: some checks wait for %s)", exercisesNamed(ids))
}

// soFar is the rest of the line that says exercise e passes: its title,
// and, when checks that may run its code wait for other exercises (the
// blame file says which run it; a test it does not know may run any),
// that it passes so far.
func soFar(e progress.Exercise) string {
	title := strings.TrimSuffix(e.Title, ".")
	if len(e.WaitsFor) == 0 {
		return fmt.Sprintf(" (%s)", title)
	}
	return fmt.Sprintf(" so far (%s): checks that may run it too wait for %s", title, exercisesNamed(e.WaitsFor))
}

// stubsNote names the functions of a begun exercise that are still
// stubs, by file.
func stubsNote(stubs []string) string {
	return "(still stubs in " + strings.Join(stubs, "; ") + ")"
}
