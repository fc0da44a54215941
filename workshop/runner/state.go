package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"example.com/walkthrough/workshop/exgen"
)

// State is what the runner remembers between runs, in
// .cache/workshop/state.json under the workspace root (git-ignored). It is
// never the truth about pass or fail: every command that shows a result
// runs the tests. (solution alone trusts PassedOn, for code that has not
// changed by a byte since it passed.)
type State struct {
	// Hints maps "03-indexer/1" to the deepest hint shown: 1 for the hint,
	// 2 once the deeper hint was shown too.
	Hints map[string]int `json:"hints,omitempty"`
	// Current is the exercise watch is on.
	Current *Position `json:"current,omitempty"`
	// SolutionAsked marks the exercises ("03-indexer/1") whose solution
	// you asked for while stuck: the next ask shows it.
	SolutionAsked map[string]bool `json:"solutionAsked,omitempty"`
	// Passed lists, per chapter, the exercises that passed when you last
	// checked, so a newly passing one can be announced; Ever, those that
	// passed at some check, so one that failed and passes again is not
	// announced as new.
	Passed map[string][]int `json:"passed,omitempty"`
	Ever   map[string][]int `json:"ever,omitempty"`
	// PassedOn maps an exercise ("07-watchserver/1") that passed at the
	// last check judging it to the fingerprint of its chapter's exercise/
	// directory then: while the directory is byte for byte the same,
	// solution shows the reference without running the tests again.
	PassedOn map[string]string `json:"passedOn,omitempty"`
	// PassedPrints maps an exercise ("05-workqueue/3") to the sum of your
	// code of it at the last check it passed (progress.Chapter.Prints):
	// when a check fails, the exercises changed since are searched first.
	PassedPrints map[string]string `json:"passedPrints,omitempty"`
	// Tracks maps a chapter to the track you chose for it: TrackCore,
	// TrackDeep or TrackBlank (start, core, deep, blank; reset of a whole
	// chapter and `make exercises FORCE=1` set it back to core). A chapter
	// missing here was never started.
	Tracks map[string]string `json:"tracks,omitempty"`
	// Deep is the older form of Tracks (chapters on the deep track); it
	// is read once into Tracks and never written again.
	Deep map[string]bool `json:"deep,omitempty"`
	// Backups lists what reset, core, deep, blank, restore and
	// `make exercises FORCE=1` saved, oldest first.
	Backups []Backup `json:"backups,omitempty"`
}

// The tracks a chapter can be on. Core and deep are exgen's; blank is
// the deep track with the core exercises stubbed too.
const (
	TrackCore  = exgen.TrackCore
	TrackDeep  = exgen.TrackDeep
	TrackBlank = "blank"
)

// Position names one exercise.
type Position struct {
	Chapter  string `json:"chapter"`
	Exercise int    `json:"exercise"`
}

// Backup is one set of files reset saved before writing.
type Backup struct {
	When     time.Time `json:"when"`
	Chapter  string    `json:"chapter"`
	Exercise int       `json:"exercise,omitempty"` // 0: the whole chapter
	Dir      string    `json:"dir"`                // relative to the root
	Files    []string  `json:"files"`              // relative to Dir
	Why      string    `json:"why,omitempty"`      // the command that made it: "deep 03"
	Track    string    `json:"track,omitempty"`    // the chapter's track when it was made
}

// StatePath is where the state file lives under root.
func StatePath(root string) string {
	return filepath.Join(root, ".cache", "workshop", "state.json")
}

// LoadState reads the state file. A missing or unreadable file is an empty
// state: it holds only conveniences, so starting afresh is always safe.
func LoadState(root string) *State {
	s := &State{}
	data, err := os.ReadFile(StatePath(root))
	if err == nil {
		if json.Unmarshal(data, s) != nil {
			s = &State{}
		}
	}
	if s.Hints == nil {
		s.Hints = map[string]int{}
	}
	if s.SolutionAsked == nil {
		s.SolutionAsked = map[string]bool{}
	}
	if s.Ever == nil {
		s.Ever = map[string][]int{}
	}
	if s.Passed == nil {
		s.Passed = map[string][]int{}
	}
	if s.PassedOn == nil {
		s.PassedOn = map[string]string{}
	}
	if s.PassedPrints == nil {
		s.PassedPrints = map[string]string{}
	}
	if s.Tracks == nil {
		s.Tracks = map[string]string{}
	}
	for name, deep := range s.Deep {
		if deep && s.Tracks[name] == "" {
			s.Tracks[name] = TrackDeep
		}
	}
	s.Deep = nil
	return s
}

// Save writes the state file, replacing it in one step.
func (s *State) Save(root string) error {
	path := StatePath(root)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("saving %s: %w", path, err)
	}
	return nil
}

// SetTrack records the track of a chapter in the state file under root.
// `make exercises FORCE=1` calls it with TrackCore after it rewrote a
// chapter you had started, so the runner does not go on showing the deep
// rows of a copy that no longer has them.
func SetTrack(root, chapter, track string) error {
	s := LoadState(root)
	s.Tracks[chapter] = track
	return s.Save(root)
}

// passedPrints is PassedPrints of one chapter, by exercise.
func (s *State) passedPrints(chapter string) map[int]string {
	out := map[int]string{}
	for key, sum := range s.PassedPrints {
		if ch, id, ok := strings.Cut(key, "/"); ok && ch == chapter {
			if n, err := strconv.Atoi(id); err == nil {
				out[n] = sum
			}
		}
	}
	return out
}

// forgetPassed drops the exercises ids of chapter from those that passed
// at the last check, when their code has just been stubbed. The chapter
// stays seen, so the next check still announces what passes anew.
func (s *State) forgetPassed(chapter string, ids []int) {
	if passed, seen := s.Passed[chapter]; seen {
		s.Passed[chapter] = slices.DeleteFunc(slices.Clone(passed), func(id int) bool { return slices.Contains(ids, id) })
	}
}

func hintKey(chapter string, id int) string { return fmt.Sprintf("%s/%d", chapter, id) }
