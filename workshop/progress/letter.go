package progress

import (
	"maps"
	"slices"
	"time"
)

// offTheLetter takes every check no search settled off an exercise whose
// code is the reference's to the letter: that code cannot be what fails
// it. Trial V's scenario with no blame line yet stayed on the exercise it
// is tagged with, written as the reference's, and hid four bugs of other
// exercises behind "blocked by 10".
//
// A check that failed every time runs once more, with the reference's
// code in place of every exercise. Failing there too, it is no
// exercise's (FailsOnReference). Passing, it diverged in code you
// changed, though no swap of one exercise alone said which: it is put on
// the likeliest exercise you changed that it runs (Unproved). A check
// that fails now and then had that run already (onTheReference) and is
// put the same way. When your copy does not build with the reference's
// code in place, a check is put there all the same, without a proof.
//
// Code of yours outside the exercises may fail a check whatever its
// exercises hold; when you changed some, the runner says so (Given), and
// such a check stays on an exercise that runs it.
func (k *code) offTheLetter(outcomes map[string]*outcome, tagged map[int][]string, suspect func(int) bool, env []string, quiet time.Duration, flags []string) error {
	if len(k.givenChanged()) > 0 || len(k.s.yours) == 0 {
		return nil
	}
	var open, solid []string
	race := false
	for _, t := range slices.Sorted(maps.Keys(outcomes)) {
		o := outcomes[t]
		if o.stub != 0 || o.notRun || o.passedAlone || o.culprit == 0 || o.located.settled() || suspect(o.culprit) {
			continue
		}
		open = append(open, t)
		if o.located == NotLocated {
			solid = append(solid, t)
			race = race || o.race
		}
	}
	if len(open) == 0 {
		return nil
	}
	ids := slices.Sorted(maps.Keys(tagged))
	verified := true // the solid checks passed with every exercise swapped
	if len(solid) > 0 {
		if !race {
			flags = withoutRace(flags)
		}
		sw := &swapper{k: k, gen: k.done, stubs: k.stubs, env: env, quiet: quiet / 3, flags: flags, repeat: 1}
		_, failed, ok, err := sw.try(ids, solid)
		if err != nil {
			return err
		}
		verified = ok
		for _, t := range failed {
			o := outcomes[t]
			o.located = FailsOnReference
			o.report += indentReason("Not yours: it fails too with the reference's code in place of every exercise,\n" +
				"          so no exercise of yours is what fails it: the check fails on this\n" +
				"          machine as it is (a busy machine slows the clocks it waits on), or on\n" +
				"          a change of yours outside the exercises' function bodies (a type, a\n" +
				"          test). It counts against no exercise.")
		}
	}
	changed := slices.DeleteFunc(slices.Clone(ids), func(id int) bool { return !suspect(id) })
	for _, t := range open {
		o := outcomes[t]
		if o.located == FailsOnReference {
			continue
		}
		cands := o.suspects
		if len(cands) == 0 {
			cands = changed // the blame file says it runs none of them: it must run one
		}
		if len(cands) == 0 {
			continue
		}
		o.culprit = slices.Max(cands)
		if o.located == Flaky || verified {
			o.located = Unproved
		} // else your copy does not build with the reference's code: no proof either way
		if len(o.owners) > 0 && slices.Contains(cands, o.owners[0]) {
			o.culprit = o.owners[0] // its frames point there
		}
		o.suspects = cands
	}
	return nil
}
