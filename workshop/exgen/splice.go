package exgen

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// An exercise is a set of whole function bodies. In the generated copy
// each of those bodies is a stub that panics with
// todo.Exercise(chapter, id, hint); the functions are found by that call
// and named by FuncKey, so the same function can be found in your copy
// however you have changed its body.

// FuncKey names a function declaration: "Name" or "Recv.Name".
func FuncKey(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		}
		break
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// StubFuncs returns the keys of the functions in a generated file whose
// body is the stub of exercise id.
func StubFuncs(src []byte, id int) ([]string, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, d := range file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if ok && fn.Body != nil && panicsFor(fn.Body, id) {
			keys = append(keys, FuncKey(fn))
		}
	}
	return keys, nil
}

// panicsFor reports whether body calls todo.Exercise(_, id, _).
func panicsFor(body *ast.BlockStmt, id int) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) < 2 {
			return !found
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Exercise" {
			return !found
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "todo" {
			return !found
		}
		if lit, ok := call.Args[1].(*ast.BasicLit); ok && lit.Kind == token.INT && lit.Value == strconv.Itoa(id) {
			found = true
		}
		return !found
	})
	return found
}

// span is a byte range [start, end) of a source file.
type span struct{ start, end int }

// bodies finds the bodies (braces included) of the functions named by keys.
func bodies(src []byte, keys []string) (map[string]span, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, k := range keys {
		want[k] = true
	}
	out := map[string]span{}
	for _, d := range file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil || !want[FuncKey(fn)] {
			continue
		}
		out[FuncKey(fn)] = span{fset.Position(fn.Body.Lbrace).Offset, fset.Position(fn.Body.Rbrace).Offset + 1}
	}
	return out, nil
}

// ExerciseParts maps each file of your copy that holds part of exercise id
// (a path relative to the chapter, "exercise/keys.go") to the keys of the
// exercise's functions in it, using the generated copy gen.
func ExerciseParts(gen map[string][]byte, id int) (map[string][]string, error) {
	parts := map[string][]string{}
	for name, src := range gen {
		if !strings.HasPrefix(name, ExerciseDir+"/") && !strings.HasPrefix(name, ExerciseDir+"\\") {
			continue
		}
		keys, err := StubFuncs(src, id)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(keys) > 0 {
			parts[name] = keys
		}
	}
	return parts, nil
}

// SpliceBodies returns mine with the bodies of the functions named by keys
// replaced by their bodies in gen, and its imports fixed up: the imports
// only the replaced bodies used are dropped and the todo import is added.
func SpliceBodies(mine, gen []byte, keys []string) ([]byte, error) {
	want, err := bodies(gen, keys)
	if err != nil {
		return nil, fmt.Errorf("the generated copy: %w", err)
	}
	have, err := bodies(mine, keys)
	if err != nil {
		return nil, fmt.Errorf("your copy does not parse, so reset the whole chapter instead: %w", err)
	}
	type cut struct {
		span
		text []byte
	}
	var cuts []cut
	for _, k := range keys {
		h, ok := have[k]
		if !ok {
			return nil, fmt.Errorf("your copy has no func %s any more, so reset the whole chapter instead", k)
		}
		w := want[k]
		cuts = append(cuts, cut{h, gen[w.start:w.end]})
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].start > cuts[j].start })
	out := append([]byte(nil), mine...)
	for _, c := range cuts {
		out = append(out[:c.start:c.start], append(append([]byte(nil), c.text...), out[c.end:]...)...)
	}
	out, err = FixImports(out)
	if err != nil {
		return nil, err
	}
	return format.Source(out)
}

// Untouched reports whether every function of exercise id in your file
// still has the generated stub as its body.
func Untouched(mine, gen []byte, keys []string) bool {
	return len(Changed(mine, gen, keys)) == 0
}

// Changed lists the functions of keys whose bodies in mine differ from
// gen's, compared without regard to spacing. One missing from mine has
// changed; a file that does not parse has changed them all.
func Changed(mine, gen []byte, keys []string) []string {
	want, err := bodies(gen, keys)
	if err != nil {
		return keys
	}
	have, err := bodies(mine, keys)
	if err != nil {
		return keys
	}
	var out []string
	for _, k := range keys {
		h, ok := have[k]
		w := want[k]
		if !ok || strings.Join(strings.Fields(string(mine[h.start:h.end])), " ") != strings.Join(strings.Fields(string(gen[w.start:w.end])), " ") {
			out = append(out, k)
		}
	}
	return out
}

// BodiesSum sums the bodies of the functions named by keys in src,
// spacing aside, in the order of keys: two copies with the same sum hold
// the same code there. A function missing counts as such.
func BodiesSum(src []byte, keys []string) string {
	spans, err := bodies(src, keys)
	h := sha256.New()
	for _, k := range keys {
		sp, ok := spans[k]
		if err != nil || !ok {
			fmt.Fprintf(h, "%s missing\n", k)
			continue
		}
		fmt.Fprintf(h, "%s %s\n", k, strings.Join(strings.Fields(string(src[sp.start:sp.end])), " "))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// ReferenceFuncs returns the source of the functions in a reference file
// that hold exercise id, with the exercise markers taken out: the code the
// stub stands for.
func ReferenceFuncs(src []byte, id int) ([]string, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	begin := fmt.Sprintf("// exercise:begin %d", id)
	var out []string
	for _, d := range file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		start, end := fset.Position(fn.Pos()).Offset, fset.Position(fn.End()).Offset
		text := string(src[start:end])
		holds := false
		for _, line := range strings.Split(text, "\n") {
			if t := strings.TrimSpace(line); t == begin || strings.HasPrefix(t, begin+" ") {
				holds = true
			}
		}
		if holds {
			out = append(out, WithoutMarkers(text))
		}
	}
	return out, nil
}
