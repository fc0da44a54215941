package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/chapters/repotest"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
	"example.com/walkthrough/workshop/scenario"
)

// The slow tests below drive the runner over a temporary copy of the
// workspace (go.work, workshop/ and 03-indexer/), so they run `go test` on
// the real chapter 03 and never touch your own exercise copy. They run one
// after another: each go test already uses every core, and running them
// side by side only makes each slower. -short skips them.

const chapter = "03-indexer"

func TestMain(m *testing.M) {
	// The copies have their own go.work; an inherited GOWORK would point
	// the go command back at the real workspace.
	os.Unsetenv("GOWORK")
	os.Exit(m.Run())
}

// workspace copies the parts of the repository the runner needs into a
// temporary directory, with a freshly generated exercise copy of 03.
func workspace(t *testing.T) string { return workspaceOf(t, chapter) }

// workspaceOf is workspace with the chapters named, each with a freshly
// generated exercise copy.
func workspaceOf(t *testing.T, names ...string) string {
	t.Helper()
	modules := append(slices.Clone(names), "workshop")
	// The docs too: a chapter's tests keep its doc's command reference
	// fresh.
	dst := repotest.Copy(t, append(slices.Clone(modules), "docs"), nil, modules)
	for _, name := range names {
		must(t, exgen.Write(filepath.Join(dst, name)))
	}
	return dst
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is an output the watch goroutine and the test can share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) take() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.b.String()
	s.b.Reset()
	return out
}

func newRunner(root string) (*Runner, *syncBuffer) {
	out := &syncBuffer{}
	return &Runner{Root: root, Out: out, Poll: 50 * time.Millisecond}, out
}

// fill writes the core track's exercise copy with the given exercises
// done (their reference code in place) and every other core one stubbed;
// the deep exercises keep the reference code, as in the committed copy.
func fill(t *testing.T, root string, done ...int) {
	t.Helper()
	dir := filepath.Join(root, chapter)
	core, err := exgen.CoreStubs(dir)
	must(t, err)
	files, err := exgen.Generate(dir, func(id int) bool { return core(id) && !slices.Contains(done, id) })
	must(t, err)
	for name, src := range files {
		if strings.HasPrefix(name, exgen.ExerciseDir) {
			must(t, os.WriteFile(filepath.Join(dir, name), src, 0o644))
		}
	}
}

func contains(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("%s: output lacks %q:\n%s", what, w, out)
		}
	}
}

// fits checks that every line is at most Width columns and has no colour.
func fits(t *testing.T, what, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > Width {
			t.Errorf("%s: line wider than %d columns:\n%s", what, Width, line)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("%s: colour escapes in output that is not a terminal", what)
	}
}

