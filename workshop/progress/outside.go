package progress

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"example.com/walkthrough/workshop/exgen"
)

// outside runs the failing checks again, when your copy changes code
// outside the exercises (givenChanged), with the generated code of those
// functions in place of yours: a check that passes then fails on that
// code, not on an exercise (InGiven), and is taken out of the search.
// Trial X's DeltaFIFO.Close without its Broadcast was put on exercise 2,
// which it had not touched, after 13 to 19 s of swaps of exercises that
// could not help, and the next step it was given, reset 02 2, would have
// stubbed a correct Pop and kept the bug.
//
// A check whose frames name an exercise's code already has its culprit;
// one that runs an exercise still stubbed waits for it. A quick check
// runs three times, so that one failing only now and then is not put
// outside by a lucky pass.
func (k *code) outside(outcomes map[string]*outcome, env []string, quiet time.Duration, flags []string) error {
	given := k.givenChanged()
	if len(given) == 0 || len(k.s.yours) == 0 {
		return nil
	}
	var checks []string
	race := false
	var slowest time.Duration
	for _, t := range slices.Sorted(maps.Keys(outcomes)) {
		o := outcomes[t]
		if o.stub != 0 || o.notRun || o.located == ByFrames || t == LeakCheck {
			continue // (the leak check is no test a rerun can name)
		}
		checks = append(checks, t)
		race = race || o.race
		slowest = max(slowest, o.took)
	}
	if len(checks) == 0 {
		return nil
	}
	keys := map[string][]string{} // file → its functions you changed
	for _, g := range given {
		base, key, _ := strings.Cut(g, ": ")
		name := filepath.Join(exgen.ExerciseDir, base)
		keys[name] = append(keys[name], key)
	}
	files, ok := k.withBodies(keys, k.done)
	if !ok {
		return nil
	}
	if !race {
		flags = withoutRace(flags)
	}
	k.say("finding whose code diverged: %d %s again with the generated code outside the exercises", len(checks), map[bool]string{true: "check", false: "checks"}[len(checks) == 1])
	repeat := 1
	if slowest < 2*time.Second {
		repeat = 3
	}
	res, ok, err := k.rerun(files, checks, env, quiet/3, flags, repeat)
	if err != nil || !ok {
		return err
	}
	for _, t := range checks {
		if res.Passed[t] {
			o := outcomes[t]
			o.culprit, o.located = 0, InGiven
		}
	}
	return nil
}
