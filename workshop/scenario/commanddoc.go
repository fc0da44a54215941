package scenario

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// The chapter doc's command reference sits between these two lines, in a
// text block; its zh twin carries the same block (code is not
// translated). CheckCommandsDoc keeps both fresh, as TestExerciseTables
// keeps the exercise table.
const (
	CommandsBegin = "<!-- scenario commands: written by TestScenarioCommands from the chapter's command table (go test ./NN-name -run TestScenarioCommands -args -rewrite); do not edit -->"
	CommandsEnd   = "<!-- end of scenario commands -->"
)

var commandsRegion = regexp.MustCompile(`(?s)` + regexp.QuoteMeta(CommandsBegin) + `\n.*?` + regexp.QuoteMeta(CommandsEnd))

// CheckDoc is a chapter's TestScenarioCommands: the table is whole (no
// command twice, none without usage) and the chapter doc shows its
// reference (CheckCommandsDoc).
func (tb Table[D]) CheckDoc(t *testing.T) {
	if err := tb.Err(); err != nil {
		t.Fatal(err)
	}
	CheckCommandsDoc(t, tb.Doc())
}

// CheckCommandsDoc checks that the chapter doc (docs/NN-name.md) and its
// Chinese twin show doc, a table's reference, between the markers; with
// -rewrite it writes them there. A rewritten zh twin then needs its hash
// recorded again (TestZhFresh in workshop/ says how).
func CheckCommandsDoc(t *testing.T, doc string) {
	if OnYourCopy() {
		// The docs are the workshop's, not the learner's: a check of your
		// copy judges your code, and make test keeps the docs fresh.
		t.Skip("the chapter doc's command reference is checked by make test, not on your copy")
	}
	chapter, err := ChapterDir()
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(chapter)
	block := []byte(CommandsBegin + "\n```text\n" + doc + "```\n" + CommandsEnd)
	for _, path := range []string{
		filepath.Join(chapter, "..", "docs", name+".md"),
		filepath.Join(chapter, "..", "docs", "zh", name+".md"),
	} {
		now, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !commandsRegion.Match(now) {
			t.Errorf("%s has no scenario command reference: put the lines\n%s\n%s\nwhere it goes (the Walkthrough's last subsection, \"Scenario commands\"), then run: go test ./%s -run TestScenarioCommands -args -rewrite", path, CommandsBegin, CommandsEnd, name)
			continue
		}
		want := commandsRegion.ReplaceAllLiteral(now, block)
		if bytes.Equal(now, want) {
			continue
		}
		if !rewriting() {
			t.Errorf("%s: the scenario command reference is stale. Run: go test ./%s -run TestScenarioCommands -args -rewrite", path, name)
			continue
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: rewrote the scenario command reference; record the zh hash: go test ./workshop -run TestZhFresh -args -rehash docs/zh/%s.md#scenario-commands", path, name)
	}
}
