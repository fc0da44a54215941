package progress

import (
	"os"
	"path/filepath"
	"testing"

	"example.com/walkthrough/workshop/exgen"
)

// tinyCode writes a one-package chapter (chapter: file name → text, with
// a p.go) into a temporary directory, and makes the code a check of it
// judges, with mine as your p.go. funcs maps each function of an exercise
// to it (newCode reads that from a real chapter).
func tinyCode(t *testing.T, chapter map[string]string, mine string, funcs map[string]int) *code {
	t.Helper()
	dir := t.TempDir()
	for name, text := range chapter {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	gen, err := exgen.Generate(dir, func(int) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	stubs, err := exgen.Generate(dir, exgen.StubAll)
	if err != nil {
		t.Fatal(err)
	}
	return &code{
		s:     &standIn{dir: dir, files: map[string][]byte{"p.go": []byte(mine)}, yours: map[string]string{filepath.Join(dir, "p.go"): "p/exercise/p.go"}},
		done:  gen,
		stubs: stubs,
		say:   func(string, ...any) {},
		funcs: funcs,
	}
}
