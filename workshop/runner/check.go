package runner

import (
	"fmt"
	"strings"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
	"example.com/walkthrough/workshop/scenario"
)

// Check runs a chapter's scenarios against your copy and prints each
// exercise's state; for every exercise that fails, the harness's report of
// the first step that diverged, with the hint; then the next step. With
// id > 0 it shows that exercise alone. chapter "" is the chapter you are on.
// It returns ErrNotAllPass when what it shows does not all pass.
func (r *Runner) Check(chapter string, id int) error {
	c, err := r.currentChapter(chapter)
	if err != nil {
		return err
	}
	if err := r.chooseFirst(c); err != nil {
		return err
	}
	if id > 0 {
		if _, err := exercise(c, id); err != nil {
			return err
		}
	}
	x, err := r.checkOnly(c, id)
	if err != nil {
		return err
	}
	if x.res == nil {
		r.say("", fmt.Sprintf("%s has no exercises yet. Next: read its doc in %s.", c.Name, docOf(r.Root, c.Name)))
		return nil
	}
	if x.notReady() && x.res.Build == "" {
		r.next(fmt.Sprintf("%s is not ready: %s. It may still be being written. Next: go on with another chapter; status lists them:", c.Name, x.notReadyWhy()), r.cmd("status"))
		return ErrNotAllPass
	}
	if full := DiskFull(x.res.Build); full != "" {
		r.printf("%s\n", full)
		return ErrNotAllPass
	}
	if x.notReady() {
		r.printf("%s does not build yet, and the errors are not in your copy:\n\n%s\n\n", c.Name, indent(x.res.Build, "  "))
		r.next("The chapter may still be being written. Next: go on with another chapter; status lists them:", r.cmd("status"))
		return ErrNotAllPass
	}
	if x.mine != nil {
		r.mineSay(x)
	}
	if x.res.Only > 0 {
		// Only this exercise's checks ran: no count of the others.
		r.printf("%s, exercise %d alone (check %s shows them all):\n\n", c.Name, id, c.Number())
	} else {
		r.printf("%s: %d of %d exercises pass  %s\n", c.Name, x.done(), x.total(), Bar(x.done(), x.total(), 20))
		if len(x.res.Outside) > 0 {
			// Trial Y read "16 of 16 exercises pass" above a failure.
			r.say("", "But checks fail on your code outside the exercises: see Outside: below.")
		}
		if note := x.waitingNote(); note != "" {
			r.say("", note)
		}
		r.printf("\n")
	}
	r.announce(x)
	for _, e := range x.res.Exercises {
		if id == 0 || e.ID == id {
			r.row(x, e)
		}
	}
	if id == 0 {
		r.offTrackNote(x)
	}
	r.printf("\n")
	r.unreleased(x)
	r.givenChanged(x)
	r.unsteady(x)
	r.outside(x)
	if x.res.Build != "" {
		r.buildFailed(x)
		return ErrNotAllPass
	}
	if id > 0 {
		e, ok := x.find(id)
		if !ok {
			// A deep exercise, written for you on the core track.
			r.next(fmt.Sprintf("Exercise %d is on the deep track: the core track writes it for you, and it passes. Next: take the deep track on, or go on with the core exercises:", id),
				r.cmd("deep", c.Number()), r.cmd("check", c.Number()))
			return nil
		}
		if e.Status != progress.Pass {
			r.remember(c, id)
		}
		if len(x.res.Outside) > 0 && e.Status == progress.Pass {
			r.outsideNext(x) // the failure shown is outside every exercise
			return ErrNotAllPass
		}
		return r.explain(x, e)
	}
	failed := false
	printed := map[string]bool{}
	for _, e := range x.res.Exercises {
		if hasReport(e) && !printed[e.Test] {
			printed[e.Test] = true // a scenario that checks two exercises reports once
			r.failure(x, e)
			if e.Status == progress.Fail {
				// The 07 trial's window off by one showed a stress
				// test's symptom; the check that names the bug was among
				// these, seen only under check 07 8.
				r.alsoFailingOwn(e)
			}
			failed = true
		}
	}
	e, ok := x.next()
	if len(x.res.Outside) > 0 {
		r.remember(c, e.ID)
		r.outsideNext(x)
		return ErrNotAllPass
	}
	if !ok {
		r.remember(c, 0)
		r.allPass(x)
		return nil
	}
	r.remember(c, e.ID)
	switch {
	case failed:
		for _, f := range x.res.Exercises {
			if f.Status == progress.Fail {
				r.fixNext(x, f)
				break
			}
		}
	case e.Status == progress.Blocked && e.BlockerChapter != c.Name:
		r.nextElsewhere(x, e)
	default:
		r.nextExercise(x, e)
	}
	return ErrNotAllPass
}

