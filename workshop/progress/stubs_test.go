package progress

import (
	"strings"
	"testing"

	"example.com/walkthrough/workshop/gotest"
)

// TestAStubsCrashStopsThePlainChecksBesideIt: when the crash beside
// another check is a stub's panic (sideBySide, its panic worded as
// workshop/todo words it), with stubsStop both checks are judged stopped
// by it, in one run, rather than halved down to the one that reached it;
// and a check the blame file says runs a stub is not run at all.
func TestAStubsCrashStopsThePlainChecksBesideIt(t *testing.T) {
	bin := buildPackage(t, strings.Replace(sideBySide, `panic("not done: exercise 5")`, `panic("p exercise 5 is not done yet")`, 1))
	res, err := runTests(bin, nil, 0, gotest.Idle{}, "", "", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, test := range []string{"TestCrasher", "TestInnocent"} {
		if res.Passed[test] || !crashNotDone.MatchString(res.CrashOf[test]) {
			t.Errorf("stubsStop: %s passed %t, crash %q; want stopped by the stub", test, res.Passed[test], res.CrashOf[test])
		}
	}
	if got := stoppedByStubs([]string{"TestScenarios/a", "TestScenarios/b", "TestScenarios/c"},
		Blame{"TestScenarios/a": {1, 2}, "TestScenarios/b": {1, 3, 4}}, map[int]bool{3: true, 4: true}); len(got) != 1 || got["TestScenarios/b"] != 3 {
		t.Errorf("stoppedByStubs = %v, want only TestScenarios/b, waiting for 3 (the first stub it runs)", got)
	}
}
