package progress

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"example.com/walkthrough/workshop/gotest"
	"example.com/walkthrough/workshop/scenario"
)

// runs is the merged outcome of the test runs one check takes.
type runs struct {
	*gotest.Result
	// CrashOf maps a test that was running when the test binary stopped
	// to the "panic: ..." line that stopped it, and DumpOf to the
	// goroutine dump that came with it.
	CrashOf, DumpOf map[string]string
	// StuckFor is how long each stuck test had made no progress when its
	// binary was stopped.
	StuckFor map[string]time.Duration
	// NotRun names the checks that never ran (markNotRun).
	NotRun map[string]bool
	// Leaks is what the binary said of goroutines your code left running
	// after every test passed (workshop/leak), from the run that got that
	// far.
	Leaks string
	// HungOn maps a check left out of the runs, since it runs code a
	// stuck test was proved to hang on (runTests' hangs), to that test.
	HungOn map[string]string
}

// quietFor is how long a test binary may print nothing while a test runs
// before it is stopped as stuck. Scenarios in a synctest bubble take
// milliseconds of real time per step, but a lock never released is not a
// wait synctest can see through, so such a step hangs on the real clock.
// The slowest tests of the reference print something at least every few
// seconds. A chapter on a real clock (07, real etcd) gets longer, as a
// machine loaded many times over may slow it that much; a binary of it
// that waits rather than computes is stopped sooner (idleFor).
func quietFor(realClock bool) time.Duration {
	if realClock {
		return 60 * time.Second
	}
	return 15 * time.Second
}

// idleFor says when a binary that prints nothing is waiting for good
// (gotest.Idle). A chapter whose tests never wait on the real clock (every
// one in a synctest bubble) is stuck after 3 s of computing nothing: every
// goroutine waits, on a lock never released or a channel nobody sends on;
// the reference's tests, under -race and a loaded machine, never idle for
// even 2 s. Chapter 07's binary, on the real clock with etcds in it, idles
// at about 2% of a CPU when all its tests hang (measured on 2 cores): it is
// stuck after 15 s under 6%, longer than any wait of its own for an event
// (10 s, eventWait), so a lock never released costs 15 s, not the minute of
// its quiet period.
func idleFor(realClock bool) gotest.Idle {
	if realClock {
		return gotest.Idle{After: 15 * time.Second, Share: 0.06}
	}
	return gotest.Idle{After: 3 * time.Second}
}

// sooner is idle for the runs after a test got stuck: a third as long,
// but never shorter on the real clock, where a correct test may wait its
// own 10 s for an event with nothing to do.
func sooner(idle gotest.Idle) gotest.Idle {
	if idle.Share == 0 {
		idle.After /= 3
	}
	return idle
}

