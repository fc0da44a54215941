package zhdocs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExerciseHintsOfChapter03(t *testing.T) {
	hints := ExerciseHints(filepath.Join("..", ".."), "03-indexer")
	if len(hints) != 10 {
		t.Fatalf("docs/zh/03-indexer.md gives %d hints, want 10 (is its Exercises section fresh?)", len(hints))
	}
	if !strings.Contains(hints[2], "按每个 \"/\" 拆分") {
		t.Errorf("hint 2 is %q", hints[2])
	}
}

// A translation of an English section that changed since is not shown.
func TestExerciseHintsOnlyWhileFresh(t *testing.T) {
	root := t.TempDir()
	en := "# 09 · Demo\n\n## Exercises\n\nOne exercise.\n"
	zh := "<a id=\"09--demo\"></a>\n# 09 · 演示\n<!-- en: 09--demo -->\n\n<a id=\"exercises\"></a>\n## 练习\n<!-- en: exercises sha256:HASH -->\n\n| # | 路线 | 提示 |\n|---|---|---|\n| 1 | core | 先写键。 |\n"
	hash := ""
	for _, s := range Split(en, false) {
		if s.Anchor == "exercises" {
			hash = s.Hash()
		}
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "docs", "09-demo.md"), en)
	write(filepath.Join(root, "docs", "zh", "09-demo.md"), strings.Replace(zh, "HASH", hash, 1))
	if got := ExerciseHints(root, "09-demo"); got[1] != "先写键。" {
		t.Fatalf("fresh: hints %v, want exercise 1's", got)
	}
	write(filepath.Join(root, "docs", "09-demo.md"), en+"A new sentence.\n")
	if got := ExerciseHints(root, "09-demo"); got != nil {
		t.Fatalf("stale: hints %v, want none", got)
	}
}
