package runner

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
)

// result is one chapter's test result with what the runner adds to it.
type result struct {
	c   chapters.Chapter
	res *progress.Chapter // nil for a chapter without exercises
	// fresh[id] is true when every function of exercise id in your copy
	// is still the generated stub.
	fresh map[int]bool
	// offTrack counts the deep exercises left out of res: on the core
	// track their code is the reference, written for you.
	offTrack int
	// mine is what --mine built the chapter on (nil without --mine).
	mine *mineChoice
	// files[id] lists the files of exercise/ that hold exercise id's
	// functions, relative to the chapter, sorted.
	files map[int][]string
}

// notReady reports whether the chapter itself does not build, as opposed
// to your copy of it: its build errors name no file of exercise/. That
// happens to a chapter that is still being written.
func (x *result) notReady() bool { return x.notReadyWhy() != "" }

// notReadyWhy says why a chapter is not ready for you, or "" when it is:
// it does not build, with no error in exercise/, or no scenario checks any
// of its exercises yet.
func (x *result) notReadyWhy() string {
	if x.res == nil {
		return ""
	}
	if x.res.Build != "" {
		if strings.Contains(x.res.Build, exgen.ExerciseDir+"/") {
			return ""
		}
		return "it does not build yet (it may be being written)"
	}
	for _, e := range x.res.Exercises {
		if e.Status != progress.Unchecked {
			return ""
		}
	}
	return "no scenario checks its exercises yet"
}

func (x *result) total() int {
	if x.res == nil {
		return 0
	}
	return len(x.res.Exercises)
}

func (x *result) done() int {
	if x.res == nil || x.res.Build != "" {
		return 0
	}
	return x.res.Done()
}

// next is the exercise to work on: the first that fails or is not
// started; failing that, the blocker of the first blocked one. ok is false
// when every exercise passes (or the chapter has none).
func (x *result) next() (progress.Exercise, bool) {
	if x.res == nil {
		return progress.Exercise{}, false
	}
	for _, e := range x.res.Exercises {
		if e.Status == progress.Fail || e.Status == progress.NotStarted {
			return e, true
		}
	}
	for _, e := range x.res.Exercises {
		if e.Status == progress.Blocked {
			for _, b := range x.res.Exercises {
				if b.ID == e.Blocker && e.BlockerChapter == x.c.Name {
					return b, true
				}
			}
			return e, true
		}
	}
	return progress.Exercise{}, false
}

// nextInOrder is the first exercise after id that does not pass in this
// run and is not among passed, or else the first such before it.
func (x *result) nextInOrder(id int, passed []int) (progress.Exercise, bool) {
	if x.res == nil {
		return progress.Exercise{}, false
	}
	var before *progress.Exercise
	for i, e := range x.res.Exercises {
		if e.Status == progress.Pass || slices.Contains(passed, e.ID) {
			continue
		}
		if e.ID > id {
			return e, true
		}
		if before == nil {
			before = &x.res.Exercises[i]
		}
	}
	if before != nil {
		return *before, true
	}
	return progress.Exercise{}, false
}

func (x *result) find(id int) (progress.Exercise, bool) {
	if x.res != nil {
		for _, e := range x.res.Exercises {
			if e.ID == id {
				return e, true
			}
		}
	}
	return progress.Exercise{}, false
}

// check runs one chapter and works out which exercises you have not
// touched yet.
func (r *Runner) check(c chapters.Chapter) (*result, error) { return r.checkOnly(c, 0) }

// checkOnly is check that, for only > 0, runs just the tests that can
// judge that exercise: those tagged with it and those that run its code.
func (r *Runner) checkOnly(c chapters.Chapter, only int) (*result, error) {
	list, err := exgen.Exercises(c.Dir)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return &result{c: c}, nil
	}
	out := &result{c: c, fresh: map[int]bool{}, files: map[int][]string{}}
	gen, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return nil, err
	}
	for _, e := range list {
		parts, err := exgen.ExerciseParts(gen, e.ID)
		if err != nil || len(parts) == 0 {
			continue
		}
		fresh := true
		out.files[e.ID] = slices.Sorted(maps.Keys(parts))
		for name, keys := range parts {
			mine, err := os.ReadFile(filepath.Join(c.Dir, name))
			if err != nil || !exgen.Untouched(mine, gen[name], keys) {
				fresh = false
			}
		}
		out.fresh[e.ID] = fresh
	}
	deep := r.onDeepTrack(c, list, out.fresh)
	off := map[int]bool{}
	for _, e := range list {
		off[e.ID] = !deep && e.Track == exgen.TrackDeep
	}
	res, mine, err := r.run(c, func(id int) bool { return off[id] }, only)
	if err != nil {
		return nil, err
	}
	out.res, out.mine = res, mine
	if !deep {
		core := res.Exercises[:0:0]
		for _, e := range res.Exercises {
			// A deep exercise is written for you on the core track; it
			// is shown only when your changes to it make a check fail.
			if e.Track == exgen.TrackDeep && e.Status != progress.Fail {
				out.offTrack++
				continue
			}
			core = append(core, e)
		}
		res.Exercises = core
	}
	return out, nil
}

