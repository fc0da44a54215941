package exgen

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"
)

// FixImports makes a file with stubs compile: it drops the imports the
// file no longer uses and adds the todo package when a stub panics with
// it. The generator runs it on the exercise copy, and the runner's reset
// on a learner's file. (goimports would do this, but the workshop needs
// only Go itself.)
func FixImports(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, id := range file.Unresolved {
		used[id.Name] = true
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	drop := map[int]bool{}
	haveTodo := false
	for _, spec := range file.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		name := importName(p)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if p == TodoImport {
			haveTodo = true
		}
		if name == "_" || name == "." || used[name] {
			continue
		}
		if p == TodoImport {
			haveTodo = false
		}
		for l := fset.Position(spec.Pos()).Line; l <= fset.Position(spec.End()).Line; l++ {
			drop[l-1] = true
		}
	}
	needTodo := used["todo"] && !haveTodo
	closeLine, pkgLine := -1, fset.Position(file.Name.Pos()).Line-1
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && g.Rparen.IsValid() && closeLine < 0 {
			closeLine = fset.Position(g.Rparen).Line - 1
		}
	}
	var b bytes.Buffer
	for i, line := range lines {
		if needTodo && i == closeLine {
			b.WriteString("\n\t" + strconv.Quote(TodoImport) + "\n")
		}
		if !drop[i] {
			b.Write(line)
		} else if i == closeLine {
			b.Write(line) // never drop the closing paren itself
		}
		if needTodo && closeLine < 0 && i == pkgLine {
			b.WriteString("\nimport " + strconv.Quote(TodoImport) + "\n")
		}
	}
	return b.Bytes(), nil
}

// importName is the name a package imported without a name goes by: the
// last element of its path, skipping a major-version suffix, so
// "math/rand/v2" is rand. (A package whose name differs from its
// directory otherwise needs a named import to be recognised.)
func importName(p string) string {
	name := path.Base(p)
	if dir := path.Dir(p); dir != "." && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		return path.Base(dir)
	}
	return name
}
