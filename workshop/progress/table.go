package progress

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/scenario"
)

// The chapter doc's exercise table sits between these two lines; selftest
// -record writes it, and the docs test checks it is current.
const (
	TableBegin = "<!-- exercise table: written by `go run ./workshop/cmd/selftest -record`; do not edit -->"
	TableEnd   = "<!-- end of exercise table -->"
)

// ExerciseTable is a chapter's exercise table for its doc: every exercise
// in unlock order, its track, its files, its title and hint, and the
// earlier exercises its scenarios run, from the same blame file the
// runner's "waits for exercise N" comes from.
func ExerciseTable(c chapters.Chapter) (string, error) {
	exercises, err := exgen.Exercises(c.Dir)
	if err != nil {
		return "", err
	}
	blame, err := LoadBlame(c.Dir)
	if err != nil {
		return "", err
	}
	tagged, err := taggedByBlame(c.Dir, blame)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("| # | Track | Files | Exercise | Runs on | Hint |\n|---|-------|-------|----------|---------|------|\n")
	for _, e := range exercises {
		var needs []int
		for _, test := range tagged[e.ID] {
			for _, id := range blame[test] {
				if id != e.ID && !slices.Contains(needs, id) {
					needs = append(needs, id)
				}
			}
		}
		slices.Sort(needs)
		on := "—"
		if len(needs) > 0 {
			on = commaList(needs)
		}
		fmt.Fprintf(&b, "| %d | %s | `%s` | %s | %s | %s |\n", e.ID, e.Track, strings.Join(e.Files, "`, `"),
			strings.TrimSuffix(e.Title, "."), on, strings.ReplaceAll(e.Hint, "|", "\\|"))
	}
	together, err := LoadTogether(c.Dir)
	if err != nil {
		return "", err
	}
	for _, g := range together {
		fmt.Fprintf(&b, "\n**Checked together: exercises %s.** %s\n", commaList(g.IDs), g.Reason)
	}
	return b.String(), nil
}

// taggedByBlame lists the checks that judge each exercise, as the runner
// puts them (checksByExercise), from the scenarios' tags and the blame
// file alone: stress tests under the exercise they name, plain tests
// under the last exercise they run.
func taggedByBlame(chapterDir string, blame Blame) (map[int][]string, error) {
	tagged, err := scenariosByExercise(chapterDir)
	if err != nil {
		return nil, err
	}
	for test, ids := range blame {
		if id, ok := scenario.StressExercise(test); ok {
			tagged[id] = append(tagged[id], test)
		} else if !isScenario(test) && len(ids) > 0 {
			tagged[ids[len(ids)-1]] = append(tagged[ids[len(ids)-1]], test)
		}
	}
	return tagged, nil
}

// commaList writes ids as "1, 3, 4".
func commaList(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, ", ")
}

var tableRegion = regexp.MustCompile(`(?s)` + regexp.QuoteMeta(TableBegin) + `\n.*?` + regexp.QuoteMeta(TableEnd))

// DocTable returns the chapter doc's path, its current text, and the text
// it would have with a fresh exercise table. A doc without the markers is
// returned unchanged.
func DocTable(root string, c chapters.Chapter) (path string, now, want []byte, err error) {
	path = filepath.Join(root, "docs", c.Name+".md")
	now, err = os.ReadFile(path)
	if err != nil {
		return path, nil, nil, err
	}
	table, err := ExerciseTable(c)
	if err != nil {
		return path, nil, nil, err
	}
	want = tableRegion.ReplaceAllLiteral(now, []byte(TableBegin+"\n"+table+TableEnd))
	return path, now, want, nil
}
