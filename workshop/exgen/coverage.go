package exgen

import (
	"sort"
	"strings"
)

// Coverage is how much of a chapter's reference code lies inside exercise
// regions: code lines (not blank, not comments) of the chapter package's
// own files, excluding tests, exercise/ and sub-packages.
type Coverage struct {
	Lines   int            // code lines in the package
	ByTrack map[string]int // code lines inside regions, by track
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

// CoverageOf measures a chapter's reference package.
func CoverageOf(chapterDir string) (Coverage, error) {
	files, exercises, err := readPackage(chapterDir)
	if err != nil {
		return Coverage{}, err
	}
	c := Coverage{ByTrack: map[string]int{TrackCore: 0, TrackDeep: 0}}
	for _, f := range files {
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
