package progress

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

// BlameFile is where a chapter records, for each scenario and stress
// test, the exercises whose code it runs.
const BlameFile = "testdata/blame.txt"

// Blame maps a test (its full name, "TestScenarios/resync") to the
// exercises of its own chapter whose code it runs, in order: stubbing any
// one of them alone makes it fail. It is computed, never written by hand:
// `go run ./workshop/cmd/selftest -record NN` measures it, and selftest
// checks it still holds. Both the runner's "waits for exercise N" and
// the order of the exercises come from it.
type Blame map[string][]int

// LoadBlame reads a chapter's blame file; a chapter without one has an
// empty Blame, and the runner falls back on the panics it sees.
func LoadBlame(chapterDir string) (Blame, error) {
	b := Blame{}
	f, err := os.Open(filepath.Join(chapterDir, BlameFile))
	if os.IsNotExist(err) {
		return b, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		test, ids, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want `test: id id ...`, got %q", BlameFile, n, line)
		}
		list := []int{}
		for _, field := range strings.Fields(ids) {
			id, err := strconv.Atoi(field)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: want exercise numbers, got %q", BlameFile, n, field)
			}
			list = append(list, id)
		}
		b[strings.TrimSpace(test)] = list
	}
	return b, sc.Err()
}

// Write writes the blame file of a chapter.
func (b Blame) Write(chapterDir string) error {
	var s strings.Builder
	s.WriteString("# The exercises whose code each test runs: stubbing any one of them alone\n" +
		"# makes it fail. Measured by `go run ./workshop/cmd/selftest -record`, which\n" +
		"# rewrites this file; selftest checks it. Do not edit by hand.\n")
	tests := make([]string, 0, len(b))
	for t := range b {
		tests = append(tests, t)
	}
	sort.Strings(tests)
	for _, t := range tests {
		ids := slices.Clone(b[t])
		slices.Sort(ids)
		fmt.Fprintf(&s, "%s:", t)
		for _, id := range ids {
			fmt.Fprintf(&s, " %d", id)
		}
		s.WriteString("\n")
	}
	return os.WriteFile(filepath.Join(chapterDir, BlameFile), []byte(s.String()), 0o644)
}

// blameBlockers re-judges exercises that fail, are blocked inside their
// own chapter or not started from the blame file, so that "waits for
// exercise N" is the same from run to run, whichever stub's panic came
// first (with goroutines, a stub that crashes the binary can stop a check
// before it reaches the exercise's own stub, or not): an exercise whose
// failing test runs the code of another exercise that does not pass waits
// for the first such exercise. Only an exercise on your track is ever
// named: one written for you (the other track's) fails only through code
// of yours, so it is never the one to do first.
func blameBlockers(chapter string, exercises []Exercise, blame Blame, passed map[string]bool, onTrack func(int) bool) {
	judged := map[int]Exercise{} // as judged, before this looks at blockers
	for _, e := range exercises {
		judged[e.ID] = e
	}
	status := func(id int) Status { return judged[id].Status }
	for i := range exercises {
		e := &exercises[i]
		if e.Located != NotLocated || e.Status != Fail && e.Status != NotStarted && !(e.Status == Blocked && e.BlockerChapter == chapter) {
			continue
		}
		blocker := 0
		ready := false // a stub one of whose checks runs no other stub of yours
		for _, test := range e.tests {
			if ok, ran := passed[test]; ok || !ran {
				continue
			}
			waits := false
			for _, id := range blame[test] {
				// A stub waits only for an earlier stub: the unlock
				// order (selftest) proves none needs a later one, and
				// one that is blocked or fails may be so because of this
				// very stub.
				if e.Status == NotStarted && (id > e.ID || status(id) != NotStarted) {
					continue
				}
				// Unchecked (check NN N did not run its checks) is not
				// known to be in the way.
				if id != e.ID && onTrack(id) && status(id) != Pass && status(id) != Unchecked {
					waits = true
					if blocker == 0 || id < blocker {
						blocker = id
					}
				}
			}
			ready = ready || !waits
		}
		// A stub with a check it can pass on what already passes is
		// ready, whatever its other checks wait for: the doc's "Runs on"
		// column says the same (trial P read "exercise 6 waits for 5"
		// beside a table that said 6 runs on 1 and 2, which passed).
		if e.Status == NotStarted && ready {
			blocker = 0
		}
		if blocker != 0 {
			e.Status, e.Blocker, e.BlockerChapter = Blocked, blocker, chapter
		}
	}
	byID := map[int]*Exercise{}
	for i := range exercises {
		byID[exercises[i].ID] = &exercises[i]
	}
	// Two exercises whose checks run each other's code would each wait for
	// the other: the first of such a circle is put back as it was judged
	// (failing, or waiting for a stub outside the circle), and the others
	// then wait for it, or for what it waits for.
	for _, e := range exercises {
		if !inCircle(byID, e.ID, chapter) {
			continue
		}
		circle := map[int]bool{e.ID: true}
		first := e.ID
		for c := byID[byID[e.ID].Blocker]; c.ID != e.ID; c = byID[c.Blocker] {
			circle[c.ID], first = true, min(first, c.ID)
		}
		was := judged[first]
		f := byID[first]
		f.Status, f.Blocker, f.BlockerChapter = was.Status, was.Blocker, was.BlockerChapter
		if f.Status == Blocked && f.BlockerChapter == chapter && circle[f.Blocker] || f.Status == Pass {
			f.Status, f.Blocker, f.BlockerChapter = Fail, 0, ""
		}
	}
	// Point at the root of a chain: if 5 waits for 3 and 3 for 2, 5 waits
	// for 2, the one to do first.
	for i := range exercises {
		e := &exercises[i]
		for range exercises {
			b := byID[e.Blocker]
			if e.Status != Blocked || e.BlockerChapter != chapter || b == nil || b.Status != Blocked || b.Blocker == e.ID {
				break
			}
			e.Blocker, e.BlockerChapter = b.Blocker, b.BlockerChapter
		}
	}
}

// inCircle reports whether following id's blockers in chapter leads back
// to id.
func inCircle(byID map[int]*Exercise, id int, chapter string) bool {
	at := byID[id]
	for range byID {
		if at == nil || at.Status != Blocked || at.BlockerChapter != chapter {
			return false
		}
		if at = byID[at.Blocker]; at != nil && at.ID == id {
			return true
		}
	}
	return false
}