// TestJourney drives the runner the way a learner goes through chapter 03:
// the untouched copy fails, hints come in two levels, the solution stays
// hidden until the exercise passes, a wrong answer gets the harness's
// report, the reference answer passes, and reset puts the stub back.
func TestJourney(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on chapter 03 several times")
	}
	root := workspace(t)
	r, out := newRunner(root)
	keys := filepath.Join(root, chapter, "exercise", "keys.go")

	// The untouched copy: nothing passes, and the next step is exercise 1.
	must(t, r.Status(""))
	status := out.take()
	contains(t, "status", status, "03-indexer", "0/6", "not started  1  Build an object's key", "Next: exercise 1 of 03-indexer")
	fits(t, "status", status)
	if s := LoadState(root); s.Current == nil || s.Current.Chapter != chapter || s.Current.Exercise != 1 {
		t.Errorf("status did not make exercise 1 current: %+v", s.Current)
	}

	// Hints: the first ask gives the hint, the second the deeper one too.
	must(t, r.Hint("03", 1))
	first := out.take()
	contains(t, "hint", first, "Hint:", "An ExplicitKey is already a key", "again for a deeper hint")
	if strings.Contains(first, "Deeper:") {
		t.Errorf("the first hint already shows the deeper one:\n%s", first)
	}
	must(t, r.Hint("03", 1))
	second := out.take()
	contains(t, "hint again", second, "Hint:", "Deeper:", "meta.Accessor(obj) fails")
	fits(t, "hint", first+second)

	// The solution is hidden before the exercise passes, until a learner
	// who has seen both hints asks for it a second time.
	if err := r.Solution("03", 1); !errors.Is(err, ErrNotAllPass) {
		t.Errorf("solution before passing: got %v, want ErrNotAllPass", err)
	}
	contains(t, "solution before passing", out.take(), "does not pass yet", "Deeper:", "ask once more")
	must(t, r.Solution("03", 1))
	contains(t, "solution asked again while stuck", out.take(), "Here is the reference for exercise 1", "func MetaNamespaceKeyFunc")

	// A wrong answer: check shows the harness's report of the first step
	// that diverged, with the hint.
	src, err := os.ReadFile(keys)
	must(t, err)
	stub2 := regexp.MustCompile(`panic\(todo\.Exercise\("03-indexer", 2, .*\)\)`)
	if !stub2.Match(src) {
		t.Fatalf("no stub of exercise 2 in %s", keys)
	}
	must(t, os.WriteFile(keys, stub2.ReplaceAll(src, []byte(`return "", key, nil`)), 0o644))
	if err := r.Check("03", 0); !errors.Is(err, ErrNotAllPass) {
		t.Errorf("check with a wrong answer: got %v, want ErrNotAllPass", err)
	}
	contains(t, "check with a wrong answer", out.take(), "fail         2", "diverged (implementation: your copy)", "Blame:    Exercise 2", "Hint:", "Next: fix exercise 2")

	// The reference answer passes, and then the solution shows.
	fill(t, root, 2)
	must(t, r.Check("03", 2))
	contains(t, "check 03 2", out.take(), "pass         2  Split a key back", "solution 03 2")
	must(t, r.Solution("03", 2))
	sol := out.take()
	contains(t, "solution", sol, "func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {", "unexpected key format")
	if strings.Contains(sol, "exercise:begin") || strings.Contains(sol, "exercise:hint") || strings.Contains(sol, "exercise:end") {
		t.Errorf("the solution shows exercise markers:\n%s", sol)
	}

	// solution trusts that pass while the copy is byte for byte the one
	// that passed (no second run of the tests); changed since, it asks
	// the tests again.
	c, err := r.chapter("03")
	must(t, err)
	if got := LoadState(root).PassedOn[hintKey(chapter, 2)]; got != fingerprint(c) {
		t.Errorf("after check 03 2 passed, the state holds %q for it, want the copy's fingerprint %q", got, fingerprint(c))
	}
	passing, err := os.ReadFile(keys)
	must(t, err)
	must(t, os.WriteFile(keys, stub2.ReplaceAll(src, []byte(`return "", key, nil`)), 0o644))
	if err := r.Solution("03", 2); !errors.Is(err, ErrNotAllPass) {
		t.Errorf("solution after a change that breaks exercise 2: got %v, want ErrNotAllPass", err)
	}
	contains(t, "solution after a change that breaks it", out.take(), "does not pass yet")
	must(t, os.WriteFile(keys, passing, 0o644))

	// Reset asks first: no is no.
	filled, err := os.ReadFile(keys)
	must(t, err)
	r.In = strings.NewReader("n\n")
	must(t, r.Reset("03", 2))
	contains(t, "reset, answered no", out.take(), "Reset? [y/N]", "Nothing changed.")
	if got, _ := os.ReadFile(keys); !bytes.Equal(got, filled) {
		t.Errorf("reset changed %s although the answer was no", keys)
	}

	// Yes puts exactly the generated stub back, and keeps a backup.
	r.In = strings.NewReader("y\n")
	must(t, r.Reset("03", 2))
	contains(t, "reset", out.take(), "exercise 2 of 03-indexer", "03-indexer/exercise/keys.go", "Done.")
	gen, err := exgen.Generate(filepath.Join(root, chapter), exgen.StubAll)
	must(t, err)
	if got, _ := os.ReadFile(keys); !bytes.Equal(got, gen["exercise/keys.go"]) {
		t.Errorf("after reset 03 2, keys.go is not the generated stub:\n%s", got)
	}
	s := LoadState(root)
	if len(s.Backups) != 1 {
		t.Fatalf("state has %d backups, want 1", len(s.Backups))
	}
	saved, err := os.ReadFile(filepath.Join(root, s.Backups[0].Dir, chapter, "exercise", "keys.go"))
	must(t, err)
	if !bytes.Equal(saved, filled) {
		t.Errorf("the backup is not the file as it was before reset")
	}
	if s.Hints[hintKey(chapter, 1)] != 2 {
		t.Errorf("reset 03 2 lost the hint level of exercise 1")
	}

	// Everything filled in: all pass, and the chapter reset undoes it all.
	fill(t, root, 1, 2, 5, 7, 9, 10)
	must(t, r.Status(""))
	done := out.take()
	contains(t, "status when done", done, "6/6", "Every exercise passes.")
	fits(t, "status when done", done)
	// Nothing changed: status takes that check's result, and says so.
	must(t, r.Status(""))
	contains(t, "status again", out.take(), "6/6", "not checked again: 03-indexer")
	r.Yes = true
	must(t, r.Reset("03", 0))
	contains(t, "reset 03", out.take(), "your whole copy of 03-indexer", "y (--yes)")
	// Your copy changed: status checks it again.
	must(t, r.Status(""))
	if again := out.take(); !strings.Contains(again, "0/6") || strings.Contains(again, "not checked again") {
		t.Errorf("status after reset 03 did not check 03 again:\n%s", again)
	}
	if stale, err := exgen.Stale(filepath.Join(root, chapter)); err != nil || len(stale) > 0 {
		t.Errorf("after reset 03 the copy differs from the generated one: %v %v", stale, err)
	}
	if s := LoadState(root); len(s.Hints) != 0 || len(s.Backups) != 2 {
		t.Errorf("after reset 03: hints %v (want none), %d backups (want 2)", s.Hints, len(s.Backups))
	}
}

