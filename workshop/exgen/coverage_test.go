package exgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `package sample

// A comment line is not code.
func Core() int {
	// exercise:begin 1 Core work
	// exercise:hint Return one.
	x := 1
	return x
	// exercise:end 1
}

func Deep() int {
	// exercise:begin 2 Deep work
	// exercise:hint Return two.
	// exercise:track deep
	return 2
	// exercise:end 2
}

func Given() int {
	return 3
}
`

// TestCoverageAndTracks: a file with a core region (2 code lines), a deep
// one (1) and code outside (8 lines: package, func lines, braces, return).
func TestCoverageAndTracks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "99-sample")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sample.go"), []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	cov, err := CoverageOf(dir)
	if err != nil {
		t.Fatal(err)
	}
	if cov.Lines != 11 || cov.ByTrack[TrackCore] != 2 || cov.ByTrack[TrackDeep] != 1 {
		t.Errorf("coverage = %+v, want 11 lines, 2 core, 1 deep", cov)
	}
	exercises, err := Exercises(dir)
	if err != nil {
		t.Fatal(err)
	}
	if exercises[0].Track != TrackCore || exercises[1].Track != TrackDeep {
		t.Errorf("tracks = %q, %q; want core, deep", exercises[0].Track, exercises[1].Track)
	}

	misplaced := strings.Replace(sample, "\t// exercise:track deep\n", "", 1)
	misplaced = strings.Replace(misplaced, "\treturn 3\n", "\t// exercise:track deep\n\treturn 3\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "sample.go"), []byte(misplaced), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Exercises(dir); err == nil || !strings.Contains(err.Error(), "exercise:track belongs in the first region") {
		t.Errorf("a track marker outside a region: err = %v", err)
	}
}
