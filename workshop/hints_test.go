package workshop_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

// hintColumns is how wide a hint's lines may run, a tab counting four: a
// longer hint goes on over continuation lines (workshop/exgen), so that
// the reference reads without scrolling sideways.
const hintColumns = 100

// TestHintsWrapped fails on a hint line of the chapters' reference code
// that runs past hintColumns. Rewrapping never changes what the runner
// shows: the lines are joined by single spaces.
func TestHintsWrapped(t *testing.T) {
	root, err := chapters.Root()
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(root, "[0-9][0-9]-*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i, marker := range exgen.MarkerLines(lines) {
			title := strings.HasPrefix(strings.TrimSpace(lines[i]), "// exercise:begin ")
			if wide := len(strings.ReplaceAll(lines[i], "\t", "    ")); marker && !title && wide > hintColumns {
				t.Errorf("%s:%d: a hint line of %d columns; wrap it at %d, going on over lines that start with \"//   \"", path, i+1, wide, hintColumns)
			}
		}
	}
}
