package progress

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/gotest"
)

// maxBuilds bounds the rebuilds one check may spend finding culprits.
const maxBuilds = 8

// swapper rebuilds the stand-in with some exercises' code taken from the
// reference, and reruns checks on it.
type swapper struct {
	k      *code
	gen    map[string][]byte // the copy with every exercise done: the reference's code
	stubs  map[string][]byte // the copy with every exercise stubbed: where each one's functions are
	env    []string
	quiet  time.Duration
	flags  []string
	builds int
	// repeat is how many times in a row each check runs per swap, all of
	// them passing for the swap to count (swapRuns).
	repeat int
	// wanted is the runs in a row the failure rate asks for, when the
	// budget cut repeat short of it; 0 when it did not.
	wanted int
	flaky  bool // the checks passed when run again unchanged
}

// bisect finds, for the open checks (divergences whose code could be
// any of several exercises), the exercise whose code made each diverge.
// It swaps half the suspects for the reference's code and reruns the
// checks: a check that passes now diverged in that half, one that still
// fails in the other half. With one bug that takes about log2(suspects)
// builds, however the suspects are ordered; the likeliest go first, so
// that a last suspect left alone is usually right even unproved.
//
// Checks that fail only sometimes (flaky) are searched apart, and each
// swap runs the checks as many times in a row as their failure rate
// calls for (swapRuns): a lucky pass would otherwise prove the wrong
// exercise. likely are exercises already proved culprits of other checks
// (by their frames, or as their only suspect): each is tried alone first,
// and the search is only for the checks none of them settles.
func (k *code) bisect(outcomes map[string]*outcome, open []string, candidates map[string][]int, runs map[int]int, env []string, quiet time.Duration, flags []string, flaky bool, likely []int) error {
	gen, stubs := k.done, k.stubs
	named := map[int]bool{} // exercises the open checks' frames point at
	race := false
	var slowest time.Duration
	rate := 1.0 // the lowest failure rate among the checks: the one a lucky pass fools most
	count := map[int]int{}
	for _, t := range open {
		o := outcomes[t]
		for _, id := range o.owners {
			named[id] = true
		}
		for _, id := range candidates[t] {
			count[id]++
		}
		race = race || o.race
		slowest = max(slowest, o.took)
		if o.failRate > 0 {
			rate = min(rate, o.failRate)
		}
	}
	if !race {
		flags = withoutRace(flags)
	}
	// The likeliest first: named by the evidence, then the larger share
	// of the checks running its code that diverged, then the later
	// exercise (later code is more specific). The exercise check NN N
	// asks about is the code you just wrote: half a point more (trial
	// J's check 03 6 swapped exercises 10 to 7 before 6, and took as
	// long as check 03).
	score := func(id int) float64 {
		share := float64(count[id]) / float64(max(runs[id], count[id]))
		if named[id] {
			share++
		}
		if id == k.asked {
			share += 0.5
		}
		if k.unchanged(id) {
			share -= 2 // as it was when it last passed (recent.go)
		}
		return share
	}
	var suspects []int
	for id := range count {
		suspects = append(suspects, id)
	}
	sort.Slice(suspects, func(i, j int) bool {
		a, b := suspects[i], suspects[j]
		if score(a) != score(b) {
			return score(a) > score(b)
		}
		return a > b
	})
	// Stuck checks cost their wait each time they run: a few of them
	// settle the search as well as all, and the rest follow the first
	// with the same suspects.
	quiet = quiet / 3
	// Repeats are for quick checks: a slow one (07's, seconds each) runs
	// as often as swapBudget allows, at least once.
	repeat := min(swapRuns(rate), max(1, int(swapBudget/max(slowest, time.Millisecond))))
	sw := &swapper{k: k, gen: gen, stubs: stubs, env: env, quiet: quiet, flags: flags, repeat: repeat, flaky: flaky}
	if repeat < swapRuns(rate) {
		sw.wanted = swapRuns(rate) // trial E: "passed 8 runs out of 8" blamed a correct exercise
	}
	if err := sw.tryFirst(outcomes, likely, open, candidates); err != nil {
		return err
	}
	unsettled := func(checks []string) []string {
		return slices.DeleteFunc(slices.Clone(checks), func(t string) bool { return outcomes[t].located.settled() })
	}
	open = unsettled(open)
	const few = 6
	head := open[:min(len(open), few)]
	// The likeliest alone first, where halving would take three swaps or
	// more: it is usually right, and one swap settles it (trial G's
	// controller.run, the first of nine suspects, took four); from three
	// suspects when it is the exercise check NN N asks about, after the
	// likeliest if that is another (trial J's check 03 6 halved five
	// suspects, 6 first, in four swaps). Not one just tried alone as a
	// proved culprit.
	searched := suspects
	var fresh []int // the suspects of the checks left that were not tried alone
	for _, id := range suspects {
		if !slices.Contains(likely, id) && slices.ContainsFunc(head, func(t string) bool { return slices.Contains(candidates[t], id) }) {
			fresh = append(fresh, id)
		}
	}
	var alone []int
	if len(fresh) >= 4 {
		alone = fresh[:1]
	}
	// The one exercise changed since it last passed, alone, when the
	// others are as they passed: one swap settles it.
	if changed := slices.DeleteFunc(slices.Clone(fresh), k.unchanged); len(fresh) >= 2 && len(changed) == 1 && !slices.Contains(alone, changed[0]) {
		alone = append(alone, changed[0])
	}
	if len(fresh) >= 3 && slices.Contains(fresh, k.asked) && !slices.Contains(alone, k.asked) {
		alone = append(alone, k.asked)
	}
	if len(alone) > 0 {
		if err := sw.tryFirst(outcomes, alone, head, candidates); err != nil {
			return err
		}
		searched = slices.DeleteFunc(slices.Clone(suspects), func(id int) bool { return slices.Contains(alone, id) })
	}
	if err := sw.locate(outcomes, searched, unsettled(head), false); err != nil {
		return err
	}
	if len(open) <= few {
		return nil
	}
	var rest []string // the checks no settled check answers for
	for _, t := range open[few:] {
		for _, settled := range open[:few] {
			if o := outcomes[settled]; o.located.settled() && slices.Equal(candidates[t], candidates[settled]) {
				outcomes[t].culprit, outcomes[t].located = o.culprit, o.located
				break
			}
		}
		if !outcomes[t].located.settled() {
			rest = append(rest, t)
		}
	}
	// The rest most likely diverge where the few did: one run with that
	// exercise's code swapped settles each that passes (the 07 trial's
	// Content-Type bug in exercise 10 was found for six checks, while nine
	// others, with other suspects, stayed on the exercise they are for).
	var found []int
	for _, t := range open[:few] {
		if o := outcomes[t]; o.located.bySwap() && !slices.Contains(found, o.culprit) {
			found = append(found, o.culprit)
		}
	}
	return sw.tryFirst(outcomes, found, rest, candidates)
}

