package exgen

import (
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const stubSample = `package sample

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Names returns the names sorted, joined by commas.
func Names(names []string) string {
	// exercise:begin 1 Sort and join
	// exercise:hint A long hint that belongs to the runner, not to every stub.
	sort.Strings(names)
	return strings.Join(names, ",")
	// exercise:end 1
}

func count(s string) (int, int) {
	// exercise:begin 1
	var b bytes.Buffer
	b.WriteString(s)
	n, _ := strconv.Atoi(s)
	return n, int(time.Duration(n) / time.Second) + b.Len()
	// exercise:end 1
}

func sorted(xs []int) []int {
	// exercise:begin 2 Sort a copy
	// exercise:hint Clone, then sort.
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs
	// exercise:end 2
}

// Join is strings.Join, kept outside every exercise.
func Join(xs []string) string { return strings.Join(xs, "") }
`

// TestStubsSayWhatTheirFunctionDoes: one line per stub, from the doc
// comment or the exercise's title, and no hint; every import the regions
// use is kept, by a line that compiles for its kind of name.
func TestStubsSayWhatTheirFunctionDoes(t *testing.T) {
	dir := sampleChapter(t, map[string]string{"sample.go": stubSample})
	files, err := Generate(dir, StubAll)
	if err != nil {
		t.Fatal(err)
	}
	got := string(files[filepath.Join(ExerciseDir, "sample.go")])
	for _, want := range []string{
		"\t// Exercise 1: Names returns the names sorted, joined by commas.\n\tpanic(todo.Exercise(\"99-sample\", 1, \"Names\"))\n",
		"\t// Exercise 1: part of \"Sort and join\".\n\tpanic(todo.Exercise(\"99-sample\", 1, \"count\"))\n",
		"\t// Exercise 2: Sort a copy.\n",
		`"bytes"`, `"sort"`, `"strconv"`, `"time"`, `"slices"`,
		"_ = sort.Strings\n", "_ = strconv.Atoi\n", "_ = time.Second\n", "_ bytes.Buffer\n", "_ = slices.Clone[[]int, int]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the exercise copy lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"long hint", "Clone, then sort", "_ = strings."} {
		if strings.Contains(got, unwanted) {
			t.Errorf("the exercise copy holds %q:\n%s", unwanted, got)
		}
	}
}

func TestFirstSentenceCutsAtAClause(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"watchTimeout picks a watch's timeoutSeconds at random in [5min, 10min), so the watches of many clients do not all end, and relist, together.",
			"watchTimeout picks a watch's timeoutSeconds at random in [5min, 10min)."},
		{"isTooLargeResourceVersionError: the resource version is newer than the server (its watch cache) has reached.",
			"isTooLargeResourceVersionError: the resource version is newer than the server."},
		{"Short. Then more.", "Short."},
	} {
		if got := firstSentence(comment(c.doc)); got != c.want {
			t.Errorf("firstSentence(%q)\n got %q\nwant %q", c.doc, got, c.want)
		}
	}
}

// sampleChapter writes a chapter 99-sample of files, with a go.mod, and
// returns its directory.
func sampleChapter(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "99-sample")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files["go.mod"] = "module example.com/sample\n\ngo 1.26\n"
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func comment(text string) *ast.CommentGroup {
	return &ast.CommentGroup{List: []*ast.Comment{{Text: "// " + text}}}
}