// TestMine checks the overlay behind --mine. Chapter 03 imports no
// earlier chapter, so the overlay is tried the other way round: 03's
// reference tests run with 03's own reference package replaced by the
// exercise copy. Stubbed, they fail; filled with the reference, they pass.
func TestMine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on chapter 03 twice")
	}
	root := workspace(t)
	c := chapters.Chapter{Name: chapter, Dir: filepath.Join(root, chapter)}
	run := func() *progress.Chapter {
		t.Helper()
		files, err := MineOverlay(c, []chapters.Chapter{c})
		must(t, err)
		if _, ok := files["keys.go"]; !ok {
			t.Fatalf("the overlay does not replace keys.go: %v", slices.Collect(mapsKeys(files)))
		}
		res, err := progress.CheckWith(c, progress.Options{Impl: scenario.Reference, Files: files})
		must(t, err)
		if res.Build != "" {
			t.Fatalf("does not build:\n%s", res.Build)
		}
		return res
	}
	for _, e := range run().Exercises {
		if e.Track == exgen.TrackCore && e.Status == progress.Pass {
			t.Errorf("the reference tests pass exercise %d on the stubbed copy", e.ID)
		}
	}
	fill(t, root, 1, 2, 5, 7, 9, 10)
	if res := run(); res.Done() != len(res.Exercises) {
		t.Errorf("the reference tests fail on a copy filled with the reference: %s", res.Summary())
	}

	// Through the runner, --mine on 03 says it changes nothing.
	r, out := newRunner(root)
	r.Mine = true
	must(t, r.Check("03", 0))
	contains(t, "check --mine", out.take(), "builds on no earlier chapter", "6 of 6 exercises pass")
}

func mapsKeys(m map[string][]byte) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestWatch starts watch on the first exercise, fills that exercise in,
// and checks that watch notices, re-runs, and moves on to exercise 2.
func TestWatch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on chapter 03 twice")
	}
	root := workspace(t)
	r, out := newRunner(root)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Watch(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("watch returned %v", err)
		}
	}()

	waitFor := func(what string, wants ...string) string {
		t.Helper()
		deadline := time.Now().Add(5 * time.Minute)
		for time.Now().Before(deadline) {
			s := out.String()
			ok := true
			for _, w := range wants {
				ok = ok && strings.Contains(s, w)
			}
			if ok {
				return s
			}
			select {
			case err := <-done:
				t.Fatalf("watch stopped early (%v):\n%s", err, s)
			case <-time.After(50 * time.Millisecond):
			}
		}
		t.Fatalf("%s: watch never printed %q:\n%s", what, wants, out.String())
		return ""
	}
	first := waitFor("first run", "run 1", "not started  1  Build an object's key", "Watching 03-indexer/exercise")
	fits(t, "watch", first)
	if strings.Contains(first, "run 2") {
		t.Errorf("the first run is not numbered 1:\n%s", first)
	}
	// Exercise 1 passes on its own: watch says so and moves on to 2.
	fill(t, root, 1)
	waitFor("after exercise 1", "run 2", "Exercise 1 of 03-indexer passes", "not started  2  Split a key")
	if s := LoadState(root); s.Current == nil || s.Current.Exercise != 2 {
		t.Errorf("watch did not move the current exercise on: %+v", s.Current)
	}
	// Exercise 9 (Replace) cannot pass before exercise 5 (moving index
	// entries, which Replace's scenario reads through an index): on
	// exercise 9 with 5 not done, watch goes to 5.
	st := LoadState(root)
	st.Current = &Position{Chapter: chapter, Exercise: 9}
	must(t, st.Save(root))
	fill(t, root, 1, 9)
	waitFor("on exercise 9 before 5", "run 3", "cannot pass before exercise 5", "not started  5  Move index entries")
	if s := LoadState(root); s.Current == nil || s.Current.Exercise != 5 {
		t.Errorf("watch did not move to exercise 5: %+v", s.Current)
	}
}

