package progress

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/gotest"
)

// flakyAndBroken is a package with a check that fails on its first run
// only, as a check your code fails now and then does, and one that fails
// every time.
const flakyAndBroken = `package p

import (
	"os"
	"testing"
)

func TestFlaky(t *testing.T) {
	mark := os.Getenv("FLAKY_MARK")
	if _, err := os.Stat(mark); err != nil {
		os.WriteFile(mark, nil, 0o644)
		t.Fatal("lost an event")
	}
}

func TestBroken(t *testing.T) { t.Fatal("wrong every time") }

func TestPasses(t *testing.T) {}
`

// TestAFlakyCheckIsSearchedApart: before any swap, the failing checks run
// again on the copy as it is; the one that passes now is flaky, says so,
// and is searched apart (each swap run FlakyRuns times: one pass would
// blame an exercise by chance), while the one that fails again is solid.
func TestAFlakyCheckIsSearchedApart(t *testing.T) {
	bin := buildPackage(t, flakyAndBroken)
	env := []string{"FLAKY_MARK=" + filepath.Join(t.TempDir(), "mark")}
	first, err := runTests(bin, env, 0, gotest.Idle{}, "", "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.Passed["TestFlaky"] || first.Passed["TestBroken"] {
		t.Fatalf("first run: %v; want both failing", first.Passed)
	}
	k := &code{s: &standIn{yours: map[string]string{}}, bin: bin, say: func(string, ...any) {}}
	outcomes := map[string]*outcome{"TestFlaky": {test: "TestFlaky"}, "TestBroken": {test: "TestBroken"}}
	solid, flaky, err := k.confirm(outcomes, []string{"TestBroken", "TestFlaky"}, env, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(solid, []string{"TestBroken"}) || !slices.Equal(flaky, []string{"TestFlaky"}) {
		t.Errorf("solid %v, flaky %v; want [TestBroken] and [TestFlaky]", solid, flaky)
	}
	if o := outcomes["TestFlaky"]; o.located != Flaky || !strings.Contains(o.report, "Flaky:") {
		t.Errorf("TestFlaky: located %v, report %q; want flaky, and said", o.located, o.report)
	}
	if o := outcomes["TestBroken"]; o.located != NotLocated || o.report != "" {
		t.Errorf("TestBroken: located %v, report %q; want untouched", o.located, o.report)
	}
}

// A check left out of the first run, as it runs code a stuck check waited
// in (hung), that passes every run on its own passed: it is neither flaky
// nor solid, and no exercise is searched for it (trial F: a drain that
// never used the stuck delaying queue read "Flaky: failed 1 of 11 runs"
// and blamed a correct exercise).
func TestALeftOutCheckThatPassesAlonePassed(t *testing.T) {
	bin := buildPackage(t, flakyAndBroken)
	env := []string{"FLAKY_MARK=" + filepath.Join(t.TempDir(), "mark")}
	k := &code{s: &standIn{yours: map[string]string{}}, bin: bin, say: func(string, ...any) {}}
	left := &outcome{test: "TestPasses", hung: true}
	outcomes := map[string]*outcome{"TestPasses": left, "TestBroken": {test: "TestBroken"}}
	solid, flaky, err := k.confirm(outcomes, []string{"TestBroken", "TestPasses"}, env, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(solid, []string{"TestBroken"}) || len(flaky) != 0 {
		t.Errorf("solid %v, flaky %v; want [TestBroken] and none", solid, flaky)
	}
	if !left.passedAlone || left.located != NotLocated || strings.Contains(left.report, "Flaky") {
		t.Errorf("the left-out check: passedAlone %t, located %v, report %q; want it passed alone, unlocated, no Flaky", left.passedAlone, left.located, left.report)
	}
}

// A test run several times (-count) fails if any of its runs failed: a
// swap proves an exercise only when every run passes.
func TestARepeatedTestFailsIfAnyRunFailed(t *testing.T) {
	bin := buildPackage(t, flakyAndBroken)
	env := []string{"FLAKY_MARK=" + filepath.Join(t.TempDir(), "mark")}
	res, err := runTests(bin, env, 0, gotest.Idle{}, "^TestFlaky$", "", false, nil, "-count=3")
	if err != nil {
		t.Fatal(err)
	}
	if passed, ok := res.Passed["TestFlaky"]; !ok || passed {
		t.Errorf("TestFlaky failed its first of 3 runs, yet: passed %v (recorded %v)", passed, ok)
	}
}

// A check confirm marked Flaky is still to be searched: only a proof
// settles it (the flaky search had dropped every flaky check as settled,
// leaving each on the exercise it is tagged with).
func TestOnlyAProofSettlesACheck(t *testing.T) {
	for p, want := range map[Proof]bool{NotLocated: false, Flaky: false, ByFrames: true, OnlySuspect: true, BySwap: true, FlakyBySwap: true} {
		if p.settled() != want {
			t.Errorf("%v settled = %v, want %v", p, p.settled(), want)
		}
	}
}
