package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/progress"
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
	contains(t, "deep 03", got, "3 A keyed store under one lock", "Your old files are in")
	if strings.Contains(got, "Still stubs") {
		t.Errorf("deep 03 after the core track was done says some are stubs:\n%s", got)
	}
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

	// Blank again: nothing to change, and only that is said (trial X saw
	// "These files change" over an empty list, then "needed no change").
	must(t, r.Blank("03"))
	got = out.take()
	contains(t, "blank 03 on a blank copy", got, "03-indexer is on the blank track; your copy needed no change.")
	if strings.Contains(got, "These files change") {
		t.Errorf("blank 03 on a blank copy lists the files that change:\n%s", got)
	}

	// reset keeps the track the chapter is on: every exercise a stub,
	// so right after blank there is nothing to reset.
	must(t, r.Reset("03", 0))
	got = out.take()
	contains(t, "reset right after blank", got, "already as generated")

	// Files you made the same as the core copy are reset too (the 02
	// trial's delta.go and realfifo.go were left whole, exercise 7 in
	// them, though reset said every exercise was a stub).
	dir := filepath.Join(root, chapter)
	core, err := exgen.GenerateCore(dir)
	must(t, err)
	for name, src := range core {
		must(t, os.WriteFile(filepath.Join(dir, name), src, 0o644))
	}
	must(t, r.Reset("03", 0))
	got = out.take()
	contains(t, "reset of the core copy on the blank track", got, "on the blank track it is on", "Done.")
	r.Check("03", 0)
	got = out.take()
	contains(t, "check after reset", got, "0 of 10 exercises pass")
}

