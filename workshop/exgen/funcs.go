package exgen

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// Func is one function whose body is a region of an exercise.
type Func struct {
	File string // the reference file, by base name: "store.go"
	Name string // as FuncKey names it: "Name" or "Recv.Name"
}

// Funcs maps each exercise of a chapter to the functions its regions are
// the bodies of, in file name order, then in source order. The regions
// hold every exercise, deep ones too, so the reference is read rather
// than a generated copy (which stubs only the core track).
func Funcs(chapterDir string) (map[int][]Func, error) {
	files, _, err := readPackage(chapterDir)
	if err != nil {
		return nil, err
	}
	out := map[int][]Func{}
	for _, f := range files {
		if len(f.regions) == 0 {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.name, strings.Join(f.lines, "\n"), parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, r := range f.regions {
			fn := enclosingFunc(fset, file, r.begin+1)
			if fn == nil {
				return nil, fmt.Errorf("%s:%d: an exercise region must be a whole function body", f.name, r.begin+1)
			}
			out[r.id] = append(out[r.id], Func{File: f.name, Name: FuncKey(fn)})
		}
	}
	return out, nil
}
