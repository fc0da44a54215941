package progress

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/gotest"
)

// A whole check of a chapter (every test, not check NN N) keeps its result
// in .cache/results/, with the sum of everything it was judged on: the
// chapter (your exercise copy included), the chapters it builds on, the
// workshop's harness and docs, the toolchain, the build flags, the overlay
// (--mine) and the options. A check with Options.Reuse whose sum is
// unchanged returns that result instead of running again: status, which
// checks every chapter, then takes a second or two instead of a minute for
// the chapters you did not touch since you last checked them. check itself
// always runs: it is how you ask for a new verdict.

// keptResult is a result as .cache/results/ keeps it.
type keptResult struct {
	Key    string
	Result *Chapter
}

// resultKey sums up what a whole check of c with opts and flags is judged
// on; "" when it cannot tell (the result is then neither kept nor reused).
func resultKey(c chapters.Chapter, opts Options, flags []string, notYours string, exercises []exgen.Exercise) string {
	if opts.Only > 0 || opts.Focus != "" || opts.FailFast {
		return ""
	}
	h := sha256.New()
	root := gotest.SumSettings(h, c.Dir, opts.Files, flags)
	if root == "" {
		return ""
	}
	fmt.Fprintf(h, "impl %q race %t every-suspect %t skip %q off-track", opts.Impl, opts.Race, opts.EverySuspect, notYours)
	for _, ex := range exercises {
		if opts.OffTrack != nil && opts.OffTrack(ex.ID) {
			fmt.Fprintf(h, " %d", ex.ID)
		}
	}
	deps, err := chapters.Deps(root, c)
	if err != nil {
		return ""
	}
	trees := []string{c.Dir, filepath.Join(root, "workshop"), filepath.Join(root, "docs")}
	for _, d := range deps {
		trees = append(trees, d.Dir)
	}
	for _, name := range []string{"go.work", "go.work.sum"} {
		if text, err := os.ReadFile(filepath.Join(root, name)); err == nil {
			fmt.Fprintf(h, "\nfile %s\n%s", name, text)
		}
	}
	// An earlier chapter's exercise copy is read only through the overlay
	// (--mine), summed above.
	notRead := func(dir string) bool {
		return filepath.Base(dir) == exgen.ExerciseDir && filepath.Dir(dir) != c.Dir
	}
	for _, tree := range trees {
		if err := gotest.SumTree(h, tree, notRead); err != nil && !os.IsNotExist(err) {
			return ""
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// keptResultFile is where the last whole check of c is kept; a check on
// your earlier chapters (--mine) has a place of its own.
func keptResultFile(c chapters.Chapter, opts Options) string {
	name := c.Name
	if len(overlaidChapters(opts.Files)) > 0 {
		name += "-mine"
	}
	if opts.Impl != "" {
		name += "-" + opts.Impl
	}
	return filepath.Join(filepath.Dir(c.Dir), ".cache", "results", name+".json")
}

// reuse returns the kept result of a check with key, or nil.
func reuse(path, key string) *Chapter {
	if key == "" {
		return nil
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var kept keptResult
	if json.Unmarshal(text, &kept) != nil || kept.Key != key || kept.Result == nil {
		return nil
	}
	kept.Result.Reused = true
	return kept.Result
}

// keep writes res down as the result of a check with key. Keeping is a
// convenience: a failure to write is not worth stopping the check for.
func keep(path, key string, res *Chapter) {
	if key == "" {
		return
	}
	text, err := json.Marshal(keptResult{Key: key, Result: res})
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	// Written aside, then renamed: two checks at once never leave half a
	// file.
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return
	}
	_, err = tmp.Write(text)
	if tmp.Close() != nil || err != nil || os.Rename(tmp.Name(), path) != nil {
		_ = os.Remove(tmp.Name())
	}
}
