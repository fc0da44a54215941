package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/exgen"
)

// TestDeepAndBlank walks the two tracks on chapter 03 with its exercise 6
// made a deep one: the core track writes it for you and status says so;
// deep stubs it and keeps your core work; blank stubs everything; reset
// puts the core track back.
func TestDeepAndBlank(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on chapter 03 several times")
	}
	root := workspace(t)
	dir := filepath.Join(root, chapter)
	store := filepath.Join(dir, "store.go")
	src, err := os.ReadFile(store)
	must(t, err)
	deeper := "\t// exercise:deeper conflictError(names)"
	i := strings.Index(string(src), deeper)
	if i < 0 {
		t.Fatal("03-indexer/store.go has no deeper hint for exercise 6 to put on the deep track")
	}
	end := i + strings.Index(string(src[i:]), "\n") + 1
	src = append(src[:end:end], append([]byte("\t// exercise:track deep\n"), src[end:]...)...)
	must(t, os.WriteFile(store, src, 0o644))
	must(t, exgen.Write(dir))
	fill(t, root, 1, 2, 3, 4, 5, 6) // the core track done (and 6 as written for you)

	r, out := newRunner(root)
	r.Yes = true
	must(t, r.Check("03", 0))
	got := out.take()
	contains(t, "check on the core track", got, "5 of 5 exercises pass", "+ 1 deep exercises", "deep 03")

	must(t, r.Deep("03"))
	got = out.take()
	contains(t, "deep 03", got, "6 Add an index to a store that already has objects", "Done. Your old files are in")
	if err := r.Check("03", 0); err == nil {
		t.Fatal("check passed right after deep stubbed exercise 6")
	}
	got = out.take()
	contains(t, "check on the deep track", got, "5 of 6 exercises pass", "[deep] Add an index", "not started")

	must(t, r.Blank("03"))
	got = out.take()
	contains(t, "blank 03", got, "stubs all 6 exercises", "03-indexer/exercise/keys.go")
	r.Check("03", 0)
	got = out.take()
	contains(t, "check after blank", got, "0 of 6 exercises pass")

	must(t, r.Reset("03", 0))
	out.take()
	r.Check("03", 0)
	got = out.take()
	contains(t, "check after reset", got, "0 of 5 exercises pass", "+ 1 deep exercises")
}