// checkAll checks chapters two at a time.
func (r *Runner) checkAll(list []chapters.Chapter) ([]*result, []error) {
	results := make([]*result, len(list))
	errs := make([]error, len(list))
	twoAtATime(len(list), func(i int) { results[i], errs[i] = r.check(list[i]) })
	return results, errs
}

// twoAtATime calls f(0) to f(n-1), two calls at a time: go test itself
// uses every core to build, and two runs overlap one's build with the
// other's tests.
func twoAtATime(n int, f func(int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for i := range work {
				f(i)
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

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
		return fmt.Sprintf("%-11s", "not started"), ""
	case progress.Blocked:
		if x.fresh[e.ID] {
			return fmt.Sprintf("%-11s", "not started"), fmt.Sprintf("(waits for %s)", blockerName(x, e))
		}
		return r.paint(yellow, fmt.Sprintf("%-11s", "blocked")), fmt.Sprintf("(waits for %s)", blockerName(x, e))
	}
	return fmt.Sprintf("%-11s", e.Status.String()), "(no scenario checks it)"
}

// partial says how much of a failing exercise already passes.
func partial(e progress.Exercise) string {
	if e.Passing == 0 || e.Checked < 2 {
		return ""
	}
	return fmt.Sprintf("(%d of %d checks pass)", e.Passing, e.Checked)
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
	for _, e := range x.res.Exercises {
		unjudged := e.Status == progress.Blocked || e.Status == progress.Unchecked || x.res.Only > 0 && e.ID != x.res.Only
		if unjudged && slices.Contains(before, e.ID) {
			now = append(now, e.ID)
		}
		if unjudged || e.Status != progress.Pass {
			continue
		}
		now = append(now, e.ID)
		switch {
		case !seen || slices.Contains(before, e.ID):
		case slices.Contains(s.Ever[name], e.ID):
			r.say("  ", r.paint(green, fmt.Sprintf("Exercise %d passes again%s.", e.ID, soFar(e))))
		default:
			r.say("  ", r.paint(green, fmt.Sprintf("New: exercise %d passes%s.", e.ID, soFar(e))))
		}
		if !slices.Contains(s.Ever[name], e.ID) {
			s.Ever[name] = append(s.Ever[name], e.ID)
			slices.Sort(s.Ever[name])
		}
	}
	slices.Sort(now)
	s.Passed[name] = now
	_ = s.Save(r.Root) // a convenience: not worth stopping for
}

// offTrackNote says how many deep exercises the core track leaves out,
// and how to take them on.
func (r *Runner) offTrackNote(x *result) {
	if x.offTrack > 0 {
		r.say("                  ", fmt.Sprintf("+ %d deep exercises, written for you on the core track (take them on: %s)",
			x.offTrack, r.cmd("deep", x.c.Number())))
	}
}

// Status runs every chapter's scenarios against your copy and prints
// where you stand, then the next step.
func (r *Runner) Status() error {
	list, err := chapters.All(r.Root)
	if err != nil {
		return err
	}
	r.printf("%s\n\n", r.paint(bold, "Your progress"+r.mineNote()))
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
	r.printf("%-16s %s\n\n", "Overall", Bar(done, total, 30))
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
			r.next(fmt.Sprintf("Open %s and fill in the function that panics. Then check it, or let watch re-run it every time you save:", exerciseFile(x.c, e.Exercise)),
				r.checkCmd(x.c, e.ID), r.cmd("watch"))
			return nil
		}
	}
	if total == 0 {
		r.say("", "No chapter has exercises yet. Next: read docs/contributing.md to write one.")
		return nil
	}
	r.next("Every exercise passes. Next: see your own chapters work together, each built on your earlier ones:", Cmd+" status --mine")
	return nil
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

