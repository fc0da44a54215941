package runner

import (
	"strings"
	"testing"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
)

// TestNextStepSaysFixForAFailure: status sends you to fill in a stub only
// when the exercise has one; code of yours that fails is to be fixed
// (trial X was told to "fill in the function that panics" for exercise 3,
// which failed and had nothing left that panics).
func TestNextStepSaysFixForAFailure(t *testing.T) {
	c := chapters.Chapter{Name: "02-deltafifo", Dir: "/w/02-deltafifo"}
	e := progress.Exercise{Exercise: exgen.Exercise{ID: 3, File: "deltafifo.go"}, Status: progress.Fail}
	if got := nextStep(c, e); strings.Contains(got, "panics") || !strings.Contains(got, "02-deltafifo/exercise/deltafifo.go fails a check") ||
		!strings.Contains(got, "fix it") {
		t.Errorf("for a failing exercise, status says %q", got)
	}
	e.Status = progress.NotStarted
	if got := nextStep(c, e); !strings.Contains(got, "fill in the function that panics") {
		t.Errorf("for an exercise not started, status says %q", got)
	}
}
