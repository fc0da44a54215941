// Package mutant reads a chapter's known-bug mutants: small, deliberate
// mistakes in the reference code that the chapter's tests must catch. A
// mutant the tests do not catch is a behaviour nobody checks.
//
// A mutant is a file testdata/mutants/<name>.txt: a paragraph that says
// what the bug is, then one or more find/replace pairs on reference files.
//
//	Updates never take the key out of the old index values.
//	-- find: index.go --
//		for _, v := range oldValues {
//	-- replace --
//		for _, v := range []string(nil) {
//
// Each find text must occur exactly once in its file, so a mutant stops
// applying loudly when the code it mutates changes.
package mutant

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"example.com/walkthrough/workshop/exgen"
)

// Mutant is one known bug.
type Mutant struct {
	Name  string // the file name without .txt
	About string // the paragraph at the top
	Edits []Edit
}

// Edit replaces Find by Replace in File (relative to the chapter).
type Edit struct {
	File, Find, Replace string
}

// Load reads every mutant of a chapter.
func Load(chapterDir string) ([]Mutant, error) {
	paths, err := filepath.Glob(filepath.Join(chapterDir, "testdata", "mutants", "*.txt"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var list []Mutant
	for _, p := range paths {
		m, err := parse(p)
		if err != nil {
			return nil, err
		}
		list = append(list, m)
	}
	return list, nil
}

func parse(path string) (Mutant, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Mutant{}, err
	}
	m := Mutant{Name: strings.TrimSuffix(filepath.Base(path), ".txt")}
	var about []string
	var cur *Edit
	var section *string
	for i, line := range strings.SplitAfter(string(data), "\n") {
		header := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(header, "-- find:") && strings.HasSuffix(header, "--"):
			file := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(header, "-- find:"), "--"))
			m.Edits = append(m.Edits, Edit{File: file})
			cur = &m.Edits[len(m.Edits)-1]
			section = &cur.Find
		case header == "-- replace --":
			if cur == nil {
				return m, fmt.Errorf("%s:%d: replace before any find", path, i+1)
			}
			section = &cur.Replace
		case section != nil:
			*section += line
		default:
			about = append(about, strings.TrimSpace(line))
		}
	}
	m.About = strings.TrimSpace(strings.Join(about, " "))
	if len(m.Edits) == 0 || m.About == "" {
		return m, fmt.Errorf("%s: a mutant needs a paragraph saying what is wrong and at least one -- find: FILE -- / -- replace -- pair", path)
	}
	return m, nil
}

// Exercise is the exercise whose code the mutant breaks: the one whose
// region holds the first line its first edit changes (0 when that line is
// outside every region). The find text may start on an unchanged line
// outside the region, such as the func line that makes it unique.
func (m Mutant) Exercise(chapterDir string) (int, error) {
	e := m.Edits[0]
	src, err := os.ReadFile(filepath.Join(chapterDir, e.File))
	if err != nil {
		return 0, err
	}
	at := strings.Index(string(src), e.Find)
	if at < 0 {
		return 0, fmt.Errorf("mutant %s: the text to find is not in %s", m.Name, e.File)
	}
	line := strings.Count(string(src[:at]), "\n") + 1
	find, replace := strings.Split(e.Find, "\n"), strings.Split(e.Replace, "\n")
	for i := 0; i < len(find)-1 && i < len(replace) && find[i] == replace[i]; i++ {
		line++
	}
	return exgen.ExerciseAt(chapterDir, e.File, line)
}

// ApplyTo applies the mutant to files, a chapter's exercise copy (paths
// "exercise/<file>" → content, as exgen.Generate returns it): the same
// bug, planted in the learner's copy instead of the reference.
func (m Mutant) ApplyTo(files map[string][]byte) error {
	for _, e := range m.Edits {
		path := filepath.Join(exgen.ExerciseDir, e.File)
		src, ok := files[path]
		if !ok {
			return fmt.Errorf("mutant %s: the copy has no %s", m.Name, path)
		}
		// The copy has no exercise markers: neither may the edit.
		find, replace := exgen.WithoutMarkers(e.Find), exgen.WithoutMarkers(e.Replace)
		if n := strings.Count(string(src), find); n != 1 {
			return fmt.Errorf("mutant %s: the text to find occurs %d times in %s, want exactly once", m.Name, n, path)
		}
		files[path] = []byte(strings.Replace(string(src), find, replace, 1))
	}
	return nil
}

// Apply returns the mutated content of every file the mutant touches,
// keyed by path relative to the chapter.
func (m Mutant) Apply(chapterDir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, e := range m.Edits {
		src, ok := out[e.File]
		if !ok {
			var err error
			if src, err = os.ReadFile(filepath.Join(chapterDir, e.File)); err != nil {
				return nil, fmt.Errorf("mutant %s: %w", m.Name, err)
			}
		}
		if n := strings.Count(string(src), e.Find); n != 1 {
			return nil, fmt.Errorf("mutant %s: the text to find occurs %d times in %s, want exactly once:\n%s", m.Name, n, e.File, e.Find)
		}
		out[e.File] = []byte(strings.Replace(string(src), e.Find, e.Replace, 1))
	}
	return out, nil
}
