package progress

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"strings"

	"example.com/walkthrough/workshop/exgen"
)

// This file finds a lock left held by a panic. A function that unlocks
// with a plain Unlock at its end, where the reference defers it, keeps
// the lock when something between its Lock and Unlock panics (an index
// function, a handler) and the panic is recovered further up: no
// goroutine holds the lock in the dump, and no return of it keeps the
// lock, so neither keepers nor the dump can name it (trial B's Update,
// which unlocked at its end past an index function that panics, read
// "waits for a lock: one never released?" with no function named).

// notDeferred lists the functions of yours that unlock a lock with a plain
// Unlock where the reference's same function defers it, and waits for the
// lock the waiters of gs wait for.
func (k *code) notDeferred(gs []goroutine) []keeper {
	waited := map[string]bool{} // the locks waited for, by field ("mu")
	for _, g := range gs {
		if mine := k.yours(g.frames); isLockWait(g.state) && len(mine) > 0 {
			if lock := k.lockTakenAt(mine[0]); lock != "" {
				waited[fields(lock)] = true
			}
		}
	}
	var out []keeper
	k.eachFileOfYours(func(ref string, src []byte) {
		_, deferredInRef := unlocks(k.done[filepath.Join(exgen.ExerciseDir, filepath.Base(ref))])
		for _, kp := range plainUnlocks(src) {
			if waited[fields(kp.lock)] && deferredInRef[kp.fn+" "+kp.lock] {
				kp.file = ref
				out = append(out, kp)
			}
		}
	})
	sortKeepers(out)
	return out
}

// plainUnlocks finds the functions of src that take a lock and let it go
// only with a plain Unlock, never a deferred one: each as a keeper at its
// Lock call.
func plainUnlocks(src []byte) []keeper {
	plain, deferred := unlocks(src)
	fset, fns := funcDecls(src)
	var out []keeper
	for _, fn := range fns {
		key := exgen.FuncKey(fn)
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			name, lock, ok := lockMethod(n)
			if ok && !strings.HasSuffix(name, "Unlock") && plain[key+" "+lock] && !deferred[key+" "+lock] {
				out = append(out, keeper{fn: key, lock: lock, line: fset.Position(n.Pos()).Line})
				plain[key+" "+lock] = false // one Lock call names it
			}
			return true
		})
	}
	return out
}

// unlocks says which locks each function of src unlocks with a plain
// Unlock, and which in a defer: "ThreadSafeStore.Update s.mu" when it
// does. A deferred function literal that unlocks counts as deferred.
func unlocks(src []byte) (plain, deferred map[string]bool) {
	plain, deferred = map[string]bool{}, map[string]bool{}
	_, fns := funcDecls(src)
	for _, fn := range fns {
		key := exgen.FuncKey(fn)
		var walk func(n ast.Node, inDefer bool)
		walk = func(n ast.Node, inDefer bool) {
			ast.Inspect(n, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.DeferStmt:
					if m != n {
						walk(m.Call, true)
						return false
					}
				case *ast.FuncLit:
					if !inDefer {
						return false // a body of its own
					}
				}
				if name, lock, ok := lockMethod(m); ok && strings.HasSuffix(name, "Unlock") {
					if inDefer {
						deferred[key+" "+lock] = true
					} else {
						plain[key+" "+lock] = true
					}
				}
				return true
			})
		}
		walk(fn.Body, false)
	}
	return plain, deferred
}

// notDeferredLine is what the report says of one such function.
func (k *code) notDeferredLine(kp keeper) string {
	return fmt.Sprintf("          Not deferred: %s unlocks %s with a plain Unlock, where the\n"+
		"            reference defers it: a panic between its Lock and Unlock (an index\n"+
		"            function's, a handler's) skips the Unlock, and the lock stays held.\n"+
		"            %s\n", k.keeperName(kp), kp.lock, k.s.translate(fmt.Sprintf("%s:%d", kp.file, kp.line)))
}
