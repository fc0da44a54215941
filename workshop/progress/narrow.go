package progress

import (
	"cmp"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"example.com/walkthrough/workshop/exgen"
)

// FuncProof says how Exercise.Func was found.
type FuncProof int

const (
	FuncByFrames       FuncProof = iota // the proof's frame or literal is in it (or there is no Func)
	FuncOnlyChanged                     // of the exercise's functions, the only one whose body is not the reference's
	FuncBySwap                          // with the reference's body of it alone in its place, the check passes
	FuncBySwapOfOthers                  // with the reference's body of it alone in its place, the checks of the exercise that fail every time pass (for a Likely check)
	FuncNeeded                          // with the reference's bodies of it and some others the check passes, with the others' alone it fails
	FuncFurther                         // with the reference's body of it alone in its place, the check gets past the step where it diverged
	FuncByOthers                        // with the reference's body of it alone in its place, the exercise's quickest failing checks pass or get further; this one is not among them
)

// divergedStep is a scenario report's first line of what went wrong.
var divergedStep = regexp.MustCompile(`step (\d+) diverged`)

// stepOf is the step a scenario check diverged at, from its report or
// output (the earliest, when it ran several times); 0 when it names none
// (a plain test).
func stepOf(report string) int {
	first := 0
	for _, m := range divergedStep.FindAllStringSubmatch(report, -1) {
		if n := atoi(m[1]); first == 0 || n < first {
			first = n
		}
	}
	return first
}

// narrowBuilds bounds the rebuilds one check may spend putting failures on
// a function (narrow), besides those bisect spent on exercises.
const narrowBuilds = 4

// narrowFew is how many of the checks put on an exercise narrow reruns.
const narrowFew = 4

// narrowSlowest is the longest a check may take for narrow to rerun it:
// 07's, seconds each on a rebuild of seconds, would double a failing check.
const narrowSlowest = 5 * time.Second

// narrow puts each check that was put on an exercise as a whole (by a
// swap, or as the only suspect) on one function of it, when it can: an
// exercise may be a dozen functions in three files (02's first deep one),
// and its hint speaks of all of them. The functions whose bodies differ
// from the reference's are the suspects; one alone is it, with no build.
// More are halved as bisect halves exercises: the reference's bodies of
// half of them are put in, and the checks run again, as often as confirm
// would; a half that passes holds it. A failure that needs two functions
// of yours together is left on the exercise, as is one whose checks part
// ways (some pass with a half, some do not).
func (k *code) narrow(outcomes map[string]*outcome, env []string, quiet time.Duration, flags []string) error {
	groups := map[int][]string{} // exercise → the checks put on it as a whole
	for _, t := range slices.Sorted(maps.Keys(outcomes)) {
		o := outcomes[t]
		if o.fn == "" && !o.stuck && !o.hung && o.stub == 0 && (o.located == BySwap || o.located == OnlySuspect) {
			groups[o.culprit] = append(groups[o.culprit], t)
		}
	}
	builds := 0
	for _, id := range slices.Sorted(maps.Keys(groups)) {
		checks := groups[id]
		parts, err := exgen.ExerciseParts(k.stubs, id)
		if err != nil {
			return nil // the generated copy is the workshop's: nothing to narrow with
		}
		changed := map[string]string{} // function key → its file
		all := 0
		for name, keys := range parts {
			all += len(keys)
			if !k.everySuspect {
				keys = exgen.Changed(k.s.files[filepath.Base(name)], k.done[name], keys)
			}
			for _, key := range keys {
				changed[key] = name
			}
		}
		suspects := slices.Sorted(maps.Keys(changed))
		if all == 1 {
			continue // the exercise is that one function: the blame says it
		}
		if len(suspects) == 1 && !k.everySuspect {
			k.putOn(outcomes, checks, suspects[0], FuncOnlyChanged)
			continue
		}
		// A few checks settle it as well as all: the quickest, that fail
		// every time (trial G's controller.run: 38 checks a swap, 11 s
		// each under load). The function found is put on all of them.
		few := slices.Clone(checks)
		slices.SortStableFunc(few, func(a, b string) int {
			oa, ob := outcomes[a], outcomes[b]
			switch {
			case solid(oa) && !solid(ob):
				return -1
			case solid(ob) && !solid(oa):
				return 1
			}
			return cmp.Compare(oa.took, ob.took)
		})
		few = few[:min(len(few), narrowFew)]
		var slowest time.Duration
		for _, t := range few {
			slowest = max(slowest, outcomes[t].took)
		}
		if len(suspects) == 0 || slowest > narrowSlowest {
			continue
		}
		repeat := confirmRuns(slowest)
		race := slices.ContainsFunc(few, func(t string) bool { return outcomes[t].race })
		proved, how := false, FuncBySwap
		for len(suspects) > 1 || !proved {
			if builds == narrowBuilds {
				return nil
			}
			builds++
			half := suspects[:(len(suspects)+1)/2]
			passed, further, ok, err := k.withReferenceFuncs(id, half, changed, few, outcomes, env, quiet, flags, repeat, race)
			if err != nil || !ok {
				return err
			}
			switch {
			case passed == len(few):
				suspects, proved = half, true
			case further == len(few) && (how == FuncFurther || !proved):
				// None passes, yet each gets past the step where it
				// diverged: the half holds the first divergence, and a
				// later one is another function's (trial L2's labels,
				// wrong in newDeployment, left on exercise 4 as a whole
				// because its syncHandler diverged too, further on).
				suspects, proved, how = half, true, FuncFurther
			case passed == 0:
				// Not in that half: in the rest, proved once a swap of it
				// passes (a last one left is swapped alone to prove it),
				// unless the suspects were proved and no build is left:
				// then the check passes with the reference's bodies of
				// the whole, and fails without those of the rest, so one
				// function left is needed to fail it (trial J's
				// cache.Update, the 13th of 13 suspects, was left unnamed
				// when the four builds ran out).
				rest := suspects[len(half):]
				if proved && how == FuncBySwap && len(rest) == 1 && builds == narrowBuilds {
					how = FuncNeeded
				} else {
					proved = false
				}
				suspects = rest
			default:
				suspects = nil // the checks part ways
			}
			if len(suspects) == 0 {
				break
			}
		}
		if len(suspects) == 1 && proved {
			k.putOn(outcomes, checks, suspects[0], how)
			for _, t := range checks {
				if !slices.Contains(few, t) && outcomes[t].fnProof != FuncNeeded {
					// Not run with the swap: what it proved is the few's
					// (trial L2's sync.txt read "this check passes" where
					// it failed further on, in another function).
					outcomes[t].fnProof = FuncByOthers
				}
			}
		}
	}
	return nil
}