// buildFailed shows the compiler's errors and the check to run again: the
// same one (trial R, after check 05 2, was told to run check 05).
func (r *Runner) buildFailed(x *result) {
	r.printf("Your copy of %s does not compile:\n\n%s\n\n", x.c.Name, indent(x.res.Build, "  "))
	again := r.cmd("check", x.c.Number())
	if x.res.Only > 0 {
		again = r.checkCmd(x.c, x.res.Only)
	}
	r.next(fmt.Sprintf("Next: fix the error above in %s/%s, then run:", x.c.Name, exgen.ExerciseDir), again)
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n"+prefix)
}

// fixNext is the next step after a failure's report: fix that exercise,
// in its file, and check it alone.
func (r *Runner) fixNext(x *result, e progress.Exercise) {
	r.next(fmt.Sprintf("Next: fix exercise %d, %s (%s), then check it again:", e.ID, strings.TrimSuffix(e.Title, "."), x.filesOf(e)),
		r.checkCmd(x.c, e.ID), r.cmd("hint", x.c.Number(), fmt.Sprint(e.ID)))
}

// nextElsewhere points at the real blocker when the next exercise waits
// for an unfinished exercise of one of your earlier chapters (--mine).
func (r *Runner) nextElsewhere(x *result, e progress.Exercise) {
	c, err := r.chapter(e.BlockerChapter)
	if err != nil {
		r.nextExercise(x, e)
		return
	}
	b, err := exercise(c, e.Blocker)
	if err != nil {
		r.nextExercise(x, e)
		return
	}
	r.say("Next: ", fmt.Sprintf("exercise %d of %s, %s (%s). Exercise %d here runs on your %s and waits for it.",
		b.ID, c.Name, strings.TrimSuffix(b.Title, "."), exerciseFile(c, b), e.ID, c.Name))
	r.sayHint("Hint: ", c.Name, b.ID, b.Hint)
	r.printf("\n")
	r.next("Check it in its own chapter, or check this one without --mine meanwhile:",
		Cmd+" check "+c.Number()+" "+fmt.Sprint(b.ID), Cmd+" check "+x.c.Number())
}