// tryFirst swaps each exercise of ids alone, in turn, for the checks
// still unsettled that could have diverged in it: one run settles each
// that passes.
func (sw *swapper) tryFirst(outcomes map[string]*outcome, ids []int, checks []string, candidates map[string][]int) error {
	for _, id := range ids {
		var could []string
		for _, t := range checks {
			if slices.Contains(candidates[t], id) && !outcomes[t].located.settled() {
				could = append(could, t)
			}
		}
		if err := sw.locate(outcomes, []int{id}, could, false); err != nil {
			return err
		}
	}
	return nil
}

// locate settles checks among suspects, the likeliest first; proved says
// that swapping exactly these suspects made the checks pass.
func (sw *swapper) locate(outcomes map[string]*outcome, suspects []int, checks []string, proved bool) error {
	if len(checks) == 0 || len(suspects) == 0 {
		return nil
	}
	if len(suspects) == 1 && !proved {
		passed, _, ok, err := sw.try(suspects, checks)
		if err != nil || !ok {
			return err
		}
		checks, proved = passed, true
	}
	if len(suspects) == 1 {
		proof := BySwap
		if sw.flaky {
			proof = FlakyBySwap
		}
		for _, t := range checks {
			outcomes[t].culprit, outcomes[t].located, outcomes[t].swapRuns = suspects[0], proof, sw.repeat
			if sw.flaky {
				outcomes[t].swapWanted = sw.wanted
			}
		}
		return nil
	}
	half, rest := suspects[:(len(suspects)+1)/2], suspects[(len(suspects)+1)/2:]
	passed, failed, ok, err := sw.try(half, checks)
	if err != nil || !ok {
		return err
	}
	if err := sw.locate(outcomes, half, passed, true); err != nil {
		return err
	}
	// A check the half's swap passed that no single exercise of it
	// passes alone passed that swap by luck (it fails only sometimes):
	// the rest may hold its culprit.
	for _, t := range passed {
		if !outcomes[t].located.bySwap() {
			failed = append(failed, t)
		}
	}
	return sw.locate(outcomes, rest, failed, false)
}

