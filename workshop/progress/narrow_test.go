package progress

import (
	"strings"
	"testing"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

// TestABlameIsNarrowedToAFunction: a finished 02 copy with queueActionLocked
// no longer waking the Pops, and two other functions of the same exercise
// written differently from the reference (as a learner's are), is put on
// exercise 1 and, by swapping bodies, on queueActionLocked (trial H: the
// twelve functions of 02's first deep exercise, and no Function: line).
func TestABlameIsNarrowedToAFunction(t *testing.T) {
	c, files := finishedCopy(t, "02")
	edit := func(find, replace string) {
		t.Helper()
		name := exgen.ExerciseDir + "/deltafifo.go"
		src := string(files[name])
		if strings.Count(src, find) != 1 {
			t.Fatalf("deltafifo.go: %q occurs %d times", find, strings.Count(src, find))
		}
		files[name] = []byte(strings.Replace(src, find, replace, 1))
	}
	edit("\tf.cond.Broadcast()\n\treturn nil\n", "\treturn nil\n") // the bug
	edit("\tf.sync.markPopulated()\n\treturn f.queueActionLocked(Added, obj)", "\tf.sync.markPopulated()\n\terr := f.queueActionLocked(Added, obj)\n\treturn err")
	edit("\tf.sync.markPopulated()\n\treturn f.queueActionLocked(Updated, obj)", "\tf.sync.markPopulated()\n\terr := f.queueActionLocked(Updated, obj)\n\treturn err")
	res, err := CheckWith(c, Options{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Exercises {
		if e.ID != 1 {
			continue
		}
		if e.Status != Fail || e.Func != "DeltaFIFO.queueActionLocked" || e.FuncProof != FuncBySwap {
			t.Errorf("exercise 1: %v, function %q (%v), want failing on DeltaFIFO.queueActionLocked found by swap", e.Status, e.Func, e.FuncProof)
		}
		return
	}
	t.Fatal("no exercise 1 in the result")
}

// TestTheExerciseAskedAboutIsSwappedFirst: check 03 6 on a finished copy
// whose IndexKeys no longer sorts is put on exercise 6 with one swap of
// exercises, not a halving of its five suspects (trial J's check 03 6
// took as long as check 03), and on IndexKeys.
func TestTheExerciseAskedAboutIsSwappedFirst(t *testing.T) {
	c, files := finishedCopy(t, "03")
	name := exgen.ExerciseDir + "/store.go"
	src := string(files[name])
	find := "\tslices.Sort(list)\n"
	if strings.Count(src, find) != 1 {
		t.Fatalf("store.go: %q occurs %d times", find, strings.Count(src, find))
	}
	files[name] = []byte(strings.Replace(src, find, "", 1))
	var swaps []string
	res, err := CheckWith(c, Options{Files: files, Only: 6, EverySuspect: true, Say: func(what string) {
		if strings.Contains(what, "finding whose code diverged:") {
			swaps = append(swaps, what)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Exercises {
		if e.ID == 6 && (e.Status != Fail || e.Func != "ThreadSafeStore.IndexKeys") {
			t.Errorf("exercise 6: %v, function %q, want failing on ThreadSafeStore.IndexKeys", e.Status, e.Func)
		}
	}
	// A check whose frames name another exercise has that one tried first;
	// then 6 alone, never halved with others.
	alone := false
	for _, s := range swaps {
		alone = alone || strings.HasSuffix(s, "the reference's exercise 6")
		if strings.Contains(s, " 6,") || strings.Contains(s, ", 6") {
			t.Errorf("exercise 6 was swapped with others: %q (all: %q)", s, swaps)
		}
	}
	if !alone {
		t.Errorf("exercise 6 was never swapped alone: %q", swaps)
	}
}

// finishedCopy is chapter number's exercise copy with every exercise
// done (the reference's code), to plant a bug in; it skips under -short,
// as a check of it builds the chapter's tests several times.
func finishedCopy(t *testing.T, number string) (chapters.Chapter, map[string][]byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds chapter " + number + "'s tests several times")
	}
	root, err := chapters.Root()
	if err != nil {
		t.Fatal(err)
	}
	list, err := chapters.Find(root, number)
	if err != nil {
		t.Fatal(err)
	}
	files, err := exgen.Generate(list[0].Dir, func(int) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	return list[0], files
}

// TestAFunctionThatMovesTheDivergenceIsNamed: a finished 06 copy whose
// newDeployment leaves the rollout label out, and whose deploymentChanges
// writes its image change with another arrow, is put on newDeployment:
// with the reference's body of it, every check gets past the step where
// it diverged, though one still fails later, on deploymentChanges (trial
// L2's first failure of exercise 4 was left on the exercise as a whole).
func TestAFunctionThatMovesTheDivergenceIsNamed(t *testing.T) {
	c, files := finishedCopy(t, "06")
	name := exgen.ExerciseDir + "/sync.go"
	src := string(files[name])
	for find, replace := range map[string]string{
		`labels := map[string]string{"app": rollout.Spec.DeploymentName, "rollout": rollout.Name}`: `labels := map[string]string{"app": rollout.Spec.DeploymentName}`,
		`"image %s→%s"`: `"image %s -> %s"`,
	} {
		if strings.Count(src, find) != 1 {
			t.Fatalf("sync.go: %q occurs %d times", find, strings.Count(src, find))
		}
		src = strings.Replace(src, find, replace, 1)
	}
	files[name] = []byte(src)
	res, err := CheckWith(c, Options{Files: files, Only: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Exercises {
		if e.ID == 4 {
			t.Logf("exercise 4: %v, function %q (%v)\n%s", e.Status, e.Func, e.FuncProof, e.Report)
			if e.Status != Fail || e.Func != "newDeployment" || e.FuncProof == FuncBySwap && strings.Contains(e.Report, "sync.txt") {
				t.Errorf("exercise 4: %v, function %q (%v), want failing on newDeployment", e.Status, e.Func, e.FuncProof)
			}
			return
		}
	}
	t.Fatal("no exercise 4 in the result")
}

// TestStepOf reads the step a scenario check diverged at, the earliest
// of several runs, and none from a plain test's output.
func TestStepOf(t *testing.T) {
	for report, want := range map[string]int{
		"sync.txt:36: step 7 diverged (implementation: your copy)":                 7,
		"x.txt:9: step 12 diverged (…)\n…\nx.txt:4: step 3 diverged (…)\n":         3,
		"    stress_test.go:68: a second after both caches synced, 3 of 2 workers": 0,
	} {
		if got := stepOf(report); got != want {
			t.Errorf("stepOf(%q) = %d, want %d", report, got, want)
		}
	}
}