// explain prints one exercise's report or next step.
func (r *Runner) explain(x *result, e progress.Exercise) error {
	switch e.Status {
	case progress.Pass:
		r.next(fmt.Sprintf("Exercise %d passes. Next: compare yours with the reference:", e.ID), r.cmd("solution", x.c.Number(), fmt.Sprint(e.ID)))
		if others := x.failingOthers(e.ID); x.res.Only > 0 && len(others) > 0 {
			// check NN N runs only exercise N's checks, yet they run
			// other exercises' code too: say what they found there
			// (the 01 trial learned of two failures a check later).
			r.next(fmt.Sprintf("Its checks also failed in your code of %s; to see why:", exercisesNamed(others)), r.checkCmd(x.c, others[0]))
			return nil // that is the next step (the 03 trial was then sent on to exercise 1, which passed)
		}
		var n progress.Exercise
		var ok bool
		if x.res.Only > 0 {
			// check NN N ran only exercise N's checks, so the others'
			// results are partial: go on with the next exercise in
			// order that is not known to pass.
			n, ok = x.nextInOrder(e.ID, LoadState(r.Root).Passed[x.c.Name])
		} else {
			n, ok = x.next()
		}
		switch {
		case ok:
			r.next(fmt.Sprintf("Then go on with exercise %d:", n.ID), r.checkCmd(x.c, n.ID))
		case x.res.Only > 0:
			// Each exercise passed its own checks; the whole chapter's
			// run judges them together (the 03 trial was left at the
			// solution of its last one).
			r.next("Each exercise has passed its own checks. Now check the whole chapter, which judges them together:", r.cmd("check", x.c.Number()))
		}
		return nil
	case progress.Fail:
		if !hasReport(e) {
			r.nextExercise(x, e)
			break
		}
		r.failure(x, e)
		r.alsoFailingOwn(e)
		r.alsoFailing(x, e.ID, e.Test)
		r.fixNext(x, e)
	case progress.Blocked:
		if e.BlockerChapter != x.c.Name {
			r.next(fmt.Sprintf("Exercise %d cannot pass yet: it runs on your own %s, whose exercise %d is not done. Next: finish that one, or check without --mine:", e.ID, e.BlockerChapter, e.Blocker), Cmd+" check "+x.c.Number()+" "+fmt.Sprint(e.ID))
			break
		}
		if b, ok := x.find(e.Blocker); ok && hasReport(b) {
			// Not a stub in the way: code of yours that fails.
			r.say("", fmt.Sprintf("Exercise %d cannot pass yet: its checks fail in your code of exercise %d:", e.ID, b.ID))
			r.printf("\n")
			r.failure(x, b)
			r.next(fmt.Sprintf("Next: fix exercise %d, then check this one again:", b.ID), r.checkCmd(x.c, b.ID), r.checkCmd(x.c, e.ID))
			break
		}
		r.next(fmt.Sprintf("Exercise %d cannot pass yet: its scenarios stop at exercise %d first. Next: do exercise %d:", e.ID, e.Blocker, e.Blocker), r.checkCmd(x.c, e.Blocker))
	default:
		r.nextExercise(x, e)
	}
	return ErrNotAllPass
}

// alsoFailing shows, after exercise id's failure, the other failures of
// the run that are put on other exercises' code: check NN N runs only
// exercise N's checks, so each is one of them, and a count of passing
// checks with one failure shown would hide the rest.
func (r *Runner) alsoFailing(x *result, id int, shown string) {
	printed := map[string]bool{shown: true}
	for _, f := range x.res.Exercises {
		if x.res.Only == 0 || f.ID == id || !hasReport(f) || printed[f.Test] {
			continue
		}
		printed[f.Test] = true
		r.say("", fmt.Sprintf("Also failing among these checks, in your code of exercise %d:", f.ID))
		r.printf("\n")
		r.failure(x, f)
	}
}

// hasReport says whether e failed with a report to show: a stub not done
// yet, or a failure with nothing to say, has none.
func hasReport(e progress.Exercise) bool {
	return e.Status == progress.Fail && strings.TrimSpace(e.Report) != ""
}

// mostNamed is how many checks a list names before "and N more".
const mostNamed = 8

// fewNames lists names, the first mostNamed of them and how many more
// (trial T read thirty test names in one "Also failing" line).
func fewNames(names []string) string {
	if len(names) <= mostNamed+1 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:mostNamed], ", "), len(names)-mostNamed)
}

// alsoFailingOwn names the other checks that failed on an exercise's
// code, under the one shown.
func (r *Runner) alsoFailingOwn(e progress.Exercise) {
	if len(e.AlsoFailing) > 0 {
		r.say("", fmt.Sprintf("Also failing on your code of exercise %d (each shows its report once the one above passes): %s.", e.ID, fewNames(e.AlsoFailing)))
		r.printf("\n")
	}
	if len(e.LeftOut) > 0 {
		// Where a check of this exercise got stuck, which need not be the
		// one shown above (trial Y read "the check above is stuck" under
		// a check that was not).
		what := "Not run, as they would wait where a check of this exercise got stuck (they run once it passes): %s."
		if len(e.LeftOut) == 1 {
			what = "Not run, as it would wait where a check of this exercise got stuck (it runs once that one passes): %s."
		}
		r.say("", fmt.Sprintf(what, fewNames(e.LeftOut)))
		r.printf("\n")
	}
}

