package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/chapters/repotest"
)

// TestMakeExercisesKeepsYourWork runs the real `make exercises` in a
// temporary git checkout holding chapter 03: an edited exercise file
// survives, and the command says what it left alone and how to force it;
// a stale copy from a changed reference is still regenerated; FORCE=1
// overwrites the edit and keeps it in a backup.
func TestMakeExercisesKeepsYourWork(t *testing.T) {
	if testing.Short() {
		t.Skip("runs make and go in a copy of the workspace")
	}
	root := workspace(t)
	keys := filepath.Join(root, "03-indexer", "exercise", "keys.go")
	const mine = "\n// my answer, not yet committed\n"
	appendTo(t, keys, mine)

	// Keeping your work is no failure: the command says so and exits 0.
	out, err := makeExercises(t, root)
	if err != nil {
		t.Errorf("make exercises failed although it only kept your work: %v\n%s", err, out)
	}
	for _, want := range []string{"03-indexer: left as it is", "exercise/keys.go", "make exercises FORCE=1", "workshop reset 03", "Nothing failed."} {
		if !strings.Contains(out, want) {
			t.Errorf("make exercises says:\n%s\nwant it to mention %q", out, want)
		}
	}
	if got := read(t, keys); !strings.HasSuffix(got, mine) {
		t.Fatalf("make exercises overwrote the edited exercise/keys.go")
	}

	// A maintainer's change to the reference makes the committed copy
	// stale, which is no reason to refuse: only the edit is.
	must(t, os.WriteFile(keys, []byte(strings.TrimSuffix(read(t, keys), mine)), 0o644))
	ref := filepath.Join(root, "03-indexer", "keys.go")
	must(t, os.WriteFile(ref, []byte(strings.Replace(read(t, ref), "package indexer", "// A maintainer's new comment.\npackage indexer", 1)), 0o644))
	if out, err := makeExercises(t, root); err != nil || !strings.Contains(out, "03-indexer: wrote exercise/") {
		t.Errorf("after a reference change, make exercises: %v\n%s", err, out)
	}
	if !strings.Contains(read(t, keys), "A maintainer's new comment.") {
		t.Errorf("the stale copy was not regenerated")
	}

	appendTo(t, keys, mine)
	out, err = makeExercises(t, root, "FORCE=1")
	if err != nil {
		t.Fatalf("make exercises FORCE=1: %v\n%s", err, out)
	}
	if strings.Contains(read(t, keys), mine) {
		t.Errorf("FORCE=1 did not regenerate exercise/keys.go")
	}
	backups, _ := filepath.Glob(filepath.Join(root, ".cache", "workshop", "backups", "*", "03-indexer", "exercise", "keys.go"))
	if len(backups) != 1 || !strings.HasSuffix(read(t, backups[0]), mine) {
		t.Errorf("FORCE=1 kept no backup of the edit (found %v); it says:\n%s", backups, out)
	}
}

// workspace copies go.work, the Makefile, workshop/ and 03-indexer/ into a
// temporary git checkout with everything committed.
func workspace(t *testing.T) string {
	t.Helper()
	dst := repotest.Copy(t, []string{"workshop", "03-indexer", "mk"}, []string{"Makefile"}, []string{"03-indexer", "workshop"})
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "copy"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dst
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dst
}

func makeExercises(t *testing.T, root string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("make", append([]string{"--no-print-directory", "exercises"}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK=") // the copy's own go.work
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	must(t, os.WriteFile(path, []byte(read(t, path)+text), 0o644))
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	must(t, err)
	return string(data)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
