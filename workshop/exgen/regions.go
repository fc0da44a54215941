// Package exgen generates a chapter's exercise copy from its reference code.
//
// In the reference, an exercise is a marked region that is a whole
// function body:
//
//	func MetaNamespaceKeyFunc(obj any) (string, error) {
//		// exercise:begin 1 Build an object's key
//		// exercise:hint Namespaced objects are "namespace/name"; cluster-scoped ones are just "name".
//		// exercise:deeper meta.Accessor(obj) gives you GetNamespace and GetName.
//		...reference code...
//		// exercise:end 1
//	}
//
// The generator copies the package to exercise/ and replaces every region by
// a one-line comment on what its function does and a panic that names the
// exercise, so the copy compiles and every test that reaches an unfinished
// exercise says which one it is. The hints stay here, in the markers: the
// runner and the failure reports read them from the reference.
// An exercise may span several regions; only its first region carries the
// title and hints.
//
// A hint is a sentence or a paragraph, too long for one source line: it
// goes on over the comment lines right below it that are indented past
// "// ", and the runner shows the lines joined by single spaces:
//
//	// exercise:hint The constructor refuses contradictory options with a panic
//	//   and sets up the condition variable on the lock.
package exgen

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Exercise is what the markers say about one exercise.
type Exercise struct {
	ID     int
	Title  string
	Hint   string   // the first hint: what to do
	Deeper string   // the second hint: how to do it
	File   string   // the file of its first region, relative to the chapter
	Files  []string // every file with a region of it, File first
	Line   int      // the line of its first region's begin marker
	Track  string   // TrackCore, or TrackDeep for `// exercise:track deep`
}

// The tracks: the core track is every learner's; the deep track adds the
// concurrent and looping heart of each component, for those who want to
// build it too.
const (
	TrackCore = "core"
	TrackDeep = "deep"
)

// region is one marked function body: lines [begin, end] (0-based,
// inclusive of both marker lines) of a file.
type region struct {
	id         int
	begin, end int
	indent     string
}

const (
	markBegin  = "// exercise:begin "
	markEnd    = "// exercise:end"
	markHint   = "// exercise:hint "
	markDeeper = "// exercise:deeper "
	markTrack  = "// exercise:track "
)

// sourceFile is one reference file with its lines and regions.
type sourceFile struct {
	name    string // base name, e.g. "index.go"
	lines   []string
	regions []region
}