// try reruns checks on the stand-in with the code of exercises ids taken
// from the reference. ok is false when it could not tell: the build budget
// is spent, or your other code does not build against the reference's.
func (sw *swapper) try(ids []int, checks []string) (passed, failed []string, ok bool, err error) {
	if sw.builds == maxBuilds {
		return nil, nil, false, nil
	}
	sw.builds++
	sw.k.say("finding whose code diverged: %d %s again with the reference's exercise %s", len(checks), map[bool]string{true: "check", false: "checks"}[len(checks) == 1], commaList(ids))
	files, ok := sw.k.withReference(ids, sw.gen, sw.stubs)
	if !ok {
		return nil, nil, false, nil
	}
	res, ok, err := sw.k.rerun(files, checks, sw.env, sw.quiet, sw.flags, sw.repeat)
	if err != nil || !ok {
		return nil, nil, false, err
	}
	for _, t := range checks {
		if res.Passed[t] {
			passed = append(passed, t)
		} else {
			failed = append(failed, t)
		}
	}
	return passed, failed, true, nil
}

// rerun builds the stand-in with files in place of your copy's and runs
// checks on it, repeat times each (a failure in any run fails the check).
// ok is false when it could not tell: the overlay does not build.
func (k *code) rerun(files map[string][]byte, checks []string, env []string, quiet time.Duration, flags []string, repeat int) (res *runs, ok bool, err error) {
	bin, _, err := gotest.Build(k.s.dir, files, flags...)
	if err != nil || bin == nil {
		return nil, false, err
	}
	defer bin.Remove()
	var count []string
	if repeat > 1 {
		count = []string{fmt.Sprintf("-count=%d", repeat)}
	}
	res, err = runTests(bin, env, quiet, k.idle, runPattern(checks), k.notYours, true, nil, count...)
	return res, err == nil, err
}

// withoutRace is flags without -race: a divergence shows without it, and
// the build is several times quicker.
func withoutRace(flags []string) []string {
	return slices.DeleteFunc(slices.Clone(flags), func(f string) bool { return f == "-race" })
}

// withReference is the stand-in overlay with your code of exercises ids
// replaced by the reference's: the functions' bodies only, so the rest
// of your files stays yours.
func (k *code) withReference(ids []int, gen, stubs map[string][]byte) (map[string][]byte, bool) {
	keys := map[string][]string{}
	for _, id := range ids {
		parts, err := exgen.ExerciseParts(stubs, id)
		if err != nil || len(parts) == 0 {
			return nil, false
		}
		for name, fns := range parts {
			keys[name] = append(keys[name], fns...)
		}
	}
	return k.withBodies(keys, gen)
}

