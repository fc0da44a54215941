package exgen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// An import keeper must know what kind of name it uses: `_ = sort.Strings`
// compiles for a function but not for a type or a generic function. The
// reference's syntax cannot tell (`types.UID(s)` is a conversion that
// reads like a call), so the imported package's own source says: `go list`
// finds its directory, and its top-level declarations are read.

type declKind int

const (
	declValue       declKind = iota + 1 // a constant, a variable or a function
	declType                            // a type
	declGenericFunc                     // a function with type parameters
)

// decl is what a package declares under one name.
type decl struct {
	kind     declKind
	typeArgs string // for a generic type or function: "[int]", "[[]int, int]"
}

// The packages read so far, for the life of the process: the runner and
// selftest generate the same chapters many times.
var pkgDecls struct {
	sync.Mutex
	dirs   map[string]string          // import path → source directory
	byPath map[string]map[string]decl // import path → name → decl
}

// lookupDecl says what the package at path declares under name.
func lookupDecl(chapterDir, path, name string) (decl, error) {
	if err := findDirs(chapterDir, []string{path}); err != nil {
		return decl{}, err
	}
	pkgDecls.Lock()
	defer pkgDecls.Unlock()
	decls, ok := pkgDecls.byPath[path]
	if !ok {
		var err error
		if decls, err = readDecls(pkgDecls.dirs[path]); err != nil {
			return decl{}, err
		}
		pkgDecls.byPath[path] = decls
	}
	d, ok := decls[name]
	if !ok {
		return decl{}, fmt.Errorf("%s declares no %s", path, name)
	}
	return d, nil
}

// findDirs finds the source directories of the packages at paths, with one
// `go list` for those not found before: from the chapter, then from the
// working directory (a chapter copied out of its workspace, as Guarded
// does, cannot resolve its sibling modules).
func findDirs(chapterDir string, paths []string) error {
	pkgDecls.Lock()
	defer pkgDecls.Unlock()
	if pkgDecls.dirs == nil {
		pkgDecls.dirs, pkgDecls.byPath = map[string]string{}, map[string]map[string]decl{}
	}
	var tried []string
	for _, dir := range []string{chapterDir, "."} {
		var missing []string
		for _, p := range paths {
			if _, ok := pkgDecls.dirs[p]; !ok && !slices.Contains(missing, p) {
				missing = append(missing, p)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		cmd := exec.Command("go", append([]string{"list", "-find", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}"}, missing...)...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, _ := cmd.Output()
		for _, line := range strings.Split(string(out), "\n") {
			if p, d, ok := strings.Cut(line, "\t"); ok && d != "" {
				pkgDecls.dirs[p] = d
			}
		}
		tried = append(tried, strings.TrimSpace(stderr.String()))
	}
	for _, p := range paths {
		if _, ok := pkgDecls.dirs[p]; !ok {
			return fmt.Errorf("cannot find the source of %s: %s", p, strings.Join(tried, "; "))
		}
	}
	return nil
}

// readDecls reads the top-level declarations of the package in dir.
func readDecls(dir string) (map[string]decl, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	out := map[string]decl{}
	fset := token.NewFileSet()
	for _, path := range names {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			continue // a file for another platform or a broken one: the rest tell
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil {
					continue
				}
				if d.Type.TypeParams != nil && len(d.Type.TypeParams.List) > 0 {
					out[d.Name.Name] = decl{declGenericFunc, typeArgs(d.Type.TypeParams)}
				} else {
					out[d.Name.Name] = decl{kind: declValue}
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						out[s.Name.Name] = decl{declType, typeArgs(s.TypeParams)}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							out[n.Name] = decl{kind: declValue}
						}
					}
				}
			}
		}
	}
	return out, nil
}

// typeArgs is an instantiation that satisfies the usual constraints: a
// slice for ~[]E, a map for ~map[K]V, int for the rest (any, comparable,
// cmp.Ordered).
func typeArgs(params *ast.FieldList) string {
	if params == nil || len(params.List) == 0 {
		return ""
	}
	var args []string
	for _, field := range params.List {
		arg := "int"
		c := field.Type
		if u, ok := c.(*ast.UnaryExpr); ok && u.Op == token.TILDE {
			c = u.X
		}
		switch c.(type) {
		case *ast.ArrayType:
			arg = "[]int"
		case *ast.MapType:
			arg = "map[int]int"
		}
		for range max(1, len(field.Names)) {
			args = append(args, arg)
		}
	}
	return "[" + strings.Join(args, ", ") + "]"
}
