package progress

import (
	"strings"
	"testing"
	"time"

	"example.com/walkthrough/workshop/exgen"
)

// outsideChapter has one exercise, and a function outside it (Double)
// that the copy gives the learner; TestDouble runs both.
var outsideChapter = map[string]string{
	"go.mod": "module p\n\ngo 1.25\n",
	"p.go": `package p

// Answer is exercise 1.
func Answer() int {
	// exercise:begin 1 The answer
	// exercise:hint Return 42.
	return 42
	// exercise:end 1
}

// Double is given.
func Double(x int) int { return 2 * x }
`,
	"p_test.go": `package p

import "testing"

func TestDouble(t *testing.T) {
	if Double(Answer()) != 84 {
		t.Fatal("wrong")
	}
}
`,
}

// TestAFailureOnGivenCodeIsPutOutside: a check that fails on a function
// outside the exercises you changed passes with the generated code of it
// in place of yours: it is put outside (InGiven), on no exercise, and
// judge passes the exercise it is tagged with (trial X's DeltaFIFO.Close
// was put on exercise 2).
func TestAFailureOnGivenCodeIsPutOutside(t *testing.T) {
	mine := strings.Replace(outsideChapter["p.go"], "return 2 * x", "return 3 * x", 1)
	k := tinyCode(t, outsideChapter, mine, map[string]int{"Answer": 1})
	if got := k.givenChanged(); len(got) != 1 || got[0] != "p.go: Double" {
		t.Fatalf("givenChanged = %q, want [p.go: Double]", got)
	}
	outcomes := map[string]*outcome{
		"TestDouble": {test: "TestDouble", culprit: 1, took: time.Millisecond, report: "  TestDouble failed\n"},
	}
	if err := k.outside(outcomes, nil, time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	if o := outcomes["TestDouble"]; o.located != InGiven || o.culprit != 0 {
		t.Errorf("TestDouble: %v on exercise %d; want in your code outside the exercises, on none", o.located, o.culprit)
	}
	if ex := judge("p", exgen.Exercise{ID: 1}, []string{"TestDouble"}, outcomes, nil); ex.Status != Pass {
		t.Errorf("exercise 1: %v, want pass: the failure is outside it", ex.Status)
	}
}
