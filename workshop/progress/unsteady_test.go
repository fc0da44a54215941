package progress

import (
	"strings"
	"testing"
	"time"

	"example.com/walkthrough/workshop/exgen"
)

// unsteadyChapter is a chapter of one exercise whose checks fail now and
// then whatever its code: TestUnsteady fails the first time it runs in a
// process, TestSteady never fails (here; it stands for a check your code
// failed once).
var unsteadyChapter = map[string]string{
	"go.mod": "module p\n\ngo 1.25\n",
	"p.go": `package p

// Answer is the exercise.
func Answer() int {
	// exercise:begin 1 The answer
	// exercise:hint Return 42.
	return 42
	// exercise:end 1
}
`,
	"p_test.go": `package p

import "testing"

var runs int

func TestUnsteady(t *testing.T) {
	if runs++; runs == 1 {
		t.Fatal("timed out")
	}
}

func TestSteady(t *testing.T) {
	if Answer() != 42 {
		t.Fatal("wrong")
	}
}
`,
}

// TestAFlakyCheckTheReferenceFailsTooIsUnsteady: a flaky check no swap
// settled runs with the reference's code in place of every exercise; one
// that fails there too is Unsteady (not your code: it counts against no
// exercise, and says so), one that passes stays Flaky.
func TestAFlakyCheckTheReferenceFailsTooIsUnsteady(t *testing.T) {
	k := tinyCode(t, unsteadyChapter, unsteadyChapter["p.go"], nil)
	outcomes := map[string]*outcome{
		"TestUnsteady": {test: "TestUnsteady", located: Flaky, took: time.Millisecond, report: "  TestUnsteady failed\n"},
		"TestSteady":   {test: "TestSteady", located: Flaky, took: time.Millisecond, report: "  TestSteady failed\n"},
	}
	if err := k.onTheReference(outcomes, []string{"TestSteady", "TestUnsteady"}, []int{1}, nil, time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	if o := outcomes["TestUnsteady"]; o.located != Unsteady || !strings.Contains(o.report, "Unsteady: it failed too") {
		t.Errorf("TestUnsteady: located %v, report %q; want unsteady, and said", o.located, o.report)
	}
	if o := outcomes["TestSteady"]; o.located != Flaky || strings.Contains(o.report, "Unsteady") {
		t.Errorf("TestSteady: located %v, report %q; want still flaky", o.located, o.report)
	}
	ex := judge("p", exgen.Exercise{ID: 1}, []string{"TestUnsteady"}, map[string]*outcome{"TestUnsteady": outcomes["TestUnsteady"]}, nil)
	if ex.Status != Pass {
		t.Errorf("an exercise whose only failing check is unsteady: %v, want pass", ex.Status)
	}
}
