package workshop_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/progress"
)

// TestDocsLinks keeps the docs from drifting away from the code: every
// relative link in README.md and docs/*.md must point at a file or
// directory that exists, and a link whose text is a `Symbol` pointing at a
// Go file must name an identifier that file still has.
func TestDocsLinks(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"))
	if checkDocLinks(t, root, docs, nil) == 0 {
		t.Fatal("no links checked: is the test running from workshop/?")
	}
}

// checkDocLinks checks every relative link of docs as TestDocsLinks
// describes and returns how many it checked. With anchors non-nil, a link's
// #fragment must also be one of the anchors that anchors(path) finds in the
// file it points at (the doc itself for a bare #fragment).
func checkDocLinks(t *testing.T, root string, docs []string, anchors func(path string) map[string]bool) int {
	t.Helper()
	link := regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	checked := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				text, target := m[1], m[2]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				rel, _ := filepath.Rel(root, doc)
				where := rel + ":" + strconv.Itoa(i+1)
				target, fragment, _ := strings.Cut(target, "#")
				path := doc
				if target != "" {
					path = filepath.Join(filepath.Dir(doc), target)
				}
				if anchors != nil && fragment != "" && strings.HasSuffix(path, ".md") {
					if _, err := os.Stat(path); err == nil && !anchors(path)[fragment] {
						t.Errorf("%s: the link to %s#%s names an anchor that file does not have", where, target, fragment)
					}
				}
				if target == "" {
					continue
				}
				info, err := os.Stat(path)
				if err != nil {
					t.Errorf("%s: the link to %s points at nothing", where, target)
					continue
				}
				checked++
				symbol := strings.Trim(text, "`")
				if info.IsDir() || !strings.HasSuffix(path, ".go") || !strings.HasPrefix(text, "`") || strings.HasSuffix(symbol, ".go") {
					continue
				}
				src, _ := os.ReadFile(path)
				if !regexp.MustCompile(`\b` + regexp.QuoteMeta(symbol) + `\b`).Match(src) {
					t.Errorf("%s: %s no longer mentions %s", where, target, symbol)
				}
			}
		}
	}
	return checked
}

// TestChapterDocsShareOneShape checks that every chapter doc has the same
// sections in the same order, so a reader always knows where they are.
func TestChapterDocsShareOneShape(t *testing.T) {
	want := []string{"Why this exists", "The idea in one picture", "Walkthrough", "Exercises", "How client-go differs", "Performance", "Check yourself"}
	docs, _ := filepath.Glob(filepath.Join("..", "docs", "[0-9][0-9]-*.md"))
	if len(docs) == 0 {
		t.Fatal("no chapter docs found")
	}
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, line := range strings.Split(string(data), "\n") {
			if h, ok := strings.CutPrefix(line, "## "); ok {
				got = append(got, strings.TrimSpace(h))
			}
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s has sections %q; every chapter doc has %q", filepath.Base(doc), got, want)
		}
	}
}

// TestChapterDocsAskForATrackFirst checks that every chapter doc (and its
// zh twin) says to choose a track (workshop start NN) before it first
// links the learner's copy: the core copy holds the deep track's answers,
// and trial X's learner met "open your copy" 240 lines before "choose your
// track".
func TestChapterDocsAskForATrackFirst(t *testing.T) {
	en, _ := filepath.Glob(filepath.Join("..", "docs", "[0-9][0-9]-*.md"))
	zh, _ := filepath.Glob(filepath.Join("..", "docs", "zh", "[0-9][0-9]-*.md"))
	if len(en) == 0 || len(zh) == 0 {
		t.Fatal("no chapter docs found")
	}
	for _, doc := range append(en, zh...) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text, chapter := string(data), strings.TrimSuffix(filepath.Base(doc), ".md")
		start := strings.Index(text, "workshop start "+chapter[:2])
		copyLink := strings.Index(text, "/"+chapter+"/exercise/)")
		switch {
		case start < 0:
			t.Errorf("%s never says to choose a track (go run ./workshop/cmd/workshop start %s core|deep|blank)", doc, chapter[:2])
		case copyLink >= 0 && copyLink < start:
			t.Errorf("%s:%d links your copy before it says to choose a track (line %d): say it first",
				doc, 1+strings.Count(text[:copyLink], "\n"), 1+strings.Count(text[:start], "\n"))
		}
	}
}

// TestExerciseTables checks each chapter doc's exercise table is the one
// selftest -record writes from the exercises and the blame file, so the
// doc and the runner agree on the order and on what runs on what.
func TestExerciseTables(t *testing.T) {
	root, list := allChapters(t)
	for _, c := range list {
		path, now, want, err := progress.DocTable(root, c)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(now, []byte(progress.TableBegin)) {
			continue // a doc without a generated table yet
		}
		if !bytes.Equal(now, want) {
			t.Errorf("%s: the exercise table is stale. Run: go run ./workshop/cmd/selftest -record %s", path, c.Number())
		}
	}
}