// ticking is a clock that moves on a second at every reading, so every
// backup of a test gets its own name.
func ticking() func() time.Time {
	t := time.Date(2026, 11, 24, 14, 41, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

// TestStartCoreRestore chooses a track the way a learner starts chapter
// 03, without running its tests: start asks which track and takes deep
// without a second question (the copy was untouched); core puts the
// committed copy back byte for byte, imports included; restore lists the
// backups newest first and puts the deep copy back, backing up first.
// TestRestoreTheOneBackup: with --yes and a single backup, restore puts
// that one back instead of listing it (trial P typed restore 02 --yes).
func TestRestoreTheOneBackup(t *testing.T) {
	root := workspace(t)
	c := chapters.Chapter{Name: chapter, Dir: filepath.Join(root, chapter)}
	r, out := newRunner(root)
	r.now = ticking()
	coreCopy := readCopy(t, c)
	r.Yes = true
	must(t, r.Deep("03"))
	out.take()
	if list, err := backupsOf(root, c); err != nil || len(list) != 1 {
		t.Fatalf("deep 03 kept %d backups (%v); want 1", len(list), err)
	}
	must(t, r.Restore("03", ""))
	got := out.take()
	fits(t, "restore 03 --yes", got)
	if strings.Contains(got, "Backups of 03-indexer") || !bytes.Equal(readCopy(t, c), coreCopy) {
		t.Errorf("restore 03 --yes with one backup did not put it back:\n%s", got)
	}
}

func TestStartCoreRestore(t *testing.T) {
	root := workspace(t)
	c := chapters.Chapter{Name: chapter, Dir: filepath.Join(root, chapter)}
	r, out := newRunner(root)
	r.now = ticking()

	r.In = strings.NewReader("deep\n")
	must(t, r.Start("03", ""))
	got := out.take()
	contains(t, "start 03", got, "Choose a track for 03-indexer", "core   6 exercises", "deep   10 exercises",
		"Which track? [core/deep/blank] (Enter: core) deep", "Still stubs in your copy, to write as well: exercises 1, 2, 5, 7, 9 and 10.",
		"Done: 03-indexer is on the deep track", "Next: read docs/03-indexer.md")
	fits(t, "start 03", got)
	if strings.Contains(got, "Take on the deep track?") {
		t.Errorf("start asked twice on an untouched copy:\n%s", got)
	}
	if tr := LoadState(root).Tracks[chapter]; tr != TrackDeep || trackOfFiles(c) != TrackDeep {
		t.Errorf("after start 03 deep: state says %q, files say %q; want deep", tr, trackOfFiles(c))
	}
	deepCopy := readCopy(t, c)

	r.Yes = true
	must(t, r.Core("03"))
	got = out.take()
	contains(t, "core 03", got, "The core track of 03-indexer writes its 4 deep exercises for you.", "Put the core track back? [y/N] y (--yes)", "on the core track")
	fits(t, "core 03", got)
	if stale, err := exgen.Stale(c.Dir); err != nil || len(stale) > 0 {
		t.Errorf("after core 03 the copy is not the committed core copy: %v %v", stale, err)
	}
	must(t, r.Start("03", "core"))
	contains(t, "start 03 core on the core copy", out.take(), "03-indexer is on the core track; your copy needed no change.")

	r.Yes = false
	r.In = strings.NewReader("1\ny\n")
	must(t, r.Restore("", "")) // a bare restore: the chapter backed up last
	got = out.take()
	fits(t, "restore 03", got)
	contains(t, "restore 03", got, "Backups of 03-indexer, newest first:", "1  20261124-144", "before core 03", "2  20261124-144", "before deep 03",
		"Put back which one? [1-2] (Enter: none) 1", "Restore? [y/N] y", "on the deep track")
	if !bytes.Equal(readCopy(t, c), deepCopy) {
		t.Errorf("restore 1 did not put the deep copy back")
	}
	if tr := LoadState(root).Tracks[chapter]; tr != TrackDeep {
		t.Errorf("after restoring the deep copy the state says track %q", tr)
	}
	list, err := backupsOf(root, c)
	must(t, err)
	if len(list) != 3 || list[0].Why != "restore 03 "+list[1].Name {
		t.Errorf("restore kept no backup of what it replaced: %+v", list)
	}
	// With no one to answer (a script, an agent), the command it names
	// carries --yes: without it, that command would be answered no.
	r.In = strings.NewReader("")
	must(t, r.Restore("03", ""))
	if got := out.take(); !strings.Contains(got, "restore 03 "+list[0].Name+" --yes") {
		t.Errorf("restore 03 with no answer does not name the command with --yes:\n%s", got)
	}
	if err := r.Restore("03", "no-such-backup"); err == nil || !strings.Contains(err.Error(), "restore 03") {
		t.Errorf("restore of a backup that is not there: %v", err)
	}
}

// readCopy is every file of a chapter's exercise/, in one piece.
func readCopy(t *testing.T, c chapters.Chapter) []byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(c.Dir, exgen.ExerciseDir, "*.go"))
	must(t, err)
	var all []byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		must(t, err)
		all = append(append(all, p...), data...)
	}
	return all
}

// TestFirstCheckOffTerminal: the first check of a chapter never started,
// with nobody at a terminal, says how to choose, goes on with core, and
// says it once.
func TestFirstCheckOffTerminal(t *testing.T) {
	root := workspace(t)
	c := chapters.Chapter{Name: chapter, Dir: filepath.Join(root, chapter)}
	r, out := newRunner(root)
	must(t, r.chooseFirst(c))
	got := out.take()
	contains(t, "first check off a terminal", got, "You have not chosen a track for 03-indexer", "start 03 core|deep|blank")
	fits(t, "first check", got)
	must(t, r.chooseFirst(c))
	if again := out.take(); again != "" {
		t.Errorf("the track note shows again:\n%s", again)
	}
}

// TestDeepWarnsAboutYourWork: on blank work where exercise 3 (deep) is
// done and passed, deep says it stubs code you wrote, before asking.
func TestDeepWarnsAboutYourWork(t *testing.T) {
	root := onlyExercise3Written(t)
	s := LoadState(root)
	s.Tracks[chapter], s.Passed[chapter] = TrackBlank, []int{3}
	must(t, s.Save(root))

	r, out := newRunner(root)
	r.In = strings.NewReader("n\n")
	must(t, r.Deep("03"))
	got := out.take()
	contains(t, "deep 03 on your blank work", got, "Careful: exercise 3 holds code you wrote, and it passed when you last checked.",
		"`deep 03` stubs it again", "Take on the deep track? [y/N] n", "Nothing changed.")
	fits(t, "deep warning", got)
	if strings.Index(got, "Careful") > strings.Index(got, "Take on the deep track?") {
		t.Errorf("the warning comes after the question:\n%s", got)
	}
}