// TestWatchSeesAnEarlierChapter: watch is on 04-probe, and a save in 03
// undoes exercise 2 of 03, which passed before. The next run must say
// so, naming 03 and the exercise, and the first run is run 1.
func TestWatchSeesAnEarlierChapter(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on two chapters")
	}
	root := workspace(t)
	probe := probeChapter(t, root)
	must(t, exgen.Write(probe.Dir)) // 04-probe's exercise not done: watch stays on it
	fill(t, root, 2)
	s := LoadState(root)
	s.Current = &Position{Chapter: "04-probe", Exercise: 1}
	s.Passed[chapter] = []int{2}
	must(t, s.Save(root))

	r, out := newRunner(root)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Watch(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("watch returned %v", err)
		}
	}()
	waitFor := func(what string, wants ...string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Minute)
		for time.Now().Before(deadline) {
			s := out.String()
			ok := true
			for _, w := range wants {
				ok = ok && strings.Contains(s, w)
			}
			if ok {
				return
			}
			select {
			case err := <-done:
				t.Fatalf("watch stopped early (%v):\n%s", err, s)
			case <-time.After(50 * time.Millisecond):
			}
		}
		t.Fatalf("%s: watch never printed %q:\n%s", what, wants, out.String())
	}
	waitFor("first run", "workshop watch: run 1 at", "Watching 04-probe/exercise")
	if strings.Contains(out.String(), "run 2") {
		t.Fatalf("the first run is not run 1:\n%s", out.String())
	}
	fill(t, root) // exercise 2 of 03 back to its stub: a regression in 03
	waitFor("after a save in 03", "run 2", "You saved in 03-indexer/exercise: exercise 2 passed before this change",
		"2  Split a key back into namespace and name", "check 03 2")
	fits(t, "watch", out.String())
}

// TestRestoreStubs resets each exercise alone in a copy where every
// exercise is done: the result must be the generator's own copy with just
// that exercise stubbed, byte for byte, imports included.
func TestRestoreStubs(t *testing.T) {
	src, err := chapters.Root()
	must(t, err)
	dir := filepath.Join(src, chapter)
	done, err := exgen.Generate(dir, func(int) bool { return false })
	must(t, err)
	all, err := exgen.Generate(dir, exgen.StubAll)
	must(t, err)
	list, err := exgen.Exercises(dir)
	must(t, err)
	for _, ex := range list {
		want, err := exgen.Generate(dir, func(id int) bool { return id == ex.ID })
		must(t, err)
		parts, err := exgen.ExerciseParts(all, ex.ID)
		must(t, err)
		if len(parts) == 0 {
			t.Errorf("exercise %d: no function found", ex.ID)
		}
		for name, keys := range parts {
			got, err := exgen.SpliceBodies(done[name], all[name], keys)
			must(t, err)
			if !bytes.Equal(got, want[name]) {
				t.Errorf("exercise %d, %s: restored file differs from the generated one:\n%s", ex.ID, name, got)
			}
			if !exgen.Untouched(got, all[name], keys) || exgen.Untouched(done[name], all[name], keys) {
				t.Errorf("exercise %d, %s: untouched is wrong", ex.ID, name)
			}
		}
	}
}

func TestFixImportsAddsTodo(t *testing.T) {
	src := []byte("package p\n\nfunc F() { panic(todo.Exercise(\"03-indexer\", 1, \"\")) }\n")
	got, err := exgen.FixImports(src)
	must(t, err)
	if !strings.Contains(string(got), `import "example.com/walkthrough/workshop/todo"`) {
		t.Errorf("no todo import added:\n%s", got)
	}
}

func TestDeps(t *testing.T) {
	root := t.TempDir()
	mod := func(name, body string) {
		must(t, os.MkdirAll(filepath.Join(root, name), 0o755))
		must(t, os.WriteFile(filepath.Join(root, name, "go.mod"), []byte("module example.com/walkthrough/"+name+"\n\n"+body), 0o644))
	}
	mod("03-indexer", "require example.com/walkthrough/workshop v0.0.0\n")
	mod("04-processor", "require (\n\texample.com/walkthrough/03-indexer v0.0.0\n\tk8s.io/api v0.37.2\n)\n")
	mod("06-controller", "require (\n\texample.com/walkthrough/04-processor v0.0.0\n)\n")
	c := chapters.Chapter{Name: "06-controller", Dir: filepath.Join(root, "06-controller")}
	deps, err := chapters.Deps(root, c)
	must(t, err)
	var names []string
	for _, d := range deps {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, " "); got != "03-indexer 04-processor" {
		t.Errorf("Deps(06) = %q, want 03-indexer 04-processor", got)
	}
}

