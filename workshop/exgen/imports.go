package exgen

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
)

// fixImports makes a stubbed file compile: it drops the imports only the
// removed regions used, and adds the todo package the stubs panic with.
// (goimports would do this, but the workshop needs only Go itself.)
func fixImports(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil, err
	}
	full, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, id := range full.Unresolved {
		used[id.Name] = true
	}

	// Cut unused import lines, last first so earlier offsets stay valid.
	lines := bytes.SplitAfter(src, []byte("\n"))
	drop := map[int]bool{}
	for _, spec := range file.Imports {
		if name := importName(spec); name == "_" || name == "." || used[name] {
			continue
		}
		for l := fset.Position(spec.Pos()).Line; l <= fset.Position(spec.End()).Line; l++ {
			drop[l-1] = true
		}
	}
	var b bytes.Buffer
	added := false
	for i, line := range lines {
		if drop[i] {
			continue
		}
		if !added && bytes.Equal(bytes.TrimSpace(line), []byte(")")) && inImportBlock(lines, i) {
			b.WriteString("\n\t" + strconv.Quote(TodoImport) + "\n")
			added = true
		}
		b.Write(line)
		if !added && bytes.HasPrefix(line, []byte("package ")) && !hasImportBlock(file) {
			b.WriteString("\nimport " + strconv.Quote(TodoImport) + "\n")
			added = true
		}
	}
	return b.Bytes(), nil
}

// importName is the name a file uses for an import: its alias, or the last
// path element (k8s.io/api/core/v1 is "v1"). Reference code aliases any
// import whose package name differs from its last element.
func importName(spec *ast.ImportSpec) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	p, _ := strconv.Unquote(spec.Path.Value)
	return path.Base(p)
}

func hasImportBlock(file *ast.File) bool {
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && g.Lparen.IsValid() {
			return true
		}
	}
	return false
}

// inImportBlock reports whether line i closes the file's import ( ... ) block.
func inImportBlock(lines [][]byte, i int) bool {
	for j := i - 1; j >= 0; j-- {
		t := bytes.TrimSpace(lines[j])
		if bytes.Equal(t, []byte("import (")) {
			return true
		}
		if bytes.Equal(t, []byte(")")) || bytes.HasPrefix(t, []byte("func ")) || bytes.HasPrefix(t, []byte("type ")) {
			return false
		}
	}
	return false
}
