package exgen

import (
	"path/filepath"
	"strings"
	"testing"
)

const hintSample = `package sample

// Twice returns n doubled.
func Twice(n int) int {
	// exercise:begin 1 Double it
	// exercise:hint Add n to
	//   itself.
	// exercise:deeper Or shift
	//   it left
	//   by one.
	d := n + n
	//   The code's own comment, indented, is kept: it follows code.
	return d
	// exercise:end 1
}

// Half returns n halved.
func Half(n int) int {
	// exercise:begin 2 Halve it
	// exercise:hint Divide by two.
	// exercise:track deep
	//   Not a continuation: the track line came between.
	return n / 2
	// exercise:end 2
}
`

// TestHintsGoOnOverContinuationLines: a hint's indented comment lines are
// joined into it and kept out of the learner's copy, as are its markers;
// an indented comment that follows anything else is the code's own.
func TestHintsGoOnOverContinuationLines(t *testing.T) {
	dir := sampleChapter(t, map[string]string{"sample.go": hintSample})
	list, err := Exercises(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := list[0].Hint, "Add n to itself."; got != want {
		t.Errorf("hint = %q, want %q", got, want)
	}
	if got, want := list[0].Deeper, "Or shift it left by one."; got != want {
		t.Errorf("deeper hint = %q, want %q", got, want)
	}
	files, err := Generate(dir, func(int) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	copied := string(files[filepath.Join(ExerciseDir, "sample.go")])
	if strings.Contains(copied, "exercise:") || strings.Contains(copied, "itself") || strings.Contains(copied, "by one") {
		t.Errorf("the exercise copy holds a hint:\n%s", copied)
	}
	for _, kept := range []string{"The code's own comment", "Not a continuation"} {
		if !strings.Contains(copied, kept) {
			t.Errorf("the exercise copy lost %q:\n%s", kept, copied)
		}
		if !strings.Contains(WithoutMarkers(hintSample), kept) {
			t.Errorf("WithoutMarkers lost %q", kept)
		}
	}
}