func TestWrapAndBar(t *testing.T) {
	if got := Bar(3, 6, 10); got != "[#####-----] 3/6" {
		t.Errorf("Bar(3, 6, 10) = %q", got)
	}
	if got := Bar(0, 0, 4); got != "[----] 0/0" {
		t.Errorf("Bar(0, 0, 4) = %q", got)
	}
	text := strings.Repeat("word ", 40) + "then run `go run ./workshop/cmd/workshop check 03 1` now"
	got := Wrap("Next: ", text, Width)
	fits(t, "wrap", got)
	if !strings.Contains(got, "`go run ./workshop/cmd/workshop check 03 1`") {
		t.Errorf("a quoted command was broken across lines:\n%s", got)
	}
	if lines := strings.Split(got, "\n"); !strings.HasPrefix(lines[1], "      word") {
		t.Errorf("continuation is not indented under the label:\n%s", got)
	}
}

func TestNoColourOffTerminal(t *testing.T) {
	// Under go test, stdout is a pipe or a file, never a terminal.
	if r := New(t.TempDir()); r.Color || r.Clear {
		t.Errorf("colour or screen clearing on when stdout is not a terminal")
	}
}

func TestReportFolding(t *testing.T) {
	out := "/x/split-key.txt:6:\n  split-key\n  ----\n  ok\n" +
		"03-indexer/testdata/scenarios/split-key.txt:6: step 1 diverged (implementation: exercise)\n  Step 1:   split-key\n"
	want := "03-indexer/testdata/scenarios/split-key.txt:6:\nstep 1 diverged (implementation: exercise)\n  Step 1:   split-key"
	if got := report(out); got != want {
		t.Errorf("report() =\n%s\nwant\n%s", got, want)
	}
}

