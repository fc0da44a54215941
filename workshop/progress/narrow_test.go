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
	if testing.Short() {
		t.Skip("builds chapter 02's tests several times")
	}
	root, err := chapters.Root()
	if err != nil {
		t.Fatal(err)
	}
	list, err := chapters.Find(root, "02")
	if err != nil {
		t.Fatal(err)
	}
	c := list[0]
	files, err := exgen.Generate(c.Dir, func(int) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
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