// failure shows a failure: its report, then whose code it is put on.
func (r *Runner) failure(x *result, e progress.Exercise) {
	r.printf("%s\n", report(e.Report))
	r.blameNote(x, e)
	r.printf("\n")
}

// blameNote says, under a failure's report, whose code it is put on and
// that exercise's hint: the runner finds the exercise whose code made the
// check fail, which need not be the one the check is tagged with.
func (r *Runner) blameNote(x *result, e progress.Exercise) {
	where := fmt.Sprintf("Exercise %d (%s): %s", e.ID, x.filesOf(e), strings.TrimSuffix(e.Title, "."))
	switch e.Located {
	case progress.ByFrames:
		where += ". The failure comes from your code of it: the place shown above is in it."
	case progress.OnlySuspect:
		where += ". Of the exercises this check runs, it is the only one whose code differs from the reference's."
	case progress.BySwap:
		where += ". The failure comes from your code of it: with the reference's in its place, this check passes."
	case progress.Flaky:
		where += ". It is the exercise this check is for; no swap could say whose code fails it, as it fails only sometimes."
	case progress.Likely:
		where += ". The failure most likely comes from your code of it: this check fails only sometimes, and checks that fail every time were proved to fail on your code of it."
	case progress.Unproved:
		where += ". Not proved: with the reference's code in place of every exercise, this check passes, but no swap of one exercise alone made it pass"
		if others := without(e.Suspects, e.ID); len(others) > 0 {
			where += fmt.Sprintf(". It also runs your code of %s, which may be where it diverges, or where it diverges too", exercisesNamed(others))
		}
		where += "."
	case progress.WaitsLike:
		where += ". This check was not run, as it would wait where a stuck check did, and that check fails on your code of it."
	case progress.FlakyBySwap:
		where += ". The failure comes from your code of it: the check fails only sometimes, and with the reference's in its place it passed"
		if e.SwapRuns > 0 {
			where += fmt.Sprintf(" %d runs out of %d", e.SwapRuns, e.SwapRuns)
		} // else no swap run was counted (trial S read "passed 0 runs out of 0")
		if e.SwapWanted > e.SwapRuns {
			// A slow check, rerun as often as time allows: a rare
			// failure could pass that many by luck.
			where += fmt.Sprintf(", fewer than the %d that would rule out luck: likely, not proved. If your code of it looks right, look at the others this check runs", e.SwapWanted)
		}
		where += "."
	}
	if others := without(e.Runs, e.ID); e.Located == progress.NotLocated && len(others) > 0 {
		where += fmt.Sprintf(". This check also runs your code of %s, which may be where it diverges.", exercisesNamed(others))
	}
	r.say("  Blame:    ", where)
	if what := funcLine(x.c, e); what != "" {
		r.say("  Function: ", what)
	}
	r.sayHint("  Hint:     ", x.c.Name, e.ID, e.Hint)
}