// readPackage reads the non-test Go files of the chapter's reference
// package, in name order, and finds their regions.
func readPackage(chapterDir string) ([]sourceFile, map[int]*Exercise, error) {
	names, err := filepath.Glob(filepath.Join(chapterDir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	var files []sourceFile
	exercises := map[int]*Exercise{}
	for _, path := range names {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := readSource(path, exercises)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	return files, exercises, nil
}

func readSource(path string, exercises map[int]*Exercise) (sourceFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return sourceFile{}, err
	}
	f := sourceFile{name: filepath.Base(path)}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	// Lines up to 1 MB, the buffer grown as a line needs it: a zeroed
	// megabyte per file read was a sixth of a warm check 07's own CPU.
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f.lines = append(f.lines, sc.Text())
	}
	where := func(i int) string { return fmt.Sprintf("%s:%d", path, i+1) }

	open := -1        // index into f.regions of the region being read, or -1
	var going *string // the hint that a continuation line would go on, or nil
	for i, line := range f.lines {
		if text, ok := continuation(line); ok && going != nil {
			*going = joinSentence(*going, text)
			continue
		}
		going = nil
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, markBegin):
			if open >= 0 {
				return f, fmt.Errorf("%s: exercise:begin inside another exercise region", where(i))
			}
			idText, title, _ := strings.Cut(strings.TrimPrefix(trimmed, markBegin), " ")
			id, err := strconv.Atoi(idText)
			if err != nil || id < 1 {
				return f, fmt.Errorf("%s: exercise:begin wants a positive exercise number, got %q", where(i), idText)
			}
			indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
			f.regions = append(f.regions, region{id: id, begin: i, indent: indent})
			open = len(f.regions) - 1
			ex, seen := exercises[id]
			if !seen {
				ex = &Exercise{ID: id, File: f.name, Line: i + 1, Track: TrackCore}
				exercises[id] = ex
			}
			if !slices.Contains(ex.Files, f.name) {
				ex.Files = append(ex.Files, f.name)
			}
			if title = strings.TrimSpace(title); title != "" {
				if ex.Title != "" {
					return f, fmt.Errorf("%s: exercise %d already has a title (%q)", where(i), id, ex.Title)
				}
				ex.Title = title
			}
		case strings.HasPrefix(trimmed, markHint), strings.HasPrefix(trimmed, markDeeper):
			if open < 0 {
				return f, fmt.Errorf("%s: exercise hint outside an exercise region", where(i))
			}
			ex := exercises[f.regions[open].id]
			if text, ok := strings.CutPrefix(trimmed, markHint); ok {
				ex.Hint = joinSentence(ex.Hint, text)
				going = &ex.Hint
			} else {
				ex.Deeper = joinSentence(ex.Deeper, strings.TrimPrefix(trimmed, markDeeper))
				going = &ex.Deeper
			}
		case strings.HasPrefix(trimmed, markTrack):
			if open < 0 || exercises[f.regions[open].id].Line != f.regions[open].begin+1 || exercises[f.regions[open].id].File != f.name {
				return f, fmt.Errorf("%s: exercise:track belongs in the first region of an exercise", where(i))
			}
			track := strings.TrimSpace(strings.TrimPrefix(trimmed, markTrack))
			if track != TrackCore && track != TrackDeep {
				return f, fmt.Errorf("%s: exercise:track wants %q or %q, got %q", where(i), TrackCore, TrackDeep, track)
			}
			exercises[f.regions[open].id].Track = track
		case strings.HasPrefix(trimmed, markEnd):
			if open < 0 {
				return f, fmt.Errorf("%s: exercise:end without exercise:begin", where(i))
			}
			if rest := strings.TrimSpace(strings.TrimPrefix(trimmed, markEnd)); rest != "" && rest != strconv.Itoa(f.regions[open].id) {
				return f, fmt.Errorf("%s: exercise:end %s closes exercise %d", where(i), rest, f.regions[open].id)
			}
			if i+1 >= len(f.lines) || strings.TrimSpace(f.lines[i+1]) != "}" {
				return f, fmt.Errorf("%s: an exercise region must be a whole function body: put exercise:end right before the closing brace", where(i))
			}
			f.regions[open].end = i
			open = -1
		}
	}
	if open >= 0 {
		return f, fmt.Errorf("%s: exercise %d is never closed with exercise:end", path, f.regions[open].id)
	}
	return f, nil
}

// continuation returns the text of a line that would continue a hint: a
// comment indented past "// ". Only right below a hint line, or below
// another continuation, is it one.
func continuation(line string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "//  ")
	return strings.TrimSpace(rest), ok
}

// MarkerLines says which lines are exercise markers, a hint's
// continuation lines included: what the learner's copy and the solution
// view leave out.
func MarkerLines(lines []string) []bool {
	marks := make([]bool, len(lines))
	inHint := false
	for i, line := range lines {
		if _, ok := continuation(line); ok && inHint {
			marks[i] = true
			continue
		}
		t := strings.TrimSpace(line)
		marks[i] = strings.HasPrefix(t, "// exercise:")
		inHint = strings.HasPrefix(t, markHint) || strings.HasPrefix(t, markDeeper)
	}
	return marks
}

// WithoutMarkers drops the lines of text that are exercise markers,
// continuation lines included.
func WithoutMarkers(text string) string {
	lines := strings.SplitAfter(text, "\n")
	marks := MarkerLines(lines)
	var b strings.Builder
	for i, line := range lines {
		if !marks[i] {
			b.WriteString(line)
		}
	}
	return b.String()
}

func joinSentence(a, b string) string {
	if a == "" {
		return strings.TrimSpace(b)
	}
	return a + " " + strings.TrimSpace(b)
}

// Exercises lists a chapter's exercises in id order, checking that the ids
// run 1..n and that each has a title and a hint.
func Exercises(chapterDir string) ([]Exercise, error) {
	_, byID, err := readPackage(chapterDir)
	if err != nil {
		return nil, err
	}
	list := make([]Exercise, 0, len(byID))
	for i := 1; i <= len(byID); i++ {
		ex, ok := byID[i]
		if !ok {
			return nil, fmt.Errorf("%s: exercises must be numbered 1..%d; %d is missing", chapterDir, len(byID), i)
		}
		if ex.Title == "" || ex.Hint == "" {
			return nil, fmt.Errorf("%s:%d: exercise %d needs a title (on its begin marker) and an exercise:hint line", filepath.Join(chapterDir, ex.File), ex.Line, i)
		}
		list = append(list, *ex)
	}
	return list, nil
}