// TestDeepForgetsWhatPassed: the deep exercises passed on the core track,
// where they were the reference's code; once deep stubs them, they are no
// longer known to pass, and the core ones still are.
func TestDeepForgetsWhatPassed(t *testing.T) {
	root := workspace(t)
	c := chapters.Chapter{Name: chapter, Dir: filepath.Join(root, chapter)}
	list, err := exgen.Exercises(c.Dir)
	must(t, err)
	s := LoadState(root)
	s.Passed[chapter] = exerciseIDs(list)
	must(t, s.Save(root))

	r, _ := newRunner(root)
	r.Yes = true
	must(t, r.Deep("03"))
	var core []int
	for _, e := range list {
		if e.Track != exgen.TrackDeep {
			core = append(core, e.ID)
		}
	}
	if got := LoadState(root).Passed[chapter]; !slices.Equal(got, core) {
		t.Errorf("known to pass after deep 03: %v, want the core exercises %v", got, core)
	}
}

// TestNoAnswerNamesYes: off a terminal, with no answer to give (the
// input closed), deep changes nothing and says how to answer yes.
func TestNoAnswerNamesYes(t *testing.T) {
	root := workspace(t)
	r, out := newRunner(root)
	r.In = strings.NewReader("")
	must(t, r.Deep("03"))
	got := out.take()
	contains(t, "deep 03 with no answer", got, "Nothing changed: no answer came", "deep 03 --yes")
	fits(t, "no answer", got)
}

// TestCoreWarnsOnlyAboutCodeItChanges: on the deep track, a deep
// exercise you wrote exactly as the reference is yours, but core changes
// none of it: no warning names it, and no file of it is backed up.
func TestCoreWarnsOnlyAboutCodeItChanges(t *testing.T) {
	root := onlyExercise3Written(t)
	s := LoadState(root)
	s.Tracks[chapter] = TrackDeep
	must(t, s.Save(root))

	r, out := newRunner(root)
	r.In = strings.NewReader("n\n")
	must(t, r.Core("03"))
	got := out.take()
	if strings.Contains(got, "exercise 3 holds") || strings.Contains(got, "exercises 3") {
		t.Errorf("core warns about exercise 3, which it leaves as it is:\n%s", got)
	}
}

// TestTrackFollowsRegeneration: after `make exercises FORCE=1` writes the
// committed copy, the chapter is on the core track whatever the state
// file remembered.
func TestTrackFollowsRegeneration(t *testing.T) {
	root := workspace(t)
	c := chapters.Chapter{Name: chapter, Dir: filepath.Join(root, chapter)}
	r, _ := newRunner(root)
	r.Yes = true
	must(t, r.Deep("03"))
	list, err := exgen.Exercises(c.Dir)
	must(t, err)
	if !r.onDeepTrack(c, list, nil) {
		t.Fatal("not on the deep track after deep 03")
	}
	must(t, exgen.Write(c.Dir)) // what make exercises FORCE=1 writes
	if r.onDeepTrack(c, list, nil) {
		t.Error("still on the deep track after the copy was regenerated")
	}
}

// TestFirstCheckAsks: the first check of a chapter never started, at a
// terminal, asks for the track and checks the one chosen.
func TestFirstCheckAsks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on chapter 03")
	}
	root := workspace(t)
	r, out := newRunner(root)
	r.Terminal = true
	r.In = strings.NewReader("blank\n")
	r.Check("03", 0)
	got := out.take()
	contains(t, "first check at a terminal", got, "Which track? [core/deep/blank] (Enter: core) blank",
		"Done: 03-indexer is on the blank track", "0 of 10 exercises pass")
	fits(t, "first check", got)
	if strings.Contains(got, "Blank it?") || strings.Contains(got, "Next: read docs") {
		t.Errorf("the first check asked twice, or gave a next step before checking:\n%s", got)
	}
}

