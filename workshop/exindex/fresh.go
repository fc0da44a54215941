package exindex

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// Write writes a chapter's index, and reports whether it changed.
func Write(chapterDir string) (bool, error) {
	want, err := render(chapterDir)
	if err != nil {
		return false, err
	}
	path := filepath.Join(chapterDir, File)
	if now, err := os.ReadFile(path); err == nil && bytes.Equal(now, want) {
		return false, nil
	}
	return true, os.WriteFile(path, want, 0o644)
}

// CheckFresh returns an error that says what to run when the committed
// index is not what the sources say now.
func CheckFresh(chapterDir string) error {
	want, err := render(chapterDir)
	if err != nil {
		return err
	}
	now, err := os.ReadFile(filepath.Join(chapterDir, File))
	switch {
	case err == nil && bytes.Equal(now, want):
		return nil
	case os.IsNotExist(err):
		return fmt.Errorf("%s: %s is missing.\nRun `make exercises` and commit the result", filepath.Base(chapterDir), File)
	}
	return fmt.Errorf("%s: %s is stale: it is not what its sources (exercise markers, scenario headers, blame.txt, checked-together.txt, mutants) say now.\nRun `make exercises` and commit the result", filepath.Base(chapterDir), File)
}

func render(chapterDir string) ([]byte, error) {
	idx, err := Build(chapterDir)
	if err != nil {
		return nil, err
	}
	return idx.Text(), nil
}