// runTests runs every test of the chapter except the end-to-end ones, and
// those skipAlso matches (a -skip pattern, or ""), on the built binary. A stub's panic raised in a goroutine of the code under
// test (an informer's, a queue's) stops the whole binary, leaving every
// later test without a result; so the binary runs again, skipping each
// test that has one, until a run ends without a crash or gets no further.
// Every check is then judged on its own, whatever crashed before it.
//
// Tests that run side by side (t.Parallel; chapter 07's) share the
// binary's stop: when it stops amid several checks, which one stopped it
// is unknown, so none of them gets that run's verdict; they run again in
// halves, each half side by side, a half that stops again split again,
// until the check that stops a run is alone in it (go test may report a
// parallel test's end after the next one started: two in one run could
// still share a stop), and then the rest side by side again. A check
// that a group's run stopped amid alone runs alone too before it is
// given the stop. A stop while no check ran, in
// the setup of a test that is no check (TestScenarios, say), or from a
// goroutine another test left behind, is told apart the same way: the
// tests that were running run alone; one that stops its run again, before
// any check of its own ran, is skipped from then on (setups), its checks
// judged not run (markNotRun), by that crash. With stubsStop, a stop by a
// stub's panic is not halved: every check it stopped waits for that
// exercise (the tests of the tests, measuring which checks each stub
// stops, leave it off).
//
// hangs, when not nil, is asked about each stuck test's dump: the checks
// it returns would hang the same way (they run the function proved to
// keep a lock, or a second stuck test waited at the same places), so they
// are left out of the next runs rather than each waited out (HungOn).
// proved says the dump proves a function of yours keeps a lock: a stop of
// several checks side by side is then theirs, for those that run it.
func runTests(bin *gotest.Binary, env []string, quiet time.Duration, idle gotest.Idle, run, skipAlso string, stubsStop bool, hangs func(dump string) (tests []string, proved bool), flags ...string) (*runs, error) {
	all := &runs{
		Result:  &gotest.Result{Passed: map[string]bool{}, Output: map[string]string{}, OK: true, Took: map[string]time.Duration{}, Skipped: map[string]bool{}, Fails: map[string]int{}},
		CrashOf: map[string]string{}, DumpOf: map[string]string{}, StuckFor: map[string]time.Duration{},
		NotRun: map[string]bool{}, HungOn: map[string]string{},
	}
	var done, setups []string
	var queue [][]string        // groups of tests to run again, each in a run of its own
	queued := map[string]bool{} // tests that are no check, once run alone
	// A stop of checks side by side is a hang too, if no one's yet: the
	// 07 trial waited a minute for each of two such stops in a row.
	stoppedSideBySide := false
	for {
		// -timeout backs up the watch for quiet binaries: a test that
		// prints but never ends.
		skip := append(append(append([]string{"TestE2E"}, done...), setups...), slices.Sorted(maps.Keys(all.HungOn))...)
		skipping := skipPattern(skip)
		if skipAlso != "" {
			skipping += "|" + skipAlso
		}
		args := append([]string{"-timeout=5m", "-skip", skipping}, flags...)
		var group []string // the tests this run is for, when it runs some again
		alone := ""        // the one test it runs again alone
		switch {
		case len(queue) > 0:
			group, queue = queue[0], queue[1:]
			if len(group) == 1 {
				alone = group[0]
			}
			args = append(args, "-run", runPattern(group))
		case run != "":
			args = append(args, "-run", run)
		}
		// Once a test got stuck, the code under test is known to hang:
		// the next ones are given less time before they count as stuck
		// too, so a lock never released costs a second or two per test.
		wait, idleWait := quiet, idle
		if len(all.Stuck) > 0 || stoppedSideBySide {
			wait, idleWait = quiet/3, sooner(idle)
		}
		res, err := bin.Run(env, wait, idleWait, args...)
		if err != nil {
			return nil, err
		}
		shareRaces(res)
		further := false
		checks := stoppedAmid(res)
		sideBySide := len(checks) > 1 && (alone == "" || !IsCheck(alone))
		// One stop is one sighting of a hang, however many tests it
		// stopped: hangs counts the dumps it is shown. A stuck scenario
		// and its parent TestScenarios, asked about one by one, read as
		// a hang seen twice (trial B's Update that a panic left locked:
		// twelve scenarios were left out as if they hung too).
		var hung []string // the checks that would hang as this stop's did
		proved := false   // the dump proves a function of yours keeps a lock
		if hangs != nil && res.Dump != "" && (sideBySide || len(res.Stuck) > 0) {
			hung, proved = hangs(res.Dump)
		}
		var held []string // of those stopped side by side, the checks the dump proves stuck
		if sideBySide && proved {
			held = slices.DeleteFunc(slices.Clone(checks), func(t string) bool { return !slices.Contains(hung, t) })
		}
		switch {
		case sideBySide && stubsStop && crashNotDone.MatchString(res.Crash) && slices.ContainsFunc(checks, isPlain):
			// A stub's panic stopped the binary while several checks ran
			// side by side. Which plain test reached it need not be known:
			// the blame file does not say what a plain test runs, so until
			// that exercise is done each stopped one waits for it (07's
			// plain tests, stopped by exercise 4's stub, cost 35 runs of
			// the binary, 20 s, halving their way down to the one that
			// reached it). A scenario or stress test stopped with them runs
			// again: the blame file says it does not run the stub (those
			// that do are not run at all), so it was only beside it.
			var again []string
			for _, test := range checks {
				if isPlain(test) {
					res.Passed[test] = false // judged below as stopped by the stub (CrashOf)
				} else {
					delete(res.Passed, test)
					again = append(again, test)
				}
			}
			if len(again) > 0 {
				queue = append([][]string{again}, queue...)
			}
			further = true
		case len(held) > 0:
			// The dump proves a function of yours keeps a lock: the checks
			// of the stop that run it are stuck on it, whatever a run alone
			// would say (the 07 trial's missing Unlock on a not-ready path
			// stopped two checks side by side, then passed alone: the timing
			// missed that path, and a lock leak read as a pass). The others
			// run again.
			res.Stuck = held
			var others []string
			for _, test := range checks {
				if !slices.Contains(held, test) {
					delete(res.Passed, test)
					others = append(others, test)
				}
			}
			if len(others) > 0 {
				queue = append([][]string{others}, queue...)
			}
			further = true
		case sideBySide && res.Waited:
			// Stopped for waiting: each check the stop found running had
			// been waiting, as the whole binary had, longer than any wait
			// of the reference's (idleFor), so each is stuck itself, not
			// beside the one that is. Halving waited the idle period out
			// again per check (07: TestKubectl, 16 s more alone).
		case sideBySide:
			// Several checks side by side: none gets the stop. Each half
			// runs again side by side; a half that stops again is split
			// again, down to the check that stops a run alone. Most
			// halves pass whole, in one run each, where running every
			// check alone cost a run per check (07: 35 runs of seconds).
			for _, test := range checks {
				delete(res.Passed, test)
			}
			stoppedSideBySide = stoppedSideBySide || len(res.Stuck) > 0
			res.Crash, res.Dump, res.Stuck, res.OK = "", "", nil, true
			half := len(checks) / 2
			queue, further = append([][]string{checks[:half], checks[half:]}, queue...), true
		case len(checks) == 1 && len(group) > 1:
			// One check of a group was running when the run stopped: a
			// goroutine another check of the group left behind may have
			// stopped it. It runs alone to say.
			delete(res.Passed, checks[0])
			res.Crash, res.Dump, res.Stuck, res.OK = "", "", nil, true
			queue, further = append([][]string{checks}, queue...), true
		case len(checks) == 0:
			for _, test := range stoppedSetups(res) {
				switch {
				case slices.Contains(setups, test):
				case test == alone || queued[test]:
					setups, further = append(setups, test), true // its own setup stopped it
				case alone == "":
					queue, queued[test], further = append(queue, []string{test}), true, true
				}
			}
		}
		for test, passed := range res.Passed {
			if _, seen := all.Passed[test]; !seen && IsCheck(test) {
				further = true
			}
			all.Passed[test] = passed
			all.Output[test] = res.Output[test]
			all.Took[test] = res.Took[test]
			all.Fails[test] = res.Fails[test]
			if stoppedIn(res, test) {
				all.CrashOf[test], all.DumpOf[test] = res.Crash, res.Dump
			}
		}
		for test := range res.Skipped {
			all.Skipped[test] = true
		}
		for _, test := range res.Stuck {
			all.Stuck = append(all.Stuck, test)
			all.DumpOf[test], all.StuckFor[test] = res.Dump, res.StuckAfter
			for _, other := range hung {
				if _, ran := all.Passed[other]; !ran && other != test && all.HungOn[other] == "" {
					all.HungOn[other] = test
				}
			}
		}
		all.OK = all.OK && res.OK
		if all.Crash == "" {
			all.Crash, all.Dump = res.Crash, res.Dump
		}
		if res.Leak != "" {
			all.Leaks = res.Leak
		}
		stopped := res.Crash != "" || len(res.Stuck) > 0 || len(queue) > 0 || group != nil
		if !stopped || !further && len(queue) == 0 {
			return all, nil
		}
		done = done[:0]
		for test := range all.Passed {
			if IsCheck(test) {
				done = append(done, test)
			}
		}
	}
}

