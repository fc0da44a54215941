package runner

import (
	"bytes"
	"go/format"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"
)

// addImports adds to src the imports of from that src uses but lacks.
// Stubbing a function drops the imports only its body used; when core
// puts that body back, its imports must come back too. (exgen.FixImports
// only removes, and the todo import.)
func addImports(src, from []byte) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil, err
	}
	full, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		return nil, err
	}
	unresolved := map[string]bool{}
	for _, id := range full.Unresolved {
		unresolved[id.Name] = true
	}
	have := map[string]bool{}
	for _, spec := range file.Imports {
		have[spec.Path.Value] = true
	}
	donor, err := parser.ParseFile(token.NewFileSet(), "", from, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var add []string
	for _, spec := range donor.Imports {
		name := importedName(spec.Path.Value)
		line := spec.Path.Value
		if spec.Name != nil {
			name, line = spec.Name.Name, spec.Name.Name+" "+spec.Path.Value
		}
		if !have[spec.Path.Value] && unresolved[name] {
			add = append(add, line)
		}
	}
	if len(add) == 0 {
		return src, nil
	}
	block := "import (\n\t" + strings.Join(add, "\n\t") + "\n)\n\n"
	// A new import declaration right after the package clause; gofmt
	// keeps it, and two import declarations compile like one.
	at := fset.Position(file.Name.End()).Offset
	if nl := bytes.IndexByte(src[at:], '\n'); nl >= 0 {
		at += nl + 1
	}
	out := append(append(append([]byte(nil), src[:at]...), "\n"+block...), src[at:]...)
	return format.Source(out)
}

// importedName is the name an import without a name goes by: its last
// path element, skipping a major-version suffix ("math/rand/v2" is rand).
func importedName(quoted string) string {
	p, _ := strconv.Unquote(quoted)
	name := path.Base(p)
	if dir := path.Dir(p); dir != "." && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		return path.Base(dir)
	}
	return name
}
