package progress

import (
	"testing"

	"example.com/walkthrough/workshop/gotest"
)

// stubBesideOthers is two plain tests side by side, one of which reaches a
// stub on a goroutine of its own, as 07's do when the cache's exercise is
// not done: the panic stops the binary amid both.
const stubBesideOthers = `package p

import (
	"testing"
	"time"
)

func TestReachesTheStub(t *testing.T) {
	t.Parallel()
	time.Sleep(300 * time.Millisecond) // the other one runs by now
	go func() { panic("p exercise 4 is not done yet") }()
	time.Sleep(10 * time.Second)
}

func TestBeside(t *testing.T) {
	t.Parallel()
	time.Sleep(10 * time.Second)
}
`

// TestAStubsCrashStopsThePlainChecksBesideIt: with stubsStop, the plain
// checks a stub's crash stopped side by side are each judged stopped by
// it, in one run, rather than halved down to the one that reached it; and
// a check the blame file says runs a stub is not run at all.
func TestAStubsCrashStopsThePlainChecksBesideIt(t *testing.T) {
	bin := buildPackage(t, stubBesideOthers)
	res, err := runTests(bin, nil, 0, gotest.Idle{}, "", "", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, test := range []string{"TestReachesTheStub", "TestBeside"} {
		if res.Passed[test] || !crashNotDone.MatchString(res.CrashOf[test]) {
			t.Errorf("stubsStop: %s passed %t, crash %q; want stopped by the stub", test, res.Passed[test], res.CrashOf[test])
		}
	}
	if got := stoppedByStubs([]string{"TestScenarios/a", "TestScenarios/b", "TestScenarios/c"},
		Blame{"TestScenarios/a": {1, 2}, "TestScenarios/b": {1, 3, 4}}, map[int]bool{3: true, 4: true}); len(got) != 1 || got["TestScenarios/b"] != 3 {
		t.Errorf("stoppedByStubs = %v, want only TestScenarios/b, waiting for 3 (the first stub it runs)", got)
	}
}
