package runner

import (
	"testing"
)

// TestDeepAndBlank walks the two tracks on chapter 03: the core track
// writes the deep exercises for you and status says so; deep stubs them
// and keeps your core work; blank stubs everything; reset puts the core
// track back.
func TestDeepAndBlank(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on chapter 03 several times")
	}
	root := workspace(t)
	fill(t, root, 1, 2, 5, 7, 9, 10) // the core track done

	r, out := newRunner(root)
	r.Yes = true
	must(t, r.Check("03", 0))
	got := out.take()
	contains(t, "check on the core track", got, "6 of 6 exercises pass", "+ 4 deep exercises", "deep 03")

	must(t, r.Deep("03"))
	got = out.take()
	contains(t, "deep 03", got, "3 A keyed store under one lock", "Done. Your old files are in")
	if err := r.Check("03", 0); err == nil {
		t.Fatal("check passed right after deep stubbed the deep exercises")
	}
	got = out.take()
	contains(t, "check on the deep track", got, "of 10 exercises pass", "[deep] A keyed store", "not started")

	must(t, r.Blank("03"))
	got = out.take()
	contains(t, "blank 03", got, "stubs all 10 exercises", "03-indexer/exercise/keys.go")
	r.Check("03", 0)
	got = out.take()
	contains(t, "check after blank", got, "0 of 10 exercises pass")

	must(t, r.Reset("03", 0))
	out.take()
	r.Check("03", 0)
	got = out.take()
	contains(t, "check after reset", got, "0 of 6 exercises pass", "+ 4 deep exercises")
}
