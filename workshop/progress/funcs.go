package progress

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
)

// funcDecls parses src and returns its functions that have a body, with
// the file set their positions are in; none when src is nil or does not
// parse. The analyses of this package (keepers, releasers, wakers, the
// lock takers, the literals) all read functions one at a time.
func funcDecls(src []byte) (*token.FileSet, []*ast.FuncDecl) {
	if src == nil {
		return nil, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil
	}
	var out []*ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			out = append(out, fd)
		}
	}
	return fset, out
}

// eachReferenceFile calls fn with each Go file of the reference (the
// generated copy with every exercise done), tests left out.
func (k *code) eachReferenceFile(fn func(src []byte)) {
	for name, src := range k.done {
		if filepath.Ext(name) == ".go" && !strings.HasSuffix(name, "_test.go") {
			fn(src)
		}
	}
}

// callAt is what pick says of the first call on line of src that it says
// something of (the lock a Lock takes, the condition a Wait waits on), or
// "".
func callAt(src []byte, line int, pick func(c *ast.CallExpr) string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	found := ""
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && found == "" && fset.Position(c.Pos()).Line == line {
			found = pick(c)
		}
		return found == ""
	})
	return found
}