// After check NN N passes, the next step names the next exercise in order
// not known to pass at the last full check (check NN N's results for the
// others are partial: a later stub may be reached before an earlier
// exercise is checked), and else the first one before it.
func TestNextInOrderAfterOneExercise(t *testing.T) {
	x := &result{res: &progress.Chapter{Only: 7, Exercises: []progress.Exercise{
		{Exercise: exgen.Exercise{ID: 1}, Status: progress.Unchecked},
		{Exercise: exgen.Exercise{ID: 5}, Status: progress.Pass},
		{Exercise: exgen.Exercise{ID: 7}, Status: progress.Pass},
		{Exercise: exgen.Exercise{ID: 9}, Status: progress.Unchecked},
		{Exercise: exgen.Exercise{ID: 11}, Status: progress.NotStarted},
	}}}
	if n, ok := x.nextInOrder(7, nil); !ok || n.ID != 9 {
		t.Errorf("after 7: got %d (%t), want 9", n.ID, ok)
	}
	if n, ok := x.nextInOrder(11, nil); !ok || n.ID != 1 {
		t.Errorf("after 11: got %d (%t), want 1", n.ID, ok)
	}
	if n, ok := x.nextInOrder(7, []int{9}); !ok || n.ID != 11 {
		t.Errorf("after 7, 9 known to pass: got %d (%t), want 11", n.ID, ok)
	}
	if n, ok := x.nextInOrder(7, []int{1, 9}); !ok || n.ID != 11 {
		t.Errorf("after 7, 1 and 9 known to pass: got %d (%t), want 11", n.ID, ok)
	}
	// 5 "passes" only in that none of 7's checks ran into it: not known
	// to pass, it is still to do (the 05 trial was sent on to 9 while 7
	// was open).
	if n, ok := x.nextInOrder(7, []int{1, 9, 11}); !ok || n.ID != 5 {
		t.Errorf("after 7, 1, 9 and 11 known to pass: got %d (%t), want 5", n.ID, ok)
	}
	if n, ok := x.nextInOrder(7, []int{1, 5, 9, 11}); ok {
		t.Errorf("after 7, 1, 5, 9 and 11 known to pass: got %d, want none", n.ID)
	}
}

// onlyExercise3Written is a workspace whose copy of the chapter has every
// exercise stubbed but 3 (deep), which holds the reference's code.
func onlyExercise3Written(t *testing.T) string {
	t.Helper()
	root := workspace(t)
	dir := filepath.Join(root, chapter)
	files, err := exgen.Generate(dir, func(id int) bool { return id != 3 })
	must(t, err)
	for name, src := range files {
		must(t, os.WriteFile(filepath.Join(dir, name), src, 0o644))
	}
	return root
}

// check NN N that passes still says what its checks found in the code of
// other exercises (the 01 trial learned of two failures a check later),
// and an exercise's location names every file it spans (exercise 1 of
// 01 has four of its five functions outside its first file).
func TestPassSaysWhatElseFailed(t *testing.T) {
	var out strings.Builder
	r := &Runner{Root: t.TempDir(), Out: &out}
	c := chapters.Chapter{Name: "01-listwatch", Dir: "01-listwatch"}
	x := &result{c: c, res: &progress.Chapter{Only: 6, Exercises: []progress.Exercise{
		{Exercise: exgen.Exercise{ID: 2}, Status: progress.Fail, Report: "TestFrameDecoderOnBadInput failed"},
		{Exercise: exgen.Exercise{ID: 6}, Status: progress.Pass},
		{Exercise: exgen.Exercise{ID: 14}, Status: progress.Fail, Report: "TestX failed"},
	}}}
	r.explain(x, x.res.Exercises[1])
	got := strings.Join(strings.Fields(out.String()), " ")
	contains(t, "check 01 6", got, "Exercise 6 passes", "Its checks also failed in your code of exercises 2 and 14; to see why:", "check 01 2")
	if f := exerciseFile(c, exgen.Exercise{File: "frames.go", Files: []string{"frames.go", "objects.go"}}); f != "01-listwatch/exercise/frames.go, objects.go" {
		t.Errorf("exercise 1's files: %q", f)
	}
}

