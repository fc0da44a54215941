package progress

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"example.com/walkthrough/workshop/gotest"
	"example.com/walkthrough/workshop/scenario"
)

// runs is the merged outcome of the test runs one check takes.
type runs struct {
	*gotest.Result
	// CrashOf maps a test that was running when the test binary stopped
	// to the "panic: ..." line that stopped it.
	CrashOf map[string]string
}

// runTests runs the chapter's scenarios and stress tests. A stub's panic
// raised in a goroutine of the code under test (an informer's, a queue's)
// stops the whole test binary, leaving every later scenario without a
// result; so the tests run again, skipping each scenario that has one,
// until a run ends without a crash or gets no further. Stress tests are
// skipped the same way: they run first (their file sorts first), and a
// stub's panic in one of their goroutines would otherwise stop every run
// before any scenario. Every check is then judged on its own, whatever
// crashed before it.
func runTests(dir string, env []string, files map[string][]byte, race bool) (*runs, error) {
	all := &runs{Result: &gotest.Result{Passed: map[string]bool{}, Output: map[string]string{}, OK: true}, CrashOf: map[string]string{}}
	var done []string
	for {
		// A stub or a bug can hang a test outside a synctest bubble: the
		// timeout turns that into a failure with a goroutine dump.
		// -vet=off: every check compiles a different stub set, so go test's
		// built-in vet would run again each time; make test vets the code.
		args := []string{"-timeout=5m", "-vet=off", "-run", "^(TestScenarios|TestStress)$"}
		if race {
			args = append([]string{"-race"}, args...)
		}
		if len(done) > 0 {
			args = append(args, "-skip", skipChecks(done))
		}
		res, err := gotest.Run(dir, env, files, append(args, ".")...)
		if err != nil {
			return nil, err
		}
		if res.Build != "" {
			return &runs{Result: res, CrashOf: map[string]string{}}, nil
		}
		further := false
		for test, passed := range res.Passed {
			if _, seen := all.Passed[test]; !seen && IsCheck(test) {
				further = true
			}
			all.Passed[test] = passed
			all.Output[test] = res.Output[test]
			// The test that was running when the binary stopped failed
			// without a "--- FAIL" line of its own.
			if !passed && res.Crash != "" && !strings.Contains(res.Output[test], "--- FAIL") {
				all.CrashOf[test] = res.Crash
			}
		}
		all.OK = all.OK && res.OK
		if all.Crash == "" {
			all.Crash = res.Crash
		}
		if res.Crash == "" || !further {
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

// isScenario reports whether test names one scenario file's subtest.
func isScenario(test string) bool {
	rest, ok := strings.CutPrefix(test, "TestScenarios/")
	return ok && !strings.Contains(rest, "/")
}

// IsCheck reports whether test (a full test name) is one of the tests
// that judge exercises: a scenario file's subtest or a stress test.
func IsCheck(test string) bool {
	_, stress := scenario.StressExercise(test)
	return stress || isScenario(test)
}

// skipChecks is a -skip pattern for the checks named (scenario files'
// subtests and stress tests): one alternative per level structure, joined
// by a top-level "|", which go test reads as "either".
func skipChecks(tests []string) string {
	var scenarios, alternatives []string
	for _, t := range tests {
		if name, ok := strings.CutPrefix(t, "TestScenarios/"); ok {
			scenarios = append(scenarios, regexp.QuoteMeta(name))
			continue
		}
		if id, ok := scenario.StressExercise(t); ok {
			name := t[strings.LastIndex(t, "/")+1:]
			alternatives = append(alternatives, fmt.Sprintf("^TestStress$/^exercise-%d$/^%s$", id, regexp.QuoteMeta(name)))
		}
	}
	if len(scenarios) > 0 {
		sort.Strings(scenarios)
		alternatives = append(alternatives, "^TestScenarios$/^("+strings.Join(scenarios, "|")+")$")
	}
	sort.Strings(alternatives)
	return strings.Join(alternatives, "|")
}

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