func (r *Runner) buildFailed(x *result) {
	r.printf("Your copy of %s does not compile:\n\n%s\n\n", x.c.Name, indent(x.res.Build, "  "))
	r.next(fmt.Sprintf("Next: fix the error above in %s/%s, then run:", x.c.Name, exgen.ExerciseDir), r.cmd("check", x.c.Number()))
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n"+prefix)
}

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
		r.printf("%s: %d of %d exercises pass  %s\n\n", c.Name, x.done(), x.total(), Bar(x.done(), x.total(), 20))
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
		return r.explain(x, e)
	}
	failed := false
	printed := map[string]bool{}
	for _, e := range x.res.Exercises {
		if e.Status == progress.Fail && strings.TrimSpace(e.Report) != "" && !printed[e.Test] {
			printed[e.Test] = true // a scenario that checks two exercises reports once
			r.printf("%s\n", report(e.Report))
			r.blameNote(x, e)
			r.printf("\n")
			failed = true
		}
	}
	e, ok := x.next()
	if !ok {
		r.remember(c, 0)
		r.allPass(c)
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

// fixNext is the next step after a failure's report: fix that exercise,
// in its file, and check it alone.
func (r *Runner) fixNext(x *result, e progress.Exercise) {
	r.next(fmt.Sprintf("Next: fix exercise %d, %s (%s), then check it again:", e.ID, strings.TrimSuffix(e.Title, "."), exerciseFile(x.c, e.Exercise)),
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
		if ok {
			r.next(fmt.Sprintf("Then go on with exercise %d:", n.ID), r.checkCmd(x.c, n.ID))
		}
		return nil
	case progress.Fail:
		if strings.TrimSpace(e.Report) == "" {
			r.nextExercise(x, e)
			break
		}
		r.printf("%s\n", report(e.Report))
		r.blameNote(x, e)
		r.printf("\n")
		r.fixNext(x, e)
	case progress.Blocked:
		if e.BlockerChapter != x.c.Name {
			r.next(fmt.Sprintf("Exercise %d cannot pass yet: it runs on your own %s, whose exercise %d is not done. Next: finish that one, or check without --mine:", e.ID, e.BlockerChapter, e.Blocker), Cmd+" check "+x.c.Number()+" "+fmt.Sprint(e.ID))
			break
		}
		r.next(fmt.Sprintf("Exercise %d cannot pass yet: its scenarios stop at exercise %d first. Next: do exercise %d:", e.ID, e.Blocker, e.Blocker), r.checkCmd(x.c, e.Blocker))
	default:
		r.nextExercise(x, e)
	}
	return ErrNotAllPass
}

// blameNote says, under a failure's report, whose code it is put on and
// that exercise's hint: the runner finds the exercise whose code made the
// check fail, which need not be the one the check is tagged with.
func (r *Runner) blameNote(x *result, e progress.Exercise) {
	where := fmt.Sprintf("Exercise %d (%s): %s", e.ID, x.filesOf(e), strings.TrimSuffix(e.Title, "."))
	switch e.Located {
	case progress.ByFrames:
		where += ". The failure comes from your code of it: the frames above are in it."
	case progress.OnlySuspect:
		where += ". Of the exercises this check runs, it is the only one whose code differs from the reference's."
	case progress.BySwap:
		where += ". The failure comes from your code of it: with the reference's in its place, this check passes."
	}
	if others := without(e.Runs, e.ID); e.Located == progress.NotLocated && len(others) > 0 {
		where += fmt.Sprintf(". This check also runs your code of exercise%s %s, which may be where it diverges.",
			map[bool]string{true: "s", false: ""}[len(others) > 1], andList(others))
	}
	r.say("  Blame:    ", where)
	r.sayHint("  Hint:     ", x.c.Name, e.ID, e.Hint)
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

func (r *Runner) allPass(c chapters.Chapter) {
	r.say("", fmt.Sprintf("Every exercise of %s passes.", c.Name))
	list, _ := chapters.All(r.Root)
	for _, later := range list {
		if later.Name <= c.Name {
			continue
		}
		if ex, _ := exgen.Exercises(later.Dir); len(ex) > 0 {
			r.next(fmt.Sprintf("Next: read %s, then start its exercises:", docOf(r.Root, later.Name)), r.cmd("check", later.Number()))
			return
		}
	}
	r.next("Next: compare your exercises with the reference, one at a time (here the first), or see everything:", r.cmd("solution", c.Number(), "1"), r.cmd("status"))
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
	if len(x.mine.yours)+len(x.mine.ref) == 0 {
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

// reportStart finds the harness's own report in a scenario's output: the
// line naming the step that diverged or stopped.
var reportStart = regexp.MustCompile(`(?m)^\S+\.txt:\d+: step \d+ (diverged|stopped)`)

// report is the harness's failure report of a scenario without what came
// before it (datadriven echoes the steps it ran), which only repeats the
// step the report shows.
func report(out string) string {
	if loc := reportStart.FindStringIndex(out); loc != nil {
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

// blockerName names the exercise in e's way: "exercise 2", or
// "03-indexer exercise 2" when it is in another chapter (--mine).
func blockerName(x *result, e progress.Exercise) string {
	if e.BlockerChapter != x.c.Name {
		return fmt.Sprintf("%s exercise %d", e.BlockerChapter, e.Blocker)
	}
	return fmt.Sprintf("exercise %d", e.Blocker)
}

// filesOf names the files that hold exercise e's functions in your copy:
// the first with its path, the others beside it ("03-indexer/exercise/
// indexer.go, store.go"), so a failure in any of them points at its file.
func (x *result) filesOf(e progress.Exercise) string {
	first := exerciseFile(x.c, e.Exercise)
	names := []string{first}
	for _, f := range x.files[e.ID] {
		if name := filepath.Base(f); name != filepath.Base(first) {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}
