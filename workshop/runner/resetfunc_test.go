package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResetFuncPutsBackOneGivenFunction: reset CH FUNC puts one function
// outside the exercises back as generated, leaves the rest of the file
// (your exercises in it) alone, keeps a backup, and refuses a function of
// an exercise, which reset CH EX puts back.
func TestResetFuncPutsBackOneGivenFunction(t *testing.T) {
	root := workspace(t)
	r, out := newRunner(root)
	keys := filepath.Join(root, chapter, "exercise", "keys.go")
	generated, err := os.ReadFile(keys)
	must(t, err)
	const given = "func (k KeyError) Unwrap() error { return k.Err }"
	if !bytes.Contains(generated, []byte(given)) {
		t.Fatalf("keys.go has no %q to change", given)
	}
	mine := bytes.Replace(generated, []byte(given), []byte("func (k KeyError) Unwrap() error { return nil }"), 1)
	mine = append(mine, []byte("\n// a note of mine\n")...)
	must(t, os.WriteFile(keys, mine, 0o644))

	r.In = strings.NewReader("y\n")
	must(t, r.ResetFunc("03", "KeyError.Unwrap"))
	contains(t, "reset 03 KeyError.Unwrap", out.take(), "puts KeyError.Unwrap back as generated", "Done.")
	got, err := os.ReadFile(keys)
	must(t, err)
	if !bytes.Contains(got, []byte(given)) || !bytes.Contains(got, []byte("// a note of mine")) {
		t.Errorf("after reset 03 KeyError.Unwrap, keys.go lacks the generated body or lost the rest:\n%s", got)
	}
	if s := LoadState(root); len(s.Backups) != 1 {
		t.Errorf("state has %d backups, want 1", len(s.Backups))
	}

	err = r.ResetFunc("03", "MetaNamespaceKeyFunc")
	if err == nil || !strings.Contains(err.Error(), "reset 03 1") {
		t.Errorf("reset of an exercise's function: %v, want the exercise's reset named", err)
	}
	if err := r.ResetFunc("03", "NoSuchFunc"); err == nil || !strings.Contains(err.Error(), "no function NoSuchFunc") {
		t.Errorf("reset of a function that does not exist: %v", err)
	}
}
