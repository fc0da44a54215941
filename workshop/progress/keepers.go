package progress

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// This file finds the goroutine a stuck dump cannot show: the one that
// took a lock and returned without releasing it. Its function has ended,
// so only the waiters are left in the dump; but its code is still there,
// a Lock with no Unlock of the same lock anywhere in the function.

// keeper is a function of yours that locks a lock and never unlocks it.
type keeper struct {
	fn   string // as exgen keys functions: "Typed.Add"
	lock string // the locked expression: "q.cond.L"
	file string // the reference path your file stands in for
	line int    // of the Lock call
}

// keepers lists the functions of your files that take a lock they never
// release, deferred or not. A function whose name speaks of locking
// (lock, lockAndGet) is left out: handing a held lock to the caller is
// its job.
func (k *code) keepers() []keeper {
	var out []keeper
	for ref := range k.s.yours {
		if filepath.Dir(ref) != k.s.dir {
			continue // an earlier chapter's file under --mine
		}
		for _, kp := range keepersIn(k.s.files[filepath.Base(ref)]) {
			kp.file = ref
			out = append(out, kp)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].file != out[j].file {
			return out[i].file < out[j].file
		}
		return out[i].line < out[j].line
	})
	return out
}

// keepersIn finds the keepers of one file's source.
func keepersIn(src []byte) []keeper {
	if src == nil {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []keeper
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil || strings.Contains(strings.ToLower(fn.Name.Name), "lock") {
			continue
		}
		locked := map[string]token.Pos{} // "Lock q.mu" → first call
		released := map[string]bool{}
		// The whole declaration, closures included: a lock released in
		// a deferred closure, or taken and released inside a goroutine,
		// is released.
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) > 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			lock := types.ExprString(sel.X)
			switch sel.Sel.Name {
			case "Lock", "RLock":
				if _, seen := locked[sel.Sel.Name+" "+lock]; !seen {
					locked[sel.Sel.Name+" "+lock] = call.Pos()
				}
			case "Unlock":
				released["Lock "+lock] = true
			case "RUnlock":
				released["RLock "+lock] = true
			}
			return true
		})
		for key, pos := range locked {
			if !released[key] {
				_, lock, _ := strings.Cut(key, " ")
				out = append(out, keeper{fn: declKey(fn), lock: lock, line: fset.Position(pos).Line})
			}
		}
	}
	return out
}

// declKey names a declared function the way exgen keys functions:
// "Typed.Add" for a method of Typed[T], "newQueue" for a function.
func declKey(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	switch g := t.(type) {
	case *ast.IndexExpr:
		t = g.X
	case *ast.IndexListExpr:
		t = g.X
	}
	return types.ExprString(t) + "." + fn.Name.Name
}

// neverReleased says, when one of your goroutines waits for a lock, which
// of your functions takes a lock and never releases it, and returns their
// exercises; culprit is the function when there is exactly one, a proof
// of whose code is to blame.
func (k *code) neverReleased(b *strings.Builder, gs []goroutine) (owners []int, culprit string) {
	waitsForALock := false
	for _, g := range gs {
		waitsForALock = waitsForALock || (isLockWait(g.state) && len(k.yours(g.frames)) > 0)
	}
	if !waitsForALock {
		return nil, ""
	}
	keepers := k.keepers()
	for i, kp := range keepers {
		if i == 3 {
			break
		}
		id := k.funcs[kp.fn]
		name := kp.fn
		if id != 0 {
			name += fmt.Sprintf(" (exercise %d)", id)
			owners = append(owners, id)
		}
		fmt.Fprintf(b, "          Never released: %s locks %s and has no Unlock for it\n            %s\n",
			name, kp.lock, k.s.translate(fmt.Sprintf("%s:%d", kp.file, kp.line)))
	}
	if len(keepers) == 1 && len(owners) == 1 {
		culprit = keepers[0].fn
	}
	return owners, culprit
}

// isLockWait reports whether a goroutine's state in a dump is a wait for a
// lock.
func isLockWait(state string) bool {
	return strings.HasPrefix(waits(state), "waits for a lock")
}

// hangsLike returns runTests' hangs: given a stuck test's dump, the checks
// that run the exercise of the one function proved to keep a lock its
// goroutines wait for (the blame file says which run it). They would wait
// for the same lock, each for a second or more; none if nothing is proved.
func (k *code) hangsLike(blame Blame) func(dump string) []string {
	return func(dump string) []string {
		owners, culprit := k.neverReleased(&strings.Builder{}, parseDump(dump))
		if culprit == "" {
			return nil
		}
		var tests []string
		for test, ids := range blame {
			if slices.Contains(ids, owners[0]) {
				tests = append(tests, test)
			}
		}
		sort.Strings(tests)
		return tests
	}
}

// hungReport says why a check was left out: it runs the function the
// stuck test's goroutines waited on.
func (k *code) hungReport(stuck, dump string) (string, []int, string) {
	var b strings.Builder
	owners, culprit := k.neverReleased(&b, parseDump(dump))
	return fmt.Sprintf("Not run:  it runs the same code as %s, which got stuck: it would wait\n"+
		"          for the same lock.\n%s", stuck, b.String()), owners, culprit
}