// TestDeepAgainBringsYourDeepWorkBack: deep, your own code of exercise 3,
// core (which puts the reference's in its place), then deep again: your
// code comes back from core's backup, not the stubs (trial H had to find
// it among the backups by hand); the deep exercises you never wrote are
// stubs.
func TestDeepAgainBringsYourDeepWorkBack(t *testing.T) {
	c, r, out, _ := deepWithMyStore(t)
	store := filepath.Join(exgen.ExerciseDir, "store.go")
	must(t, r.Core("03"))
	out.take()
	must(t, r.Deep("03"))
	got := out.take()
	contains(t, "deep 03 after core", got, "Your own code of exercise 3, kept when you went to the core track", "20261124-144102), goes back in")
	fits(t, "deep 03 after core", got)
	now, err := os.ReadFile(filepath.Join(c.Dir, store))
	must(t, err)
	if !strings.Contains(string(now), "prev := s.items[key] // mine") {
		t.Errorf("deep 03 after core did not bring your code of exercise 3 back:\n%s", now)
	}
	stubs, err := exgen.Generate(c.Dir, exgen.StubAll)
	must(t, err)
	if left := stillStubs(c, stubs, []int{4, 6, 8}); len(left) != 3 {
		t.Errorf("deep 03 after core: of the deep exercises you never wrote, only %v are stubs", left)
	}
}

// TestDeepAgainBringsBackAnExerciseCoreHalfLeftAlone: exercise 3 is in
// store.go and indexer.go; your indexer.go part is the reference's to the
// byte, so core changed store.go alone and kept no copy of indexer.go.
// deep brings exercise 3 back all the same (trial K's exercise 4 became
// stubs).
func TestDeepAgainBringsBackAnExerciseCoreHalfLeftAlone(t *testing.T) {
	c, r, out, done := deepWithMyStore(t)
	store, indexer := filepath.Join(exgen.ExerciseDir, "store.go"), filepath.Join(exgen.ExerciseDir, "indexer.go")
	must(t, os.WriteFile(filepath.Join(c.Dir, indexer), done[indexer], 0o644))
	must(t, r.Core("03"))
	out.take()
	must(t, r.Deep("03"))
	contains(t, "deep 03 after core", out.take(), "Your own code of exercise 3, kept when you went to the core track")
	for name, want := range map[string]string{store: "prev := s.items[key] // mine", indexer: ""} {
		now, err := os.ReadFile(filepath.Join(c.Dir, name))
		must(t, err)
		if want != "" && !strings.Contains(string(now), want) || name == indexer && string(now) != string(done[indexer]) {
			t.Errorf("deep 03 after core did not bring your %s of exercise 3 back:\n%s", name, now)
		}
	}
}

// deepWithMyStore takes chapter 03 on the deep track and writes your own
// code of exercise 3 in store.go: the reference's, with a line of yours
// ("prev := s.items[key] // mine"). done is the generated copy with
// exercise 3 written (the reference's) and the others stubs.
func deepWithMyStore(t *testing.T) (chapters.Chapter, *Runner, *syncBuffer, map[string][]byte) {
	t.Helper()
	root := workspace(t)
	c := chapters.Chapter{Name: chapter, Dir: filepath.Join(root, chapter)}
	r, out := newRunner(root)
	r.now, r.Yes = ticking(), true
	must(t, r.Deep("03"))
	done, err := exgen.Generate(c.Dir, func(id int) bool { return id != 3 })
	must(t, err)
	store := filepath.Join(exgen.ExerciseDir, "store.go")
	mine := strings.Replace(string(done[store]), "\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\told := s.items[key]",
		"\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\tprev := s.items[key] // mine\n\told := prev", 1)
	if mine == string(done[store]) {
		t.Fatal("store.go: the text to change is not there")
	}
	must(t, os.WriteFile(filepath.Join(c.Dir, store), []byte(mine), 0o644))
	return c, r, out, done
}

// TestHoursFor: a track's time reads as a person plans it.
func TestHoursFor(t *testing.T) {
	for _, c := range []struct {
		lo, hi int
		want   string
	}{{20, 40, "20 to 40 minutes"}, {200, 400, "3.5 to 6.5 hours"}, {120, 240, "2 to 4 hours"}} {
		if got := hoursFor(c.lo, c.hi); got != c.want {
			t.Errorf("hoursFor(%d, %d) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}