// stoppedSetups lists the tests that were running when the binary
// stopped and that are no check, each the innermost of those running:
// TestStress/exercise-3 rather than TestStress, so that skipping it
// spares the stress tests of other exercises.
func stoppedSetups(res *gotest.Result) []string {
	var stopped []string
	for test := range res.Passed {
		if !IsCheck(test) && stoppedIn(res, test) {
			stopped = append(stopped, test)
		}
	}
	var inner []string
	for _, test := range stopped {
		if !slices.ContainsFunc(stopped, func(t string) bool { return strings.HasPrefix(t, test+"/") }) {
			inner = append(inner, test)
		}
	}
	sort.Strings(inner)
	return inner
}

// stoppedIn reports whether test was running when the binary stopped (a
// crash, or the watch's stop of a quiet binary): it failed without a
// "--- FAIL" line of its own, or it is the test the crash came from.
//
// A check that is a plain top-level test stops with its subtests: when
// TestCloseWakesEveryPop/reference/RealFIFO's bubble ends in synctest's
// deadlock panic, TestCloseWakesEveryPop is the check that stopped the
// run, though go test printed its "--- FAIL" on the way down.
func stoppedIn(res *gotest.Result, test string) bool {
	if stoppedItself(res, test) {
		return true
	}
	if !IsCheck(test) || strings.Contains(test, "/") {
		return false // a scenario's or a stress test's subtest is a check of its own
	}
	for other := range res.Passed {
		if strings.HasPrefix(other, test+"/") && stoppedItself(res, other) {
			return true
		}
	}
	return false
}