// probeChapter adds a small chapter 04-probe to a workspace copy. Like a
// real later chapter, its reference imports 03's reference package: its
// one exercise splits a key with indexer.SplitMetaNamespaceKey, which is
// exercise 2 of 03. Its exercise copy is written with that exercise done.
func probeChapter(t *testing.T, root string) chapters.Chapter {
	t.Helper()
	dir := filepath.Join(root, "04-probe")
	files := map[string]string{
		"probe.go": `// Package probe is a chapter that builds on 03, for the runner's tests.
package probe

import indexer "example.com/walkthrough/03-indexer"

// Split shows how 03 splits a key.
func Split(key string) string {
	// exercise:begin 1 Split a key with chapter 03
	// exercise:hint Call indexer.SplitMetaNamespaceKey.
	ns, name, err := indexer.SplitMetaNamespaceKey(key)
	if err != nil {
		return "error: " + err.Error()
	}
	return ns + "|" + name
	// exercise:end 1
}
`,
		"scenario_test.go": `package probe_test

import (
	"testing"

	"example.com/walkthrough/workshop/scenario"
)

var scenarioImpls = scenario.Impls{}

func TestScenarios(t *testing.T) { scenario.Run(t, scenarioImpls, scenario.Options{}) }
`,
		"adapter_reference_test.go": `package probe_test

import (
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	probe "example.com/walkthrough/04-probe"
	"example.com/walkthrough/workshop/scenario"
)

func init() {
	scenarioImpls[scenario.Reference] = func(testing.TB, *scenario.File) scenario.Driver {
		return func(_ testing.TB, d *datadriven.TestData) string {
			return probe.Split(strings.TrimSpace(d.Input))
		}
	}
}
`,
		"testdata/scenarios/split.txt": `# A key splits into namespace and name, through chapter 03.
# exercise: 1

split
ns/a
----
ns|a
`,
	}
	for name, src := range files {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	mod, err := os.ReadFile(filepath.Join(root, chapter, "go.mod"))
	must(t, err)
	mod = bytes.Replace(mod, []byte("module example.com/walkthrough/03-indexer"), []byte("module example.com/walkthrough/04-probe"), 1)
	mod = append(mod, "\nrequire example.com/walkthrough/03-indexer v0.0.0\n\nreplace example.com/walkthrough/03-indexer => ../03-indexer\n"...)
	must(t, os.WriteFile(filepath.Join(dir, "go.mod"), mod, 0o644))
	sum, err := os.ReadFile(filepath.Join(root, chapter, "go.sum"))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	work, err := os.ReadFile(filepath.Join(root, "go.work"))
	must(t, err)
	work = bytes.Replace(work, []byte("\t./workshop\n"), []byte("\t./04-probe\n\t./workshop\n"), 1)
	must(t, os.WriteFile(filepath.Join(root, "go.work"), work, 0o644))

	must(t, exgen.Write(dir))
	done, err := exgen.Generate(dir, func(int) bool { return false })
	must(t, err)
	must(t, os.WriteFile(filepath.Join(dir, "exercise", "probe.go"), done["exercise/probe.go"], 0o644))
	return chapters.Chapter{Name: "04-probe", Dir: dir}
}

// TestMineOnALaterChapter is --mine as a learner meets it: chapter 04 is
// done, chapter 03 is not. --mine leaves your unfinished 03 out (a step
// reaching one of its stubs would judge nothing of 04) and says so; once
// every exercise of 03 passes, 04 runs on it.
func TestMineOnALaterChapter(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a chapter five times")
	}
	root := workspace(t)
	probe := probeChapter(t, root)
	deps, err := chapters.Deps(root, probe)
	must(t, err)
	if len(deps) != 1 || deps[0].Name != chapter {
		t.Fatalf("Deps(04-probe) = %v, want 03-indexer", deps)
	}
	r, out := newRunner(root)

	must(t, r.Check("04", 0))
	contains(t, "04 on the reference 03", out.take(), "1 of 1 exercises pass")

	r.Mine = true
	if err := r.Check("04", 0); err != nil {
		t.Errorf("04 --mine with your 03 unfinished: %v\n%s", err, out.String())
	}
	got := out.take()
	contains(t, "04 --mine, your 03 untouched", got, "Reference: 03-indexer (not started)", "1 of 1 exercises pass")
	if strings.Contains(got, "Yours:") {
		t.Errorf("04 --mine calls an unfinished 03 yours:\n%s", got)
	}

	fill(t, root, 1, 2, 5, 7, 9, 10)
	if err := r.Check("04", 0); err != nil {
		t.Errorf("04 --mine on your finished 03: %v\n%s", err, out.String())
	}
	contains(t, "04 --mine, your 03 finished", out.take(), "Yours: 03-indexer.", "1 of 1 exercises pass")

	// status --mine says, under each chapter, what it was built on.
	must(t, r.Status(""))
	contains(t, "status --mine", out.take(), "(built on your 03-indexer)")
}

// TestWatchStopsAtTheEnd: when the exercise watch is on passes and it was
// the last one, watch says so and returns by itself.
func TestWatchStopsAtTheEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on chapter 03")
	}
	root := workspace(t)
	fill(t, root, 1, 2, 5, 7, 9, 10)
	s := LoadState(root)
	s.Current = &Position{Chapter: chapter, Exercise: 10}
	must(t, s.Save(root))
	r, out := newRunner(root)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := r.Watch(ctx); err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatalf("watch did not stop by itself:\n%s", out.String())
	}
	contains(t, "watch at the end", out.String(), "Exercise 10 passes, and with it every exercise of 03-indexer.", "end of the last chapter")
}

// TestAnnounceSaysNewOnceAndAgainAfterAFailure: an exercise is new the
// first time it passes; a check that could not judge it (blocked) keeps
// its pass quietly; after a real failure, passing is "again", not new.
func TestAnnounceSaysNewOnceAndAgainAfterAFailure(t *testing.T) {
	var out strings.Builder
	r := &Runner{Root: t.TempDir(), Out: &out}
	x := &result{c: chapters.Chapter{Name: "03-indexer"}}
	check := func(status progress.Status) string {
		out.Reset()
		x.res = &progress.Chapter{Exercises: []progress.Exercise{{Exercise: exgen.Exercise{ID: 2, Title: "Split a key"}, Status: status}}}
		r.announce(x)
		return strings.TrimSpace(out.String())
	}
	for i, step := range []struct {
		status progress.Status
		want   string
	}{
		{progress.NotStarted, ""}, // the first check: nothing to compare with
		{progress.Pass, "New: exercise 2 passes (Split a key)."},
		{progress.Pass, ""},
		{progress.Blocked, ""},
		{progress.Pass, ""}, // blocked was no verdict: it never stopped passing
		{progress.Fail, ""},
		{progress.Pass, "Exercise 2 passes again (Split a key)."},
	} {
		if got := check(step.status); got != step.want {
			t.Errorf("check %d (%v): said %q, want %q", i+1, step.status, got, step.want)
		}
	}
}

