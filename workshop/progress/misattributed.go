package progress

import (
	"maps"
	"path/filepath"
	"slices"
	"time"
)

// misattributed runs again, alone, each check stopped by a stub its
// blame line says it never runs. A stub's panic in a goroutine ends the
// binary, and every test running then reads as stopped by it: one that
// runs no code of that exercise was only beside it (CI, at a load of 7:
// 02's has-synced stress test, which runs exercise 1 alone, read "needs
// exercise 2", and the tests of the tests failed). Alone, it passes, or
// fails for a reason of its own.
func (k *code) misattributed(outcomes map[string]*outcome, res *runs, blame Blame, env []string, quiet time.Duration) error {
	chapter := filepath.Base(k.s.dir)
	var again []string
	for _, t := range slices.Sorted(maps.Keys(outcomes)) {
		o := outcomes[t]
		runsOf, known := blame[t]
		if o.stub != 0 && o.stubChapter == chapter && known && !slices.Contains(runsOf, o.stub) {
			again = append(again, t)
		}
	}
	if len(again) == 0 || k.bin == nil {
		return nil
	}
	alone, err := runTests(k.bin, env, quiet, k.idle, runPattern(again), k.notYours, true, nil)
	if err != nil {
		return err
	}
	for _, t := range again {
		if _, ran := alone.Passed[t]; !ran {
			continue // stopped again before it ran: it keeps what it had
		}
		if alone.Passed[t] {
			res.Passed[t] = true
			delete(outcomes, t)
			continue
		}
		outcomes[t] = k.outcome(t, alone, quiet)
	}
	return nil
}
