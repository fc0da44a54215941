package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// A reader of Chinese gets the translated hint of docs/zh/03-indexer.md,
// folded to the runner's width; anyone else gets none.
func TestChineseHint(t *testing.T) {
	root := filepath.Join("..", "..")
	t.Setenv("WALKTHROUGH_LANG", "zh_CN.UTF-8")
	zh := chineseHint(root, "03-indexer", 9)
	if !strings.Contains(zh, "写锁") {
		t.Fatalf("exercise 9 of 03-indexer: Chinese hint %q", zh)
	}
	out := wrapWide("提示:   ", zh, Width)
	for i, line := range strings.Split(out, "\n") {
		w := 0
		for _, r := range line {
			if r >= 0x2e80 {
				w += 2
			} else {
				w++
			}
		}
		if w > Width {
			t.Errorf("line %d is %d columns wide:\n%s", i+1, w, line)
		}
		if i > 0 && !strings.HasPrefix(line, strings.Repeat(" ", 8)) {
			t.Errorf("line %d is not indented under the label:\n%s", i+1, line)
		}
	}
	if strings.Join(strings.Fields(strings.ReplaceAll(strings.TrimPrefix(out, "提示:"), "\n", "")), "") != strings.Join(strings.Fields(zh), "") {
		t.Errorf("wrapping lost text:\n%s", out)
	}
	t.Setenv("WALKTHROUGH_LANG", "en")
	if got := chineseHint(root, "03-indexer", 9); got != "" {
		t.Errorf("WALKTHROUGH_LANG=en: got the Chinese hint %q", got)
	}
}

// A reader of Chinese is sent to the Chinese chapter docs, and to the
// English one where a chapter has no twin.
func TestDocOfFollowsTheReader(t *testing.T) {
	root := filepath.Join("..", "..")
	t.Setenv("WALKTHROUGH_LANG", "zh")
	if got, want := docOf(root, "03-indexer"), filepath.Join("docs", "zh", "03-indexer.md"); got != want {
		t.Errorf("zh reader: docOf = %s, want %s", got, want)
	}
	if got, want := docOf(root, "99-none"), filepath.Join("docs", "99-none.md"); got != want {
		t.Errorf("zh reader, no twin: docOf = %s, want %s", got, want)
	}
	t.Setenv("WALKTHROUGH_LANG", "en")
	if got, want := docOf(root, "03-indexer"), filepath.Join("docs", "03-indexer.md"); got != want {
		t.Errorf("en reader: docOf = %s, want %s", got, want)
	}
}