// TestManyPassAgainInOneLine: the first check after a restore brings
// back every exercise at once; they are said to pass again in one line.
func TestManyPassAgainInOneLine(t *testing.T) {
	var out strings.Builder
	r := &Runner{Root: t.TempDir(), Out: &out}
	x := &result{c: chapters.Chapter{Name: "04-processor"}}
	check := func(status progress.Status) string {
		out.Reset()
		x.res = &progress.Chapter{}
		for id := 1; id <= 4; id++ {
			x.res.Exercises = append(x.res.Exercises, progress.Exercise{Exercise: exgen.Exercise{ID: id, Title: "T"}, Status: status})
		}
		r.announce(x)
		return strings.TrimSpace(out.String())
	}
	check(progress.Pass)
	check(progress.Fail)
	if got, want := check(progress.Pass), "Exercises 1, 2, 3 and 4 pass again."; got != want {
		t.Errorf("four exercises passing again: said %q, want %q", got, want)
	}
}

// TestGivenChangedSaidOnAPass: code changed outside the exercises is named
// when every exercise passes too, since no check may judge it.
func TestGivenChangedSaidOnAPass(t *testing.T) {
	var out strings.Builder
	r := &Runner{Root: t.TempDir(), Out: &out}
	x := &result{c: chapters.Chapter{Name: "02-deltafifo"}, res: &progress.Chapter{
		Given:     []string{"DeltaFIFO.IsClosed"},
		Exercises: []progress.Exercise{{Exercise: exgen.Exercise{ID: 1}, Status: progress.Pass}},
	}}
	r.givenChanged(x)
	if got := out.String(); !strings.Contains(got, "DeltaFIFO.IsClosed") || !strings.Contains(got, "may not judge that code") {
		t.Errorf("every exercise passes, IsClosed changed: said\n%s", got)
	}
}

// TestWaitingNote: the chapter's line says how many exercises only wait
// for others, and for which.
func TestWaitingNote(t *testing.T) {
	x := &result{c: chapters.Chapter{Name: "04-processor"}, res: &progress.Chapter{}}
	for id := 1; id <= 4; id++ {
		e := progress.Exercise{Exercise: exgen.Exercise{ID: id}, Status: progress.Blocked, Blocker: 4, BlockerChapter: "04-processor"}
		if id == 4 {
			e.Status, e.Blocker, e.BlockerChapter = progress.Fail, 0, ""
		}
		x.res.Exercises = append(x.res.Exercises, e)
	}
	if got, want := x.waitingNote(), "3 exercises holding your code are blocked by exercise 4: fix that first, and their checks run again."; got != want {
		t.Errorf("three waiting for exercise 4: %q, want %q", got, want)
	}
	x.res.Exercises = x.res.Exercises[2:]
	if got := x.waitingNote(); got != "" {
		t.Errorf("one waiting: %q, want nothing (its row says so)", got)
	}
}

// TestBlameSaysHowItKnows: the Blame line names every file of the
// exercise and says how the failure was put on it, claiming frames only
// when frames proved it and a swap only when a swap did.
func TestBlameSaysHowItKnows(t *testing.T) {
	x := &result{
		c:     chapters.Chapter{Name: "03-indexer"},
		files: map[int][]string{7: {"exercise/indexer.go", "exercise/store.go"}},
	}
	for _, c := range []struct {
		how       progress.Proof
		want, not string
	}{
		{progress.ByFrames, "the place shown above is in it", "reference's"},
		{progress.OnlySuspect, "the only one whose code differs from the reference's", "shown above"},
		{progress.BySwap, "with the reference's in its place, this check passes", "shown above"},
		{progress.NotLocated, "also runs your code of exercise 2", "comes from your code"},
		{progress.Unproved, "Not proved: with the reference's code in place of every exercise, this check passes, but no swap of one exercise alone made it pass. It also runs your code of exercise 2", "comes from your code"},
	} {
		var out strings.Builder
		r := &Runner{Root: t.TempDir(), Out: &out}
		e := progress.Exercise{Exercise: exgen.Exercise{ID: 7, Title: "Guard the store.", File: "indexer.go"}, Located: c.how, Runs: []int{2, 7}, Suspects: []int{7, 2}}
		r.blameNote(x, e)
		got := strings.Join(strings.Fields(out.String()), " ")
		contains(t, c.how.String(), got, "Exercise 7 (03-indexer/exercise/indexer.go, store.go): Guard the store", c.want)
		if strings.Contains(got, c.not) {
			t.Errorf("%v: the Blame line says %q:\n%s", c.how, c.not, got)
		}
	}
}

