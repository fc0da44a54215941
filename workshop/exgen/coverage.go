package exgen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// Coverage is how much of a chapter's reference code lies inside exercise
// regions: code lines (not blank, not comments) of the chapter package's
// own files, excluding tests, exercise/ and sub-packages.
type Coverage struct {
	Lines   int            // code lines in the package
	ByTrack map[string]int // code lines inside regions, by track
	// Bodies counts the code lines inside function bodies: the most that
	// regions (whole bodies) could ever cover. The rest is package and
	// import lines, types, fields, interfaces and one-line functions.
	Bodies int
}

// Ceiling is the share of the code that lies in function bodies: the
// coverage a chapter would have with every body an exercise.
func (c Coverage) Ceiling() float64 {
	if c.Lines == 0 {
		return 0
	}
	return float64(c.Bodies) / float64(c.Lines)
}

// BodyShare is the share of the function-body lines inside regions.
func (c Coverage) BodyShare() float64 {
	if c.Bodies == 0 {
		return 0
	}
	n := 0
	for _, v := range c.ByTrack {
		n += v
	}
	return float64(n) / float64(c.Bodies)
}

// Enough reports whether both tracks together hold at least least of the
// function-body lines. The floor is read over bodies, not over all code:
// types, interfaces, fields and constants stay in every copy as the
// learner's map of the component, so they are not counted against it.
func (c Coverage) Enough(least float64) bool {
	return c.BodyShare() >= least
}

// Share is the fraction of the code inside regions of the given tracks
// (all tracks when none are named), from 0 to 1.
func (c Coverage) Share(tracks ...string) float64 {
	if c.Lines == 0 {
		return 0
	}
	if len(tracks) == 0 {
		for t := range c.ByTrack {
			tracks = append(tracks, t)
		}
		sort.Strings(tracks)
	}
	n := 0
	for _, t := range tracks {
		n += c.ByTrack[t]
	}
	return float64(n) / float64(c.Lines)
}

// ViewerFile is where a chapter keeps the read-only accessors of chapter
// 06's step-through viewer (what its queue holds, and the like): tooling
// around the component, not the component, so coverage leaves it out.
const ViewerFile = "observe.go"

// CoverageOf measures a chapter's reference package, less ViewerFile.
func CoverageOf(chapterDir string) (Coverage, error) {
	files, exercises, err := readPackage(chapterDir)
	if err != nil {
		return Coverage{}, err
	}
	c := Coverage{ByTrack: map[string]int{TrackCore: 0, TrackDeep: 0}}
	for _, f := range files {
		if f.name == ViewerFile {
			continue
		}
		body, err := bodyLines(filepath.Join(chapterDir, f.name), f.lines)
		if err != nil {
			return Coverage{}, err
		}
		inside := make([]string, len(f.lines)) // the track of each line inside a region
		for _, r := range f.regions {
			for i := r.begin; i <= r.end; i++ {
				inside[i] = exercises[r.id].Track
			}
		}
		for i, line := range f.lines {
			if !isCode(line) {
				continue
			}
			c.Lines++
			if body[i] {
				c.Bodies++
			}
			if inside[i] != "" {
				c.ByTrack[inside[i]]++
			}
		}
	}
	return c, nil
}

// isCode reports whether a line holds code: not blank, not a line comment
// (markers included).
func isCode(line string) bool {
	t := strings.TrimSpace(line)
	return t != "" && !strings.HasPrefix(t, "//")
}

// bodyLines marks the lines strictly inside a function body: those a
// region may hold.
func bodyLines(path string, lines []string) ([]bool, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, strings.Join(lines, "\n"), parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	body := make([]bool, len(lines))
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		from, to := fset.Position(fn.Body.Lbrace).Line, fset.Position(fn.Body.Rbrace).Line
		for l := from + 1; l < to; l++ { // lines are 1-based; body is 0-based
			body[l-1] = true
		}
	}
	return body, nil
}