func stoppedItself(res *gotest.Result, test string) bool {
	if res.Crash != "" && test == res.Repanicked && !crashNotDone.MatchString(res.Crash) {
		// It failed by the panic that stopped the binary. (A stub's
		// panic says whose exercise is not done; that is judged apart.)
		return true
	}
	return (res.Crash != "" || len(res.Stuck) > 0) && !res.Passed[test] && !strings.Contains(res.Output[test], "--- FAIL")
}

// stoppedAmid lists the checks that were running when the binary stopped.
func stoppedAmid(res *gotest.Result) []string {
	var amid []string
	for test := range res.Passed {
		if IsCheck(test) && stoppedIn(res, test) {
			amid = append(amid, test)
		}
	}
	sort.Strings(amid)
	return amid
}

// isPlain reports whether test is a plain check: a top-level test, not a
// scenario or a stress test, which the blame file does not measure.
func isPlain(test string) bool { return IsCheck(test) && !strings.Contains(test, "/") }

// isScenario reports whether test names one scenario file's subtest.
func isScenario(test string) bool {
	rest, ok := strings.CutPrefix(test, "TestScenarios/")
	return ok && !strings.Contains(rest, "/")
}

// IsCheck reports whether test (a full test name) is one of the tests
// that judge exercises: a scenario file's subtest, a stress test, or any
// other top-level test (a leak, race or lifecycle test, an example, a
// fuzz test's seeds).
func IsCheck(test string) bool {
	if _, stress := scenario.StressExercise(test); stress || isScenario(test) {
		return true
	}
	return !strings.Contains(test, "/") && test != "TestScenarios" && test != "TestStress"
}

// levels is a -run or -skip pattern for the checks named: one alternative
// per level structure, joined by a top-level "|", which go test reads as
// "either".
func levels(tests []string) string {
	var scenarios, alternatives []string
	for _, t := range tests {
		if name, ok := strings.CutPrefix(t, "TestScenarios/"); ok {
			scenarios = append(scenarios, regexp.QuoteMeta(name))
			continue
		}
		if id, ok := scenario.StressExercise(t); ok {
			name := t[strings.LastIndex(t, "/")+1:]
			alternatives = append(alternatives, fmt.Sprintf("^TestStress$/^exercise-%d$/^%s$", id, regexp.QuoteMeta(name)))
			continue
		}
		// go test matches a subtest's name level by level, split at "/":
		// each level is anchored, or exercise-1 would match exercise-12.
		var parts []string
		for _, level := range strings.Split(t, "/") {
			parts = append(parts, "^"+regexp.QuoteMeta(level)+"$")
		}
		alternatives = append(alternatives, strings.Join(parts, "/"))
	}
	if len(scenarios) > 0 {
		sort.Strings(scenarios)
		alternatives = append(alternatives, "^TestScenarios$/^("+strings.Join(scenarios, "|")+")$")
	}
	sort.Strings(alternatives)
	return strings.Join(alternatives, "|")
}

// skipPattern skips the checks named; a name without "^" such as
// "TestE2E" is a prefix.
func skipPattern(tests []string) string {
	var prefixes, exact []string
	for _, t := range tests {
		if t == "TestE2E" {
			prefixes = append(prefixes, "^TestE2E")
			continue
		}
		exact = append(exact, t)
	}
	if len(exact) == 0 {
		return strings.Join(prefixes, "|")
	}
	return strings.Join(append(prefixes, levels(exact)), "|")
}

// runPattern runs only the checks named.
func runPattern(tests []string) string { return levels(tests) }

// stressTests lists, by exercise, the stress tests that ran.
func stressTests(res *gotest.Result) map[int][]string {
	byID := map[int][]string{}
	for test := range res.Passed {
		if id, ok := scenario.StressExercise(test); ok {
			byID[id] = append(byID[id], test)
		}
	}
	return byID
}