// withBodies is the stand-in overlay with, in each file of yours, the
// bodies of the functions keys names (by the generated copy's paths,
// "exercise/keys.go") taken from gen: an exercise's (withReference), one
// function's (narrow), or those outside the exercises (outside). ok is
// false when a file is missing or does not parse.
func (k *code) withBodies(keys map[string][]string, gen map[string][]byte) (files map[string][]byte, ok bool) {
	files = maps.Clone(k.s.files)
	for name, fns := range keys {
		base := filepath.Base(name)
		if files[base] == nil {
			return nil, false
		}
		swapped, err := exgen.SpliceBodies(files[base], gen[name], fns)
		if err != nil {
			return nil, false
		}
		files[base] = swapped
	}
	return files, true
}

// asReference says, per exercise, whether your code of it is the
// reference's, and whether it is still the generated stub, bodies
// compared without regard to spacing.
func (k *code) asReference(exercises []exgen.Exercise) (same, stubbed map[int]bool, err error) {
	gen, stubs := k.done, k.stubs
	same, stubbed = map[int]bool{}, map[int]bool{}
	for _, e := range exercises {
		parts, err := exgen.ExerciseParts(stubs, e.ID)
		if err != nil {
			return nil, nil, err
		}
		same[e.ID], stubbed[e.ID] = len(parts) > 0, len(parts) > 0
		for name, keys := range parts {
			mine := k.s.files[filepath.Base(name)]
			if mine == nil || !exgen.Untouched(mine, gen[name], keys) {
				same[e.ID] = false
			}
			if mine == nil || !exgen.Untouched(mine, stubs[name], keys) {
				stubbed[e.ID] = false
			}
		}
	}
	return same, stubbed, nil
}

