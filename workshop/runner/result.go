package runner

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
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
	// stubs[id], for an exercise you have begun, names its functions
	// that are still the generated stub, by file ("waiting.go:
	// waiting.next, waiting.popReady").
	stubs map[int][]string
	// sum is the fingerprint of the chapter's exercise/ directory taken
	// before the tests ran: the code this result judged.
	sum string
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

// waitingNote says how many exercises that hold code are blocked by others
// of this chapter, and by which: one bug in a late exercise can hold up
// the checks of many (trial C read "1 of 16 exercises pass" for a single
// deadlock in exercise 15, and 2 to 14 waiting for it). Stubs waiting for
// an earlier stub are the normal start of a chapter: not counted.
func (x *result) waitingNote() string {
	if x.res == nil || x.res.Build != "" {
		return ""
	}
	n := 0
	var blockers []int
	for _, e := range x.res.Exercises {
		if e.Status == progress.Blocked && e.BlockerChapter == x.c.Name && !x.fresh[e.ID] {
			n++
			if !slices.Contains(blockers, e.Blocker) {
				blockers = append(blockers, e.Blocker)
			}
		}
	}
	if n < 2 {
		return ""
	}
	slices.Sort(blockers)
	that := "that"
	if len(blockers) > 1 {
		that = "those"
	}
	return fmt.Sprintf("%d exercises holding your code are blocked by %s: fix %s first, and their checks run again.", n, exercisesNamed(blockers), that)
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

// nextInOrder is the first exercise after id that is not among passed,
// or else the first such before it; id itself is skipped when it passes.
// This run judged only id: another exercise's "pass" means only that
// none of id's checks ran into it, so passed (from the last full check)
// is what says it is done.
func (x *result) nextInOrder(id int, passed []int) (progress.Exercise, bool) {
	if x.res == nil {
		return progress.Exercise{}, false
	}
	var before *progress.Exercise
	for i, e := range x.res.Exercises {
		if e.ID == id && e.Status == progress.Pass || slices.Contains(passed, e.ID) {
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
	out := &result{c: c, fresh: map[int]bool{}, files: map[int][]string{}, stubs: map[int][]string{}}
	gen, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return nil, err
	}
	for _, e := range list {
		parts, err := exgen.ExerciseParts(gen, e.ID)
		if err != nil || len(parts) == 0 {
			continue
		}
		// Fresh: every function of the exercise is still its stub.
		fresh := true
		var stubs []string
		out.files[e.ID] = slices.Sorted(maps.Keys(parts))
		for _, name := range out.files[e.ID] {
			keys := parts[name]
			mine, err := os.ReadFile(filepath.Join(c.Dir, name))
			var left []string
			for _, key := range keys {
				if err == nil && exgen.Untouched(mine, gen[name], []string{key}) {
					left = append(left, key)
				}
			}
			fresh = fresh && len(left) == len(keys)
			if len(left) > 0 {
				stubs = append(stubs, filepath.Base(name)+": "+strings.Join(left, ", "))
			}
		}
		out.fresh[e.ID] = fresh
		if !fresh {
			out.stubs[e.ID] = stubs
		}
	}
	deep := r.onDeepTrack(c, list, out.fresh)
	off := map[int]bool{}
	for _, e := range list {
		off[e.ID] = !deep && e.Track == exgen.TrackDeep
	}
	out.sum = fingerprint(c)
	var res *progress.Chapter
	var mine *mineChoice
	if r.reuse && !r.Mine && allFresh(out.fresh, off) {
		// Nothing of yours to judge: every exercise is still its stub.
		// status need not build the chapter to say so (trial P waited
		// for six chapters it had not opened).
		if res, err = progress.Fresh(c, func(id int) bool { return off[id] }); err != nil {
			return nil, err
		}
	} else if res, mine, err = r.run(c, func(id int) bool { return off[id] }, only); err != nil {
		return nil, err
	}
	out.res, out.mine = res, mine
	for i, e := range res.Exercises {
		// A pass so far (checks that run it wait for other exercises)
		// of an exercise whose own functions are partly stubs is no
		// pass: say which stubs are left. (A full pass stands: your code
		// may not need a helper you left alone.)
		if e.Status == progress.Pass && len(e.WaitsFor) > 0 && len(out.stubs[e.ID]) > 0 {
			res.Exercises[i].Status = progress.NotStarted
		}
	}
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

// allFresh reports whether every exercise on your track (not off it) is
// still its stub.
func allFresh(fresh, off map[int]bool) bool {
	any := false
	for id, f := range fresh {
		if !off[id] {
			if !f {
				return false
			}
			any = true
		}
	}
	return any
}

// checkAll checks chapters two at a time, saying what they do on one
// board.
func (r *Runner) checkAll(list []chapters.Chapter) ([]*result, []error) {
	results := make([]*result, len(list))
	errs := make([]error, len(list))
	var b *board
	if r.Progress != nil {
		b = newBoard(r.Progress)
		r.board = b
		defer func() { b.end(); r.board = nil }()
	}
	twoAtATime(len(list), func(i int) {
		results[i], errs[i] = r.check(list[i])
		if b != nil {
			b.finish(list[i].Name)
		}
	})
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
	return joinFiles(x.c, append(append([]string{e.File}, e.Files...), x.files[e.ID]...))
}

// failingOthers is the exercises other than id that failed with a report
// in this run, in order.
func (x *result) failingOthers(id int) []int {
	var ids []int
	if x.res == nil {
		return nil
	}
	for _, f := range x.res.Exercises {
		if f.ID != id && hasReport(f) {
			ids = append(ids, f.ID)
		}
	}
	return ids
}
