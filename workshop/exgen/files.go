package exgen

import (
	"path/filepath"
	"sort"
	"strings"
)

// GoFiles lists the non-test Go files of a directory, by base name: a
// chapter's reference package, or its exercise copy.
func GoFiles(dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range paths {
		if !strings.HasSuffix(p, "_test.go") {
			names = append(names, filepath.Base(p))
		}
	}
	sort.Strings(names)
	return names, nil
}

// AdapterTwinNames lists the generated exercise adapters of a chapter
// ("adapter_exercise_test.go"), one per reference adapter (adapterTwins).
func AdapterTwinNames(chapterDir string) []string {
	paths, _ := filepath.Glob(filepath.Join(chapterDir, "*_reference_test.go"))
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(filepath.Base(p), "_reference_test.go")+"_exercise_test.go")
	}
	sort.Strings(names)
	return names
}

// ExerciseAt is the exercise whose region holds line (1-based) of file (a
// reference file of the chapter, by base name), or 0 outside every region.
func ExerciseAt(chapterDir, file string, line int) (int, error) {
	f, err := readSource(filepath.Join(chapterDir, file), map[int]*Exercise{})
	if err != nil {
		return 0, err
	}
	for _, r := range f.regions {
		if r.begin < line && line <= r.end+1 {
			return r.id, nil
		}
	}
	return 0, nil
}
