package transcripts

import (
	"strings"
	"testing"
)

func TestRewrite(t *testing.T) {
	doc := "# T\n\ntext\n\n<!-- transcript: a b -->\n```\n$ old\nold out\n```\n\nmore\n```\nuntouched\n```\n"
	out, err := Rewrite([]byte(doc), func(steps []string) (string, bool) {
		return "$ " + strings.Join(steps, "\n\n$ ") + "\n\n", true
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "# T\n\ntext\n\n<!-- transcript: a b -->\n```\n$ a\n\n$ b\n```\n\nmore\n```\nuntouched\n```\n"
	if string(out) != want {
		t.Errorf("Rewrite:\n%s\nwant:\n%s", out, want)
	}
	if _, err := Rewrite([]byte("<!-- transcript: a -->\ntext\n"), nil); err == nil {
		t.Error("a marker not followed by a fence is accepted")
	}
	if _, err := Rewrite([]byte("<!-- transcript: a -->\n```\nnever closed\n"), func([]string) (string, bool) { return "", true }); err == nil {
		t.Error("a block that never closes is accepted")
	}
	// A block whose steps have not run stays as it is.
	same, err := Rewrite([]byte(doc), func([]string) (string, bool) { return "", false })
	if err != nil || string(same) != doc {
		t.Errorf("a block without its steps changed (%v):\n%s", err, same)
	}
}

func TestStoryNamesAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Story {
		if seen[s.Name] {
			t.Errorf("step %q twice", s.Name)
		}
		seen[s.Name] = true
		if !marker.MatchString("<!-- transcript: " + s.Name + " -->") {
			t.Errorf("step %q cannot be named in a marker", s.Name)
		}
	}
}

// TestHideBodies: a printed function keeps its signature and braces, and
// loses its body.
func TestHideBodies(t *testing.T) {
	got := hideBodies("before\nfunc F(x int) int {\n    return x\n}\nafter")
	want := "before\nfunc F(x int) int {\n    … (the body: run the command once your exercise passes)\n}\nafter"
	if got != want {
		t.Errorf("hideBodies:\n%s\nwant:\n%s", got, want)
	}
}