// putOn says the checks diverged in the function key; and the flaky
// checks put on its exercise unsearched (Likely), which most likely
// diverge in it too (trial H's constructor that left the Cond's Locker
// nil failed Pop's checks only when Pop waited).
func (k *code) putOn(outcomes map[string]*outcome, checks []string, key string, how FuncProof) {
	for _, t := range checks {
		outcomes[t].fn, outcomes[t].fnProof = key, how
	}
	id := outcomes[checks[0]].culprit
	switch how {
	case FuncBySwap:
		how = FuncBySwapOfOthers
	case FuncNeeded:
		return // a swap of more than it proved it: no proof for another check
	}
	for _, o := range outcomes {
		// And the leak check put on the exercise by the frames of what
		// leaked, which are the victim's, not the function that should
		// have stopped it (trial K's delaying ShutDown that never stopped
		// its loop: the leak, shown, named waitingLoop; the checks,
		// narrowed to ShutDown, were listed under it).
		if (o.located == Likely || o.test == LeakCheck && o.located == ByFrames) && o.culprit == id && o.fn == "" {
			o.fn, o.fnProof = key, how
		}
	}
}

// withReferenceFuncs reruns checks, repeat times each, on your copy with
// the reference's bodies of exercise id's functions keys (each in the file changed
// says); passed counts the checks that passed every run, further those that
// passed or diverged at a later step of their scenario than they did (in
// every run). ok is false when it could not tell: your other code does not build
// with those bodies.
func (k *code) withReferenceFuncs(id int, keys []string, changed map[string]string, checks []string, outcomes map[string]*outcome, env []string, quiet time.Duration, flags []string, repeat int, race bool) (passed, further int, ok bool, err error) {
	k.say("finding which function of exercise %d diverged: %d %s again with the reference's body of %s", id, len(checks), map[bool]string{true: "check", false: "checks"}[len(checks) == 1], strings.Join(keys, ", "))
	byFile := map[string][]string{}
	for _, key := range keys {
		byFile[changed[key]] = append(byFile[changed[key]], key)
	}
	files, ok := k.withBodies(byFile, k.done)
	if !ok {
		return 0, 0, false, nil
	}
	if !race {
		flags = withoutRace(flags)
	}
	res, ok, err := k.rerun(files, checks, env, quiet/3, flags, repeat)
	if err != nil || !ok {
		return 0, 0, false, err
	}
	for _, t := range checks {
		switch before, now := stepOf(outcomes[t].report), stepOf(res.Output[t]); {
		case res.Passed[t]:
			passed++
			further++
		case before > 0 && now > before:
			further++
		}
	}
	return passed, further, true, nil
}