// funcLine is what the function the failure was put on does, as its stub
// says: the exercise's hint speaks of the whole exercise, which may be a
// dozen functions.
//
// A function found by swapping bodies (trial H: a bug in 02's first deep
// exercise, twelve functions in three files, was put on the exercise
// only) says how it was found.
func funcLine(c chapters.Chapter, e progress.Exercise) string {
	if e.Func == "" || e.Located != progress.ByFrames && e.FuncProof == progress.FuncByFrames {
		return ""
	}
	lines, err := exgen.FuncLines(c.Dir)
	if err != nil || lines[e.Func] == "" {
		return ""
	}
	// "start registers …" reads "Cache.start registers …".
	what := lines[e.Func]
	short := e.Func[strings.LastIndex(e.Func, ".")+1:]
	line := e.Func + ": " + what
	if rest, ok := strings.CutPrefix(what, short+" "); ok {
		line = e.Func + " " + rest
	}
	switch e.FuncProof {
	case progress.FuncOnlyChanged:
		line += " It is the only function of the exercise whose body is not the reference's."
	case progress.FuncBySwap:
		line += " With the reference's body of it alone in its place, this check passes."
	case progress.FuncBySwapOfOthers:
		line += " With the reference's body of it alone in its place, the checks of this exercise that fail every time pass."
	case progress.FuncFurther:
		line += " With the reference's body of it alone in its place, this check gets past the step where yours diverged (it fails further on, in another function of yours)."
	case progress.FuncByOthers:
		line += " With the reference's body of it alone in its place, the quicker checks of this exercise that fail pass or get further (this one, slower, was not rerun)."
	case progress.FuncNeeded:
		line += " With the reference's bodies of it and of other functions of the exercise, this check passes; with the others' alone, it still fails."
	}
	return line
}