// confirm runs the open checks again on your copy as it is, before any
// swap, several times when they are quick (confirmRuns): a check your
// code fails only sometimes (goroutines racing, an order that varies)
// would now and then pass with any exercise swapped, and the swap would
// blame that one by chance. Each check's share of failed runs says how
// many runs in a row a swap must pass to prove an exercise (swapRuns). A
// check that passed in any of them is flaky, and says so; it is searched
// apart, and stays with the exercise it is tagged with when no swap
// proves one. The rest, which failed every time, are solid. A stuck check
// is not run again: it would cost its whole wait, and a hang does not
// pass by luck.
//
// A check left out of the first run for waiting where a stuck check did
// (hung) that passes every rerun is neither: it passed alone.
//
// A check that gets stuck in its reruns the way another did (hangs, given
// the blame file) is left out of the rest rather than each stopped in turn
// (trial S: a spinning pump stopped 26 reruns one by one); left out, it
// counts as failing every time.
func (k *code) confirm(outcomes map[string]*outcome, open []string, env []string, quiet time.Duration, blame Blame) (solid, flaky []string, err error) {
	var again []string
	var slowest time.Duration
	for _, t := range open {
		o := outcomes[t]
		o.failRate = 1
		if o.stuck {
			// Not run again (a hang costs its whole wait), so how often it
			// hangs is not known: its swaps are repeated as for a check
			// that fails often (the 05 trial's drain that hung in 4 runs of
			// 7 was blamed on 7 or 8 by a single lucky pass).
			o.failRate = 0.99
			continue
		}
		again = append(again, t)
		slowest = max(slowest, o.took)
	}
	if len(again) == 0 || k.bin == nil {
		return open, nil, nil
	}
	n := confirmRuns(slowest)
	k.say("running %d failing %s again with your code as it is, to be sure %s every time", len(again),
		map[bool]string{true: "check", false: "checks"}[len(again) == 1], map[bool]string{true: "it fails", false: "they fail"}[len(again) == 1])
	var hangs func(string) ([]string, bool)
	if blame != nil {
		hangs = k.hangsLike(blame)
	}
	res, err := runTests(k.bin, env, quiet/3, k.idle, runPattern(again), k.notYours, true, hangs, fmt.Sprintf("-count=%d", n))
	if err != nil {
		return nil, nil, err
	}
	for _, t := range open {
		o := outcomes[t]
		if o.stuck {
			solid = append(solid, t)
			continue
		}
		// The first run failed too: count it. A run the binary stopped
		// in (a crash, a test stuck) ends the reruns there: the count is
		// cut short, not low, and the check is solid (the 02 trial's
		// Close without a Broadcast read "failed 2 of 11 runs").
		fails, runs := res.Fails[t], n
		if strings.HasPrefix(t, "Example") {
			runs = 1 // go test runs an example once, whatever -count says
		}
		cutShort := !res.Passed[t] && (fails == 0 || res.CrashOf[t] != "" || res.DumpOf[t] != "")
		if cutShort {
			fails = runs
		}
		if o.hung && res.HungOn[t] != "" {
			// Left out again, beside a check stuck again: still not known
			// to fail, it follows that check (judge).
			o.follows = res.HungOn[t]
			continue
		}
		if o.hung && res.Passed[t] && fails == 0 {
			// Left out of the first run, as it runs code a stuck check
			// waited in, it passed every run on its own: it was never
			// failing (trial F's drain, which never used the delaying
			// queue whose loop was not started, read "Flaky: failed 1 of
			// 11 runs" and blamed a correct exercise).
			o.passedAlone = true
			continue
		}
		if o.hung {
			// Left out of the first run, it failed on its own here: its
			// report is this run's, not "it would wait where another got
			// stuck" (trial Y: a check that failed now and then was shown
			// before three that failed every time, which read as left out).
			if fresh := k.outcome(t, res, quiet); !fresh.hung && fresh.report != "" {
				o.report, o.owners, o.proof, o.fn = fresh.report, fresh.owners, fresh.proof, fresh.fn
				o.race, o.raceOnly, o.stuck, o.hung = fresh.race, fresh.raceOnly, fresh.stuck, false
			}
		}
		o.failRate = float64(fails+1) / float64(runs+1)
		if cutShort {
			// How often it stops the binary is not known (the 04 trial's
			// lost Broadcast hung most runs, not all): swaps are repeated
			// as for a check that fails often, not always.
			o.failRate = 0.99
		}
		if fails >= runs {
			solid = append(solid, t)
			continue
		}
		flaky = append(flaky, t)
		o.located = Flaky
		o.report += indentReason(fmt.Sprintf("Flaky:    it failed %d of %d runs with your code unchanged: your code fails it\n", fails+1, runs+1) +
			"          only sometimes: as a map happens to range (Go changes the order from\n" +
			"          run to run: keep a slice where order matters), as the goroutines happen\n" +
			"          to run (a lock missing where the race detector did not look, a wait\n" +
			"          that is not one, a check then an act under two locks), or as the clock\n" +
			"          happens to read (a deadline, budget or timer measured from the wrong\n" +
			"          moment).")
	}
	return solid, flaky, nil
}

// confirmRuns is how many times confirm runs checks whose slowest first
// run took slowest: often for quick ones, whose failure rate is then
// known, once for slow ones (chapter 07's), which cost too much to repeat.
func confirmRuns(slowest time.Duration) int {
	switch {
	case slowest < 200*time.Millisecond:
		return 10
	case slowest < 2*time.Second:
		return 3
	}
	return 1
}

// swapBudget bounds the time one swap spends repeating a check.
const swapBudget = 20 * time.Second

// swapRuns is how many runs in a row a swap must pass, for checks that
// fail at rate on your code as it is, to prove the exercise swapped:
// enough that passing them all by luck has a chance under 2%, at half
// the rate measured (a dozen runs measure it roughly, and a swap changes
// the timing too), and never fewer than 8. One run proves a check that
// failed every time; 40 at the most.
func swapRuns(rate float64) int {
	if rate >= 1 {
		return 1
	}
	if rate <= 0 {
		return 40
	}
	return min(40, max(8, int(math.Ceil(math.Log(0.02)/math.Log(1-rate/2)))))
}
