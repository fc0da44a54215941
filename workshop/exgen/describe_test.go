package exgen

import (
	"strings"
	"testing"
)

// TestFuncLinesSayWhatEachFunctionDoes: the blame's "Function:" line is
// the one line the function's stub says, keyed as stack frames name it.
func TestFuncLinesSayWhatEachFunctionDoes(t *testing.T) {
	lines, err := FuncLines("../../07-watchserver")
	if err != nil {
		t.Fatal(err)
	}
	if got := lines["Cache.start"]; !strings.HasPrefix(got, "start registers a watcher with its initial events") {
		t.Errorf("Cache.start: %q", got)
	}
	if got := lines["validate"]; got == "" || strings.HasPrefix(got, "Exercise") {
		t.Errorf("validate: %q", got)
	}
	// The stub's line is cut to fit; Function: wraps the whole sentence
	// (trial I read "returns once all of its…").
	for fn, line := range lines {
		if strings.HasSuffix(line, "…") {
			t.Errorf("%s: cut: %q", fn, line)
		}
	}
}