// without is ids less id.
func without(ids []int, id int) []int {
	var out []int
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

func (r *Runner) nextExercise(x *result, e progress.Exercise) {
	r.say("Next: ", fmt.Sprintf("exercise %d, %s (%s).", e.ID, strings.TrimSuffix(e.Title, "."), exerciseFile(x.c, e.Exercise)))
	r.sayHint("Hint: ", x.c.Name, e.ID, e.Hint)
	r.printf("\n")
	if r.watching {
		r.next("Save your change and this runs again. Stuck? In another terminal, ask for a deeper hint:",
			r.cmd("hint", x.c.Number(), fmt.Sprint(e.ID)))
		return
	}
	r.next("When you have changed it, check it again, or let watch re-run it every time you save. Ask for a hint if you are stuck:",
		r.checkCmd(x.c, e.ID), r.cmd("watch"), r.cmd("hint", x.c.Number(), fmt.Sprint(e.ID)))
}

func (r *Runner) allPass(x *result) {
	c, offTrack := x.c, x.offTrack
	if len(x.res.Unreleased) > 0 {
		// No check takes that path, but a learner reading "Every
		// exercise passes" goes on (the 03 blank trial's ByIndex kept
		// its read lock on an error return).
		r.say("", fmt.Sprintf("Every check of %s passes, but the warning above is a bug no check took: a caller that comes that way hangs the next one.", c.Name))
		r.next("Next: let go of the lock on that path (a defer right after the Lock does it on every path), then check again:", r.cmd("check", c.Number()))
		return
	}
	r.say("", fmt.Sprintf("Every exercise of %s passes.", c.Name))
	if offTrack > 0 {
		// The core track is done: its deep exercises are the way on in
		// this chapter, before the next one.
		r.next(fmt.Sprintf("Next: take on its %s (its locking, loops and lifecycles), or go on to the next chapter:", countOf(offTrack, "deep exercise")),
			r.cmd("deep", c.Number()), r.nextChapterCheck(c))
		return
	}
	if later, ok := r.nextChapter(c); ok {
		r.next(fmt.Sprintf("Next: read %s, then start its exercises:", docOf(r.Root, later.Name)), r.cmd("check", later.Number()))
		return
	}
	r.next("Next: compare your exercises with the reference, one at a time (here the first), or see everything:", r.cmd("solution", c.Number(), "1"), r.cmd("status"))
}

// nextChapter is the first chapter after c with exercises.
func (r *Runner) nextChapter(c chapters.Chapter) (chapters.Chapter, bool) {
	list, _ := chapters.All(r.Root)
	for _, later := range list {
		if later.Name <= c.Name {
			continue
		}
		if ex, _ := exgen.Exercises(later.Dir); len(ex) > 0 {
			return later, true
		}
	}
	return chapters.Chapter{}, false
}

// nextChapterCheck is the command that checks the chapter after c, or
// status after the last.
func (r *Runner) nextChapterCheck(c chapters.Chapter) string {
	if later, ok := r.nextChapter(c); ok {
		return r.cmd("check", later.Number())
	}
	return r.cmd("status")
}

// currentChapter is the chapter named, or else the one you are on: the
// chapter of the current exercise, or else the first with exercises.
func (r *Runner) currentChapter(arg string) (chapters.Chapter, error) {
	if arg != "" {
		return r.chapter(arg)
	}
	if s := LoadState(r.Root); s.Current != nil {
		if c, err := r.chapter(s.Current.Chapter); err == nil {
			return c, nil
		}
	}
	list, err := chapters.All(r.Root)
	if err != nil {
		return chapters.Chapter{}, err
	}
	for _, c := range list {
		if ex, _ := exgen.Exercises(c.Dir); len(ex) > 0 {
			return c, nil
		}
	}
	return chapters.Chapter{}, fmt.Errorf("no chapter has exercises yet")
}

// mineSay says which earlier chapters a --mine check ran on are yours.
func (r *Runner) mineSay(x *result) {
	if x.mine.empty() {
		r.say("", fmt.Sprintf("%s builds on no earlier chapter, so --mine changes nothing here.", x.c.Name))
	} else {
		x.mine.say(r)
	}
	r.printf("\n")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// report is the harness's failure report of a scenario without what came
// before it (datadriven echoes the steps it ran), which only repeats the
// step the report shows.
func report(out string) string {
	if loc := scenario.StepReport.FindStringIndex(out); loc != nil {
		out = out[loc[0]:]
	}
	out = strings.Trim(out, "\n")
	// The first line names the step's file and line; past Width, the rest
	// of it goes on a line of its own.
	first, rest, _ := strings.Cut(out, "\n")
	if len(first) > Width {
		if where, what, ok := strings.Cut(first, ": step "); ok {
			first = where + ":\nstep " + what
		}
	}
	if rest == "" {
		return first
	}
	return first + "\n" + rest
}

// givenChanged says which functions outside the exercises your copy
// changed (progress.Chapter.Given). When a check fails: the runner tries
// it with the generated code of those in place of yours too. When all
// pass: the checks are written for the exercises, and may not hold what
// that code must (the 02 trial's IsClosed without its lock passed unsaid).
func (r *Runner) givenChanged(x *result) {
	if len(x.res.Given) == 0 {
		return
	}
	if x.done() == x.total() {
		r.say("Note:     ", fmt.Sprintf("your copy changes code outside the exercises: %s. The checks are written for the exercises and may not judge that code: compare it with the reference's, or put the reference's back.", strings.Join(x.res.Given, ", ")))
		r.printf("\n")
		return
	}
	r.say("Note:     ", fmt.Sprintf("your copy changes code outside the exercises: %s. A check that fails is also run with the generated code of it in place of yours: one that passes then is shown as failing on that code (Outside), not on an exercise.", strings.Join(x.res.Given, ", ")))
	r.printf("\n")
}

// unsteady shows the checks that failed now and then on your code and
// on the reference too (progress.Chapter.Unsteady): not your code's, so
// they are on no exercise's row; shown, so that a red run is explained.
func (r *Runner) unsteady(x *result) {
	for _, report := range x.res.Unsteady {
		r.printf("%s\n", strings.TrimRight(report, "\n"))
	}
	if len(x.res.Unsteady) > 0 {
		r.printf("\n")
	}
}

// unreleased warns of each function of yours that can return still
// holding a lock (progress.Chapter.Unreleased), passing checks or not.
func (r *Runner) unreleased(x *result) {
	for _, kept := range x.res.Unreleased {
		r.say("Warning:  ", kept.What+": a caller that comes this way leaves the lock held, and the next one waits for it forever, whether or not a check takes this path.")
		r.printf("          %s\n", kept.Where)
	}
	if len(x.res.Unreleased) > 0 {
		r.printf("\n")
	}
}
