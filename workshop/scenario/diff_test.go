package scenario

import (
	"strings"
	"testing"
)

func TestLineDiff(t *testing.T) {
	for _, tc := range []struct{ want, got, diff string }{
		{"a\nb\nc\n", "a\nb\nc\n", "  a\n  b\n  c\n"},
		{"a\nb\nc\n", "a\nc\n", "  a\n- b\n  c\n"},
		{"a\nc\n", "a\nb\nc\n", "  a\n+ b\n  c\n"},
		// A changed line is one line out and one line in, never a
		// character-level edit of it.
		{"workqueue_adds_total 3\nworkqueue_depth 0\n", "workqueue_adds_total 2\nworkqueue_depth 0\n",
			"- workqueue_adds_total 3\n+ workqueue_adds_total 2\n  workqueue_depth 0\n"},
		{"", "x\n", "- \n+ x\n"},
	} {
		if got := lineDiff(tc.want, tc.got); got != tc.diff {
			t.Errorf("lineDiff(%q, %q) =\n%s\nwant\n%s", tc.want, tc.got, got, tc.diff)
		}
	}
}

// TestALongLineKeepsBothEnds: an error that prints a whole object is cut
// in its middle, keeping the reason at its end; short lines stay whole.
func TestALongLineKeepsBothEnds(t *testing.T) {
	long := "error: couldn't create key for object {" + strings.Repeat("Pod{x} ", 500) + "}: object has no meta"
	got := lineDiff("ok\n", long+"\n")
	if !strings.Contains(got, "- ok\n") || !strings.Contains(got, "object has no meta\n") || !strings.Contains(got, "characters left out") {
		t.Errorf("diff of a long line:\n%s", got)
	}
	if n := len(got); n > 600 {
		t.Errorf("diff of a long line is %d characters, want it cut", n)
	}
}
