package runner

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"example.com/walkthrough/workshop/exgen"
)

// ResetFunc puts one function outside the exercises (code your copy
// gives you) back as generated. It asks first, unless r.Yes, and keeps a
// backup of the file. It is the next step the runner gives when checks
// fail on your change to such a function (outside.go); an exercise's
// functions go back with reset CH EX.
func (r *Runner) ResetFunc(chapter, fn string) error {
	c, err := r.chapter(chapter)
	if err != nil {
		return err
	}
	gen, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return err
	}
	exercises, err := exgen.Exercises(c.Dir)
	if err != nil {
		return err
	}
	for _, e := range exercises {
		parts, err := exgen.ExerciseParts(gen, e.ID)
		if err != nil {
			return err
		}
		for _, keys := range parts {
			if slices.Contains(keys, fn) {
				return fmt.Errorf("%s is part of exercise %d of %s: put it back with reset %s %d", fn, e.ID, c.Name, c.Number(), e.ID)
			}
		}
	}
	var name string // the exercise file that declares fn
	for _, n := range slices.Sorted(maps.Keys(gen)) {
		if declares(gen[n], fn) {
			name = n
			break
		}
	}
	if name == "" {
		return fmt.Errorf("%s declares no function %s outside its exercises (a method is named Type.Method, as in DeltaFIFO.Close)", c.Name, fn)
	}
	path := filepath.Join(c.Dir, name)
	mine, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !declares(mine, fn) {
		return fmt.Errorf("%s/%s has no function %s any more: compare the file with the reference's, %s/%s", c.Name, filepath.ToSlash(name), fn, c.Name, filepath.Base(name))
	}
	if len(exgen.Changed(mine, gen[name], []string{fn})) == 0 {
		r.next(fmt.Sprintf("There is nothing to reset: %s in %s/%s is already as generated. Next: check it:", fn, c.Name, filepath.ToSlash(name)), r.cmd("check", c.Number()))
		return nil
	}
	out, err := exgen.SpliceBodies(mine, gen[name], []string{fn})
	if err != nil {
		return err
	}
	why := fmt.Sprintf("reset %s %s", c.Number(), fn)
	r.say("", fmt.Sprintf("This puts %s back as generated, in %s/%s; the rest of the file stays yours, and a backup is kept.", fn, c.Name, filepath.ToSlash(name)))
	if !r.confirm("Reset it? [y/N] ") {
		r.declined(why)
		return nil
	}
	backup, err := r.backup(c, 0, []string{name}, why)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return err
	}
	r.say("", fmt.Sprintf("Done. Your old file is in %s.", backup))
	r.next("Next: check it again:", r.cmd("check", c.Number()))
	return nil
}

// declares says whether src declares the function named key.
func declares(src []byte, key string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && exgen.FuncKey(fd) == key {
			return true
		}
	}
	return false
}
