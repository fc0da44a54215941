package exgen

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Write regenerates a chapter's exercise copy and adapter twins on disk,
// removing exercise files the generator no longer writes. It overwrites
// whatever is there: callers that may meet a learner's work check
// Guarded first.
func Write(chapterDir string) error {
	files, err := GenerateCore(chapterDir)
	if err != nil {
		return err
	}
	return WriteFiles(chapterDir, files)
}

// WriteFiles writes files (Generate's output) into the chapter and removes
// the exercise files that are not among them, except those named in keep
// (files a learner added: make exercises FORCE=1 leaves them).
func WriteFiles(chapterDir string, files map[string][]byte, keep ...string) error {
	if err := os.MkdirAll(filepath.Join(chapterDir, ExerciseDir), 0o755); err != nil {
		return err
	}
	for _, extra := range ExtraFiles(chapterDir, files) {
		if slices.Contains(keep, extra) {
			continue
		}
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
	files, err := GenerateCore(chapterDir)
	if err != nil {
		return nil, err
	}
	return StaleAgainst(chapterDir, files), nil
}

// StaleAgainst is Stale against files, a generation of the chapter's
// copy (a track's: reset compares with what its track generates).
func StaleAgainst(chapterDir string, files map[string][]byte) []string {
	var stale []string
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(chapterDir, name))
		if err != nil || !bytes.Equal(got, want) {
			stale = append(stale, name)
		}
	}
	stale = append(stale, ExtraFiles(chapterDir, files)...)
	sort.Strings(stale)
	return stale
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

// Guarded lists the files that writing files (Generate's output) would
// overwrite or remove although they are not the generator's work: edits
// in exercise/, and files added there. A file on disk is the generator's
// when it is what the generator writes now, or what it wrote from the
// committed reference (a copy that went stale because the reference
// changed since the last commit). Outside a git checkout only the first
// holds, so every difference is guarded.
func Guarded(chapterDir string, files map[string][]byte) []string {
	committed := generateCommitted(chapterDir)
	ours := func(name string, onDisk []byte) bool {
		want, ok := committed[name]
		return ok && bytes.Equal(onDisk, want)
	}
	var guarded []string
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(chapterDir, name))
		if err == nil && !bytes.Equal(got, want) && !ours(name, got) {
			guarded = append(guarded, name)
		}
	}
	for _, name := range ExtraFiles(chapterDir, files) {
		got, err := os.ReadFile(filepath.Join(chapterDir, name))
		if err == nil && !ours(name, got) {
			guarded = append(guarded, name)
		}
	}
	sort.Strings(guarded)
	return guarded
}

// generateCommitted is what the generator writes from the chapter's
// reference as last committed (HEAD), or nil when git cannot say: the
// chapter's top-level files are taken from HEAD into a scratch directory
// of the same name, and generated there.
func generateCommitted(chapterDir string) map[string][]byte {
	list := exec.Command("git", "ls-tree", "--name-only", "HEAD", "./")
	list.Dir = chapterDir
	out, err := list.Output()
	if err != nil {
		return nil
	}
	scratch, err := os.MkdirTemp("", "exgen-committed-")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(scratch)
	dir := filepath.Join(scratch, filepath.Base(chapterDir))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil
	}
	for _, name := range strings.Fields(string(out)) {
		if !strings.HasSuffix(name, ".go") && name != "go.mod" {
			continue // directories (exercise/, testdata/) and other files
		}
		show := exec.Command("git", "show", "HEAD:./"+name)
		show.Dir = chapterDir
		data, err := show.Output()
		if err != nil {
			return nil
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil
		}
	}
	files, err := GenerateCore(dir)
	if err != nil {
		return nil
	}
	return files
}
