package progress

import (
	"strings"
	"testing"
	"time"

	"example.com/walkthrough/workshop/exgen"
)

// letterChapter has two exercises. TestTagged is tagged with exercise 2
// but runs exercise 1's code, which the blame file does not know (a
// scenario with no blame line yet: trial V); TestBroken fails whatever
// the exercises hold.
var letterChapter = map[string]string{
	"go.mod": "module p\n\ngo 1.25\n",
	"p.go": `package p

// Answer is exercise 1.
func Answer() int {
	// exercise:begin 1 The answer
	// exercise:hint Return 42.
	return 42
	// exercise:end 1
}

// Question is exercise 2.
func Question() string {
	// exercise:begin 2 The question
	// exercise:hint Ask it.
	return "?"
	// exercise:end 2
}
`,
	"p_test.go": `package p

import "testing"

func TestTagged(t *testing.T) {
	if Question() != "?" || Answer() != 42 {
		t.Fatal("wrong")
	}
}

func TestBroken(t *testing.T) {
	t.Fatal("timed out")
}
`,
}

// TestNeverOnAnExerciseAsTheReference: a check no search settled, put on
// an exercise whose code is the reference's to the letter, moves to the
// exercise you changed (the one it is tagged with waits for it) when the
// reference's code in place of every exercise makes it pass (Unproved),
// and counts against none when the reference fails it too
// (FailsOnReference).
func TestNeverOnAnExerciseAsTheReference(t *testing.T) {
	mine := strings.Replace(letterChapter["p.go"], "return 42", "return 41", 1)
	k := tinyCode(t, letterChapter, mine, map[string]int{"Answer": 1, "Question": 2})
	k.givenOnce.Do(func() {}) // no code outside the exercises changed
	outcomes := map[string]*outcome{
		"TestTagged": {test: "TestTagged", culprit: 2, took: time.Millisecond, report: "  TestTagged failed\n"},
		"TestBroken": {test: "TestBroken", culprit: 2, took: time.Millisecond, report: "  TestBroken failed\n"},
	}
	tagged := map[int][]string{1: nil, 2: {"TestBroken", "TestTagged"}}
	changed := func(id int) bool { return id == 1 }
	if err := k.offTheLetter(outcomes, tagged, changed, nil, time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	if o := outcomes["TestTagged"]; o.culprit != 1 || o.located != Unproved {
		t.Errorf("TestTagged: on exercise %d, %v; want exercise 1, unproved", o.culprit, o.located)
	}
	if o := outcomes["TestBroken"]; o.located != FailsOnReference || !strings.Contains(o.report, "Not yours") {
		t.Errorf("TestBroken: %v, report %q; want fails on the reference, and said", o.located, o.report)
	}
	for id, want := range map[int]Status{1: Fail, 2: Blocked} {
		if ex := judge("p", exgen.Exercise{ID: id}, tagged[id], outcomes, nil); ex.Status != want {
			t.Errorf("exercise %d: %v, want %v", id, ex.Status, want)
		}
	}
}
