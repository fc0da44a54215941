package exgen

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Write regenerates a chapter's exercise copy and adapter twins on disk,
// removing exercise files the generator no longer writes.
func Write(chapterDir string) error {
	files, err := Generate(chapterDir, StubAll)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(chapterDir, ExerciseDir), 0o755); err != nil {
		return err
	}
	for _, extra := range ExtraFiles(chapterDir, files) {
		if err := os.Remove(filepath.Join(chapterDir, extra)); err != nil {
			return err
		}
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(chapterDir, name), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Stale lists what differs between the generator's output and the disk:
// files whose content differs, that are missing, or that should not be
// there. An empty list means the committed copy is current.
func Stale(chapterDir string) ([]string, error) {
	files, err := Generate(chapterDir, StubAll)
	if err != nil {
		return nil, err
	}
	var stale []string
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(chapterDir, name))
		if err != nil || !bytes.Equal(got, want) {
			stale = append(stale, name)
		}
	}
	stale = append(stale, ExtraFiles(chapterDir, files)...)
	sort.Strings(stale)
	return stale, nil
}

// ExtraFiles lists the Go files in exercise/ that are not among files
// (the generator's output): your own additions, or leftovers.
func ExtraFiles(chapterDir string, files map[string][]byte) []string {
	onDisk, _ := filepath.Glob(filepath.Join(chapterDir, ExerciseDir, "*.go"))
	var extra []string
	for _, path := range onDisk {
		name := filepath.Join(ExerciseDir, filepath.Base(path))
		if _, ok := files[name]; !ok {
			extra = append(extra, name)
		}
	}
	return extra
}

// EditedByLearner reports whether git sees local changes under the
// chapter's exercise/ directory. A learner's edits are their work, not a
// stale generator; CI runs on a clean clone, where this is always false.
func EditedByLearner(chapterDir string) bool {
	cmd := exec.Command("git", "status", "--porcelain", "--", ExerciseDir)
	cmd.Dir = chapterDir
	out, err := cmd.Output()
	return err == nil && strings.TrimSpace(string(out)) != ""
}

// CheckFresh returns an error that tells a developer what to run when the
// committed exercise copy is not what the generator writes now.
func CheckFresh(chapterDir string) error {
	stale, err := Stale(chapterDir)
	if err != nil || len(stale) == 0 {
		return err
	}
	return fmt.Errorf("%s: the exercise copy is stale (%s).\nRun `make exercises` and commit the result", filepath.Base(chapterDir), strings.Join(stale, ", "))
}