// TestAShortSwapIsLikelyNotProved: a flaky check's swap cut short by the
// time it may take (a slow chapter's) says its blame is likely, not
// proved (trial E was sent to a correct exercise by "passed 8 runs out of
// 8"); one that ran all the runs its failure rate asks for claims more.
func TestAShortSwapIsLikelyNotProved(t *testing.T) {
	x := &result{c: chapters.Chapter{Name: "07-watchserver"}, files: map[int][]string{10: {"exercise/watchserver.go"}}}
	for _, c := range []struct {
		wanted    int
		want, not string
	}{
		{14, "passed 8 runs out of 8, fewer than the 14 that would rule out luck: likely, not proved", ""},
		{0, "passed 8 runs out of 8.", "likely"},
	} {
		var out strings.Builder
		r := &Runner{Root: t.TempDir(), Out: &out}
		e := progress.Exercise{Exercise: exgen.Exercise{ID: 10, Title: "Stream a watch.", File: "watchserver.go"},
			Located: progress.FlakyBySwap, SwapRuns: 8, SwapWanted: c.wanted}
		r.blameNote(x, e)
		got := strings.Join(strings.Fields(out.String()), " ")
		contains(t, "wanted "+strconv.Itoa(c.wanted), got, c.want)
		if c.not != "" && strings.Contains(got, c.not) {
			t.Errorf("wanted %d: the Blame line says %q:\n%s", c.wanted, c.not, got)
		}
	}
}

// TestUnfinishedNamesTheStubsLeft: an exercise you have begun whose
// checks stop at one of its own stubs is "unfinished", with the stubs
// left, not "not started".
func TestUnfinishedNamesTheStubsLeft(t *testing.T) {
	var out strings.Builder
	r := &Runner{Root: t.TempDir(), Out: &out}
	x := &result{c: chapters.Chapter{Name: "05-workqueue"}, res: &progress.Chapter{}, fresh: map[int]bool{9: false},
		stubs: map[int][]string{9: {"waiting.go: entryHeap.Less, entryHeap.Swap"}}}
	e := progress.Exercise{Exercise: exgen.Exercise{ID: 9, Title: "The waiting heap"}, Status: progress.NotStarted}
	r.row(x, e)
	got := strings.Join(strings.Fields(out.String()), " ")
	contains(t, "a begun exercise", got, "unfinished 9 The waiting heap (still stubs in waiting.go: entryHeap.Less, entryHeap.Swap)")
}

// A full disk is said so, with what to do: trial R read "does not build
// yet, and the errors are not in your copy" for one.
func TestDiskFullIsSaidSo(t *testing.T) {
	if DiskFull("compile: writing output: write /tmp/x: no space left on device") == "" {
		t.Error("a full disk is not recognised")
	}
	if got := DiskFull("undefined: q.dirty.remove"); got != "" {
		t.Errorf("a compile error read as a full disk: %q", got)
	}
}

// A copy that does not compile after check NN N is told to run check NN N
// again, not check NN (trial R).
func TestBuildFailureSaysTheSameCheck(t *testing.T) {
	var out strings.Builder
	r := &Runner{Root: t.TempDir(), Out: &out}
	c := chapters.Chapter{Name: "05-workqueue", Dir: "05-workqueue"}
	r.buildFailed(&result{c: c, res: &progress.Chapter{Only: 2, Build: "queue.go:12: undefined: q.dirty.remove"}})
	if got := out.String(); !strings.Contains(got, "check 05 2") {
		t.Errorf("after check 05 2 failed to build, the next step is not check 05 2:\n%s", got)
	}
}

// Every check passing with a function that can return holding a lock is
// not "Every exercise passes": the next step is that path (the 03 blank
// trial's ByIndex kept its read lock on an error return, and was sent on
// to chapter 04).
func TestAllPassWithAKeptLockSaysFixIt(t *testing.T) {
	var out strings.Builder
	r := &Runner{Root: t.TempDir(), Out: &out}
	c := chapters.Chapter{Name: "03-indexer", Dir: "03-indexer"}
	r.allPass(&result{c: c, res: &progress.Chapter{Unreleased: []progress.KeptLock{{What: "ThreadSafeStore.ByIndex (exercise 6) returns still holding s.mu", Where: "03-indexer/exercise/store.go:155"}}}})
	got := out.String()
	if strings.Contains(got, "Every exercise of") || !strings.Contains(got, "the warning above is a bug") || !strings.Contains(got, "check 03") {
		t.Errorf("all checks pass but a lock is kept:\n%s", got)
	}
}
