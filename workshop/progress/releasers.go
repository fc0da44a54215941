package progress

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"

	"example.com/walkthrough/workshop/exgen"
)

// This file finds whose code let go of a lock it was handed. "fatal
// error: sync: unlock of unlocked mutex" stops the binary in the Unlock
// that found the lock free, often a deferred one of the caller's; the
// code at fault is the function that released the caller's lock (to let
// others in while it works, as RealFIFO.processLocked does) and never took
// it back.

// unlockedFree reports whether a crash is an Unlock or RUnlock that found
// its lock free: "sync: unlock of unlocked mutex", "sync: RUnlock of
// unlocked RWMutex", "sync: Unlock of unlocked RWMutex" (the 03 trial's
// RUnlock twice got no Twice: line).
func unlockedFree(crash string) bool {
	return strings.Contains(strings.ToLower(crash), "unlock of unlocked")
}

// releaser is a function of yours that unlocks a lock it did not take and
// does not take it again.
type releaser struct {
	fn   string // as exgen keys functions: "RealFIFO.processLocked"
	lock string // the unlocked expression: "f.lock"
	file string // the reference path your file stands in for
	line int    // of the Unlock call
	// twice: the function took the lock itself and defers its Unlock,
	// and this Unlock, not deferred and never followed by a Lock, lets go
	// of it first: the deferred one finds it free at the return.
	twice bool
}

// releasers lists the releasers of your files, read once per check.
func (k *code) releasers() []releaser {
	k.releasersOnce.Do(func() {
		k.eachFileOfYours(func(ref string, src []byte) {
			for _, r := range releasersIn(src) {
				r.file = ref
				k.released = append(k.released, r)
			}
		})
		sort.Slice(k.released, func(i, j int) bool {
			a, b := k.released[i], k.released[j]
			return a.file < b.file || a.file == b.file && a.line < b.line
		})
	})
	return k.released
}

// releasersIn finds, in one file's source, each function whose first
// lock call on a lock is an Unlock (or RUnlock) that is not deferred, so
// that it runs holding its caller's lock, with no Lock (or RLock) of it,
// deferred or not, anywhere after. A function whose name speaks of
// unlocking (unlockAndNotify) is left out: letting go is its job.
func releasersIn(src []byte) []releaser {
	fset, fns := funcDecls(src)
	var out []releaser
	for _, fn := range fns {
		if strings.Contains(strings.ToLower(fn.Name.Name), "unlock") {
			continue
		}
		type state struct {
			released  bool
			line      int
			takenBack bool
			// deferredUnlock: a deferred Unlock is registered; early
			// is the line of a plain Unlock after it, 0 once a Lock
			// follows that.
			deferredUnlock bool
			early          int
		}
		locks := map[string]*state{}
		var order []string
		deferred := map[ast.Node]bool{}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false // a goroutine's or a callback's locks are its own
			}
			if d, ok := n.(*ast.DeferStmt); ok {
				deferred[d.Call] = true
			}
			name, lock, ok := lockMethod(n)
			if !ok {
				return true
			}
			unlock := name == "Unlock" || name == "RUnlock"
			s := locks[lock]
			if s == nil {
				s = &state{}
				locks[lock] = s
				order = append(order, lock)
				if unlock && !deferred[n] {
					s.released, s.line = true, fset.Position(n.Pos()).Line
				}
				return true
			}
			switch {
			case unlock && deferred[n]:
				s.deferredUnlock = true
			case unlock && s.deferredUnlock:
				s.early = fset.Position(n.Pos()).Line
			case !unlock:
				s.takenBack = s.takenBack || s.released
				s.early = 0
			}
			return true
		})
		for _, lock := range order {
			s := locks[lock]
			if s.released && !s.takenBack {
				out = append(out, releaser{fn: exgen.FuncKey(fn), lock: lock, line: s.line})
			}
			if s.early != 0 {
				out = append(out, releaser{fn: exgen.FuncKey(fn), lock: lock, line: s.early, twice: true})
			}
		}
	}
	return out
}

// unlockedCulprit explains "unlock of unlocked mutex": it names the
// functions of yours that let go of their caller's lock for good, and
// proves the exercise when there is exactly one.
func (k *code) unlockedCulprit(b *strings.Builder) (owners []int, culprit string) {
	rs := k.releasers()
	for i, r := range rs {
		if i == 3 {
			break
		}
		name := r.fn
		if id := k.funcs[r.fn]; id != 0 {
			name += fmt.Sprintf(" (exercise %d)", id)
			owners = append(owners, id)
		}
		at := k.s.translate(fmt.Sprintf("%s:%d", r.file, r.line))
		if r.twice {
			fmt.Fprintf(b, "          Twice:    %s unlocks %s here, and its deferred\n"+
				"          unlock of it runs again at the return, finding it free: keep one.\n            %s\n",
				name, r.lock, at)
			continue
		}
		fmt.Fprintf(b, "          Released: %s unlocks %s,\n"+
			"          which its caller holds, and never takes it back: the caller's own\n"+
			"          Unlock then finds it free.\n            %s\n",
			name, r.lock, at)
	}
	if len(rs) == 1 && len(owners) == 1 {
		culprit = rs[0].fn
	}
	return owners, culprit
}
