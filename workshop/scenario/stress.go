package scenario

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
)

// Stress runs one stress test of a concurrency exercise: many goroutines
// hammering the selected implementation to check a property no single
// scenario can (no key processed by two workers at once, no notification
// lost, no goroutine left after stop). Run it from a chapter's TestStress;
// `make test` runs it under -race, and so does the learner's runner.
//
// The subtest is named "exercise-<id>/<name>", which is how the runner
// knows whose work it judges. An unfinished exercise's stub, met on the
// test's own goroutine, is reported the way a scenario reports it; so is
// a panic caught on a goroutine of the code under test and raised again
// here (a *Caught): with the frames where it happened, which the runner
// reads to name the exercise.
func Stress(t *testing.T, exercise int, name string, fn func(t *testing.T)) {
	t.Helper()
	t.Run(fmt.Sprintf("exercise-%d/%s", exercise, name), func(t *testing.T) {
		defer func() {
			if v := recover(); v != nil {
				nd, ok := NotDoneIn(v)
				if c, caught := v.(*Caught); caught && !ok {
					t.Fatal(c.Report())
				}
				if !ok {
					panic(v)
				}
				t.Fatalf("  Stopped:  this stress test needs %s exercise %d, which is not done yet.%s",
					nd.Chapter, nd.Exercise, notDoneHint(nd))
			}
		}()
		fn(t)
	})
}

var stressName = regexp.MustCompile(`^TestStress/exercise-(\d+)/[^/]+$`)

// StressExercise returns the exercise a stress test (by its full test
// name, "TestStress/exercise-7/no-key-twice") judges, or false.
func StressExercise(test string) (int, bool) {
	m := stressName.FindStringSubmatch(test)
	if m == nil {
		return 0, false
	}
	id, err := strconv.Atoi(m[1])
	return id, err == nil
}
