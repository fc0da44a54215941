package progress

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// A lock is named in your code by the expression that takes it: "p.mu",
// "p.tracker.mu", "t.mu". Two frames name the same lock when the
// expressions lead, from the functions' receivers, through the package's
// struct fields, to the same field of the same type: "p.tracker.mu" in a
// processorListener method and "t.mu" in a syncTracker one are both
// syncTracker.mu. Comparing the names without their receivers ("mu")
// made the processor's own lock the tracker's (trial G: "Taken twice:
// sharedProcessor.distribute holds the lock it then waits for", on a
// deliver that held the tracker's lock across a handler that took it).

// sameLock reports whether lock a, taken or held at frame fa, is lock b at
// fb. When either cannot be followed to a type (a local variable, a field
// of another package), the names without their receivers decide.
func (k *code) sameLock(fa frame, a string, fb frame, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ia, ib := k.lockIdentity(fa, a), k.lockIdentity(fb, b)
	if ia != "" && ib != "" {
		return ia == ib
	}
	return fields(a) == fields(b)
}

// lockIdentity is "type.field" for a lock expression of a method that
// starts at its receiver ("p.tracker.mu" → "syncTracker.mu"), or "".
func (k *code) lockIdentity(f frame, lock string) string {
	recv := receiverOf(f.fn)
	if recv == "" {
		return ""
	}
	fieldTypes, receivers := k.packageTypes()
	parts := strings.Split(lock, ".")
	if len(parts) < 2 || parts[0] != receivers[funcKey(f.fn, k.pkg)] {
		return ""
	}
	t := recv
	for _, field := range parts[1 : len(parts)-1] {
		next, ok := fieldTypes[t][field]
		if !ok {
			return ""
		}
		t = next
	}
	return t + "." + parts[len(parts)-1]
}

// packageTypes reads, once per check, the package's struct types with
// their fields' types (those that are named types of the package, an
// embedded one under its type's name) and the receiver name of each
// method, by funcKey ("processorListener.deliver" → "p"). Both are given
// code, the same in your copy and the reference's, so the reference's
// files are read.
func (k *code) packageTypes() (fields map[string]map[string]string, receivers map[string]string) {
	k.typesOnce.Do(func() {
		k.fieldTypes, k.receivers = map[string]map[string]string{}, map[string]string{}
		k.eachReferenceFile(func(src []byte) {
			f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
			if err != nil {
				return
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch d := n.(type) {
				case *ast.FuncDecl:
					if d.Recv != nil && len(d.Recv.List) > 0 && len(d.Recv.List[0].Names) > 0 {
						k.receivers[typeName(d.Recv.List[0].Type)+"."+d.Name.Name] = d.Recv.List[0].Names[0].Name
					}
					return false
				case *ast.TypeSpec:
					st, ok := d.Type.(*ast.StructType)
					if !ok {
						return true
					}
					m := map[string]string{}
					for _, field := range st.Fields.List {
						t := typeName(field.Type)
						if t == "" {
							continue
						}
						if len(field.Names) == 0 {
							m[t] = t
						}
						for _, name := range field.Names {
							m[name.Name] = t
						}
					}
					k.fieldTypes[d.Name.Name] = m
				}
				return true
			})
		})
	})
	return k.fieldTypes, k.receivers
}

// typeName is the name of a named type, through a pointer and type
// arguments ("*Typed[T]" → "Typed"); "" for any other type.
func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return typeName(t.X)
	case *ast.IndexExpr:
		return typeName(t.X)
	case *ast.IndexListExpr:
		return typeName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}
