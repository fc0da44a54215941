package exindex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chapter writes a small chapter with one fact of each source: two
// exercises, a scenario, a blame file (one line naming an exercise that
// is gone), a group, and two mutants, one of them starting at a func
// line, outside the region.
func chapter(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "09-tiny")
	files := map[string]string{
		"tiny.go": `package tiny

// Get returns the value.
func Get() int {
	// exercise:begin 1 Return the value
	// exercise:hint Return it.
	return 1
	// exercise:end 1
}

// Set stores the value.
func (s *Store) Set(v int) {
	// exercise:begin 2 Store the value
	// exercise:hint Keep it.
	// exercise:track deep
	s.v = v
	// exercise:end 2
}

type Store struct{ v int }

// Zero is no exercise's.
func Zero() int { return 0 }
`,
		"testdata/scenarios/set.txt":         "# Sets a value.\n# exercise: 2\n\nset\n----\nok\n",
		"testdata/blame.txt":                 "# measured\nTestScenarios/set: 1 2\nTestScenarios/gone: 9\n",
		"testdata/checked-together.txt":      "1 2: both or neither\n",
		"testdata/mutants/keeps-nothing.txt": "Set forgets the value.\n-- find: tiny.go --\n\ts.v = v\n-- replace --\n\t_ = v\n",
		"testdata/mutants/from-the-func-line.txt": "Get returns zero.\n-- find: tiny.go --\nfunc Get() int {\n" +
			"\t// exercise:begin 1 Return the value\n\t// exercise:hint Return it.\n\treturn 1\n-- replace --\n" +
			"func Get() int {\n\t// exercise:begin 1 Return the value\n\t// exercise:hint Return it.\n\treturn 0\n",
		"testdata/mutants/outside.txt": "Zero returns one.\n-- find: tiny.go --\nfunc Zero() int { return 0 }\n-- replace --\nfunc Zero() int { return 1 }\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestIndexText: each fact lands in its exercise's block, and a mutant
// or a check under no exercise is named, not dropped.
func TestIndexText(t *testing.T) {
	idx, err := Build(chapter(t))
	if err != nil {
		t.Fatal(err)
	}
	got := string(idx.Text())
	_, body, _ := strings.Cut(got, "\n\n")
	want := `exercise 1: Return the value
  track:          core
  functions:      tiny.go: Get
  scenarios (0):  none
  checks (1):     TestScenarios/set
  together:       1 2
  mutants (1):    from-the-func-line

exercise 2: Store the value
  track:          deep
  functions:      tiny.go: Store.Set
  scenarios (1):  set.txt
  checks (1):     TestScenarios/set
  together:       1 2
  mutants (1):    keeps-nothing

Under no exercise:
  mutants (1):    outside
                  (each one's first changed line is outside every exercise region:
                  selftest checks that one exercise fails, not which)
  check TestScenarios/gone: its line in blame.txt names exercise 9, which does not exist
`
	if body != want {
		t.Errorf("index body:\n%s\nwant:\n%s", body, want)
	}
}

// TestCheckFresh: a missing or stale index is an error naming the command
// that fixes it; once written, it is current.
func TestCheckFresh(t *testing.T) {
	dir := chapter(t)
	if err := CheckFresh(dir); err == nil || !strings.Contains(err.Error(), "make exercises") {
		t.Fatalf("missing index: got %v, want an error saying to run make exercises", err)
	}
	if _, err := Write(dir); err != nil {
		t.Fatal(err)
	}
	if err := CheckFresh(dir); err != nil {
		t.Fatalf("just written: %v", err)
	}
	// selftest -record rewrites the blame file: the index goes stale.
	if err := os.WriteFile(filepath.Join(dir, "testdata/blame.txt"), []byte("TestScenarios/set: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckFresh(dir); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("after a blame change: got %v, want a stale index", err)
	}
}
