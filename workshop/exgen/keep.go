package exgen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// Stubbing never breaks an import: an import that only the code inside
// regions uses would be unused in the stubbed copy, and dropping it would
// leave the learner with `undefined: sort` once they write that code. So
// the copy keeps every import of the reference, and one line per such
// import uses it until the stubs are filled in. The lines depend on the
// reference file alone, never on which exercises are stubbed, so a
// learner's finished file is the generated one minus stubs whatever track
// they are on.

// keepers returns the lines that end an exercise file: the todo keeper,
// and one keeper per import that only region code uses.
func keepers(chapterDir string, f sourceFile) (string, error) {
	uses, err := regionOnlyImports(f)
	if err != nil {
		return "", err
	}
	if len(uses) == 0 {
		return keepTodo, nil
	}
	var b strings.Builder
	b.WriteString("\n// These lines use the todo import and every import the code of the stubs\n")
	b.WriteString("// above needs, so that filling in a stub never needs an import added and\n")
	b.WriteString("// the file compiles once the last stub is gone. Delete them then, if you like.\n")
	b.WriteString("var (\n\t_ = todo.Exercise\n")
	for _, u := range uses {
		line, err := keepLine(chapterDir, u)
		if err != nil {
			return "", fmt.Errorf("%s: %w", f.name, err)
		}
		b.WriteString("\t" + line + "\n")
	}
	b.WriteString(")\n")
	return b.String(), nil
}

// findImportDirs finds, with one `go list`, the packages that the keepers
// of the chapter's files will look into.
func findImportDirs(chapterDir string, files []sourceFile) error {
	var paths []string
	for _, f := range files {
		uses, err := regionOnlyImports(f)
		if err != nil {
			return err
		}
		for _, u := range uses {
			paths = append(paths, u.path)
		}
	}
	return findDirs(chapterDir, paths)
}

// keepTodo ends an exercise file whose imports all stay in use. Without
// it, filling in the last stub of a file would leave the todo import
// unused, and the file would stop compiling until the learner removed the
// import by hand.
const keepTodo = `
// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
`

// importUse is an import that only region code uses: its name in the file,
// its path, and the names it is used for, in the order they appear.
type importUse struct {
	name, path string
	members    []string
}

// regionOnlyImports lists, in import order, the imports of f used inside
// regions and nowhere else.
func regionOnlyImports(f sourceFile) ([]importUse, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, f.name, strings.Join(f.lines, "\n"), 0)
	if err != nil {
		return nil, err
	}
	inRegion := func(pos token.Pos) bool {
		line := fset.Position(pos).Line - 1
		for _, r := range f.regions {
			if r.begin < line && line < r.end {
				return true
			}
		}
		return false
	}
	byName := map[string]*importUse{}
	var order []*importUse
	for _, spec := range file.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		name := importName(p)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name == "_" || name == "." {
			continue
		}
		u := &importUse{name: name, path: p}
		byName[name] = u
		order = append(order, u)
	}
	outside := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || x.Obj != nil || byName[x.Name] == nil {
			return true // not a package name: a local or a field
		}
		if !inRegion(sel.Pos()) {
			outside[x.Name] = true
		} else if u := byName[x.Name]; !slices.Contains(u.members, sel.Sel.Name) {
			u.members = append(u.members, sel.Sel.Name)
		}
		return true
	})
	var out []importUse
	for _, u := range order {
		if len(u.members) > 0 && !outside[u.name] {
			out = append(out, *u)
		}
	}
	return out, nil
}

// keepLine is the keeper of one import: a use of the first member the
// reference uses that can stand alone: a function, variable or constant
// (`_ = sort.Strings`), else a type (`_ metav1.ListMeta`), else a generic
// function, instantiated (`_ = slices.Sorted[int]`).
func keepLine(chapterDir string, u importUse) (string, error) {
	var typ, generic string
	for _, m := range u.members {
		d, err := lookupDecl(chapterDir, u.path, m)
		if err != nil {
			return "", err
		}
		switch {
		case d.kind == declValue:
			return fmt.Sprintf("_ = %s.%s", u.name, m), nil
		case d.kind == declType && typ == "":
			typ = fmt.Sprintf("_ %s.%s%s", u.name, m, d.typeArgs)
		case d.kind == declGenericFunc && generic == "":
			generic = fmt.Sprintf("_ = %s.%s%s", u.name, m, d.typeArgs)
		}
	}
	switch {
	case typ != "":
		return typ, nil
	case generic != "":
		return generic, nil
	}
	return "", fmt.Errorf("found none of %s.%s in %s", u.name, strings.Join(u.members, ", "), u.path)
}
