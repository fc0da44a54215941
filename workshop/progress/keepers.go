package progress

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"example.com/walkthrough/workshop/exgen"
)

// This file finds whose code a goroutine waiting for a lock waits on. The
// one that took the lock and returned without releasing it is gone from
// the dump, only the waiters are left; but its code is still there, a
// return it reaches still holding the lock. Or the waiter's own caller
// holds the lock it waits for (a lock taken twice).

// keeper is a function of yours that locks a lock and never unlocks it.
type keeper struct {
	fn   string // as exgen keys functions: "Typed.Add"
	lock string // the locked expression: "q.cond.L"
	file string // the reference path your file stands in for
	line int    // of the Lock call
	ret  int    // the return that keeps it, when others do not: 0 when none releases it
}

// keepers lists the functions of your files that reach a return still
// holding a lock they took (keepersIn), read once per check. A function
// whose name speaks of locking (lock, lockAndGet) is left out: handing a
// held lock to the caller is its job.
func (k *code) keepers() []keeper {
	k.keepersOnce.Do(func() { k.kept = k.findKeepers() })
	return k.kept
}

func (k *code) findKeepers() []keeper {
	var out []keeper
	k.eachFileOfYours(func(ref string, src []byte) {
		for _, kp := range keepersIn(src) {
			kp.file = ref
			out = append(out, kp)
		}
	})
	sortKeepers(out)
	return out
}

// sortKeepers orders keepers by file, then by line.
func sortKeepers(kps []keeper) {
	sort.Slice(kps, func(i, j int) bool {
		if kps[i].file != kps[j].file {
			return kps[i].file < kps[j].file
		}
		return kps[i].line < kps[j].line
	})
}

// eachFileOfYours calls fn with each file of your copy of this chapter:
// the reference path it stands in for, and your source. An earlier
// chapter's files under --mine are left out.
func (k *code) eachFileOfYours(fn func(ref string, src []byte)) {
	for ref := range k.s.yours {
		if filepath.Dir(ref) == k.s.dir {
			fn(ref, k.s.files[filepath.Base(ref)])
		}
	}
}

// keepersIn finds the keepers of one file's source: each function or
// function literal that, at one of its returns or at its end, still holds
// a lock it took there. A lock is held at a return when a Lock call of it
// comes before the return in a block around it, with no Unlock between
// them in a block around it (an Unlock in a branch that does not hold
// the return does not count), and no deferred Unlock of it.
func keepersIn(src []byte) []keeper {
	fset, fns := funcDecls(src)
	var out []keeper
	for _, fn := range fns {
		if strings.Contains(strings.ToLower(fn.Name.Name), "lock") {
			continue
		}
		bodies := []*ast.BlockStmt{fn.Body}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				bodies = append(bodies, lit.Body)
			}
			return true
		})
		seen := map[keeper]bool{}
		for _, body := range bodies {
			for _, kp := range keptIn(fset, body) {
				kp.fn = exgen.FuncKey(fn)
				if !seen[kp] {
					seen[kp] = true
					out = append(out, kp)
				}
			}
		}
	}
	return out
}

// lockCall is a Lock, RLock, Unlock or RUnlock call, or a return, of one
// function body, with the blocks around it.
type lockCall struct {
	name, lock string
	pos        token.Pos
	in         []ast.Node // the blocks around it, outermost first
}

// keptIn finds the locks one function body keeps (its function
// literals are bodies of their own; a deferred one only releases).
func keptIn(fset *token.FileSet, body *ast.BlockStmt) []keeper {
	var calls, returns []lockCall
	var deferred []lockCall // deferred Unlocks, named by the Lock they release
	releaseAll := false     // a call such as unlockAndNotify()
	var blocks, stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			if top := stack[len(stack)-1]; len(blocks) > 0 && blocks[len(blocks)-1] == top {
				blocks = blocks[:len(blocks)-1]
			}
			stack = stack[:len(stack)-1]
			return true
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // a body of its own
		case *ast.DeferStmt:
			ast.Inspect(n.Call, func(m ast.Node) bool {
				if name, lock, ok := lockMethod(m); ok && strings.HasSuffix(name, "Unlock") {
					deferred = append(deferred, lockCall{name: strings.Replace(name, "Unlock", "Lock", 1), lock: lock, pos: n.Pos(), in: slices.Clone(blocks)})
				}
				return true
			})
			return false
		case *ast.ReturnStmt:
			returns = append(returns, lockCall{name: "return", pos: n.Pos(), in: slices.Clone(blocks)})
		case *ast.CallExpr:
			if name, lock, ok := lockMethod(n); ok {
				calls = append(calls, lockCall{name: name, lock: lock, pos: n.Pos(), in: slices.Clone(blocks)})
			} else if strings.Contains(strings.ToLower(types.ExprString(n.Fun)), "unlock") {
				releaseAll = true
			}
		}
		stack = append(stack, n)
		switch n.(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			blocks = append(blocks, n)
		}
		return true
	})
	if releaseAll {
		return nil
	}
	// The end of the body is a return too, unless it cannot be reached
	// past a last return.
	if len(body.List) == 0 || !isReturn(body.List[len(body.List)-1]) {
		returns = append(returns, lockCall{name: "return", pos: body.Rbrace, in: []ast.Node{body}})
	}
	released := map[string]bool{} // "Lock q.mu": some path unlocks it
	for _, c := range calls {
		if strings.HasSuffix(c.name, "Unlock") {
			released[strings.Replace(c.name, "Unlock", "Lock", 1)+" "+c.lock] = true
		}
	}
	for _, d := range deferred {
		released[d.name+" "+d.lock] = true
	}
	var out []keeper
	for _, ret := range returns {
		for _, c := range heldAt(calls, ret) {
			// A deferred Unlock serves the returns after it, in its block.
			if slices.ContainsFunc(deferred, func(d lockCall) bool {
				return d.name == c.name && d.lock == c.lock && d.pos < ret.pos && around(d, ret)
			}) {
				continue
			}
			kp := keeper{lock: c.lock, line: fset.Position(c.pos).Line}
			if released[c.name+" "+c.lock] {
				kp.ret = fset.Position(ret.pos).Line // this path only
			}
			out = append(out, kp)
		}
	}
	return out
}

// heldAt lists the Lock and RLock calls still held at ret.
func heldAt(calls []lockCall, ret lockCall) []lockCall {
	last := map[string]lockCall{} // the last Lock of each lock before ret, around it
	for _, c := range calls {
		if c.pos >= ret.pos || !around(c, ret) {
			continue
		}
		switch c.name {
		case "Lock", "RLock":
			last[c.name+" "+c.lock] = c
		case "Unlock", "RUnlock":
			delete(last, strings.Replace(c.name, "Unlock", "Lock", 1)+" "+c.lock)
		}
	}
	var out []lockCall
	for _, c := range last {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	return out
}

// around reports whether c is in a block around ret: it runs on every
// path to ret that passes it.
func around(c, ret lockCall) bool {
	return len(c.in) > 0 && slices.Contains(ret.in, c.in[len(c.in)-1])
}

// lockMethod reports whether n is a call x.Lock(), x.RLock(), x.Unlock()
// or x.RUnlock(), and names the method and x.
func lockMethod(n ast.Node) (name, lock string, ok bool) {
	call, isCall := n.(*ast.CallExpr)
	if !isCall || len(call.Args) > 0 {
		return "", "", false
	}
	sel, isSel := call.Fun.(*ast.SelectorExpr)
	if !isSel {
		return "", "", false
	}
	switch sel.Sel.Name {
	case "Lock", "RLock", "Unlock", "RUnlock":
		return sel.Sel.Name, types.ExprString(sel.X), true
	}
	return "", "", false
}

// isReturn reports whether s ends its function: a return or a panic.
func isReturn(s ast.Stmt) bool {
	if _, ok := s.(*ast.ReturnStmt); ok {
		return true
	}
	if e, ok := s.(*ast.ExprStmt); ok {
		if call, ok := e.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
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
	if len(keepers) == 0 {
		// No return keeps it: a panic may have skipped an Unlock. Only
		// a suspect, which the search settles (an Unlock not deferred is
		// no bug where nothing between can panic).
		for i, kp := range k.notDeferred(gs) {
			if id := k.funcs[kp.fn]; id != 0 && i < 3 {
				owners = append(owners, id)
				b.WriteString(k.notDeferredLine(kp))
			}
		}
		return owners, ""
	}
	for i, kp := range keepers {
		if i == 3 {
			break
		}
		if id := k.funcs[kp.fn]; id != 0 {
			owners = append(owners, id)
		}
		kept := k.keptLock(kp)
		fmt.Fprintf(b, "          Never released: %s\n            %s\n", kept.What, kept.Where)
	}
	fns := map[string]bool{}
	for _, kp := range keepers {
		fns[kp.fn] = true
	}
	if len(fns) == 1 && len(owners) > 0 {
		culprit = keepers[0].fn
	}
	return owners, culprit
}

// KeptLock is a function of yours that reaches a return still holding a
// lock it took: what it does, and where in your copy.
type KeptLock struct {
	What  string // "Cache.List (exercise 4) returns still holding c.mu (locked at line 544)"
	Where string // "07-watchserver/exercise/cache.go:547"
}

// keptLock says what keeper kp does, with its exercise, and where.
func (k *code) keptLock(kp keeper) KeptLock {
	name := k.keeperName(kp)
	if kp.ret == 0 {
		return KeptLock{fmt.Sprintf("%s locks %s and has no Unlock for it", name, kp.lock),
			k.s.translate(fmt.Sprintf("%s:%d", kp.file, kp.line))}
	}
	return KeptLock{fmt.Sprintf("%s returns still holding %s (locked at line %d)", name, kp.lock, kp.line),
		k.s.translate(fmt.Sprintf("%s:%d", kp.file, kp.ret))}
}

// keeperName is a keeper's function with its exercise:
// "ThreadSafeStore.Update (exercise 3)".
func (k *code) keeperName(kp keeper) string {
	if id := k.funcs[kp.fn]; id != 0 {
		return fmt.Sprintf("%s (exercise %d)", kp.fn, id)
	}
	return kp.fn
}

// unreleased is every keeper of your code: a warning the runner shows with
// every check, since the checks may never take the path that keeps the
// lock (trial V: Cache.List returning early while not ready, terminate
// returning early when the watcher was gone; every check passed).
func (k *code) unreleased() []KeptLock {
	var out []KeptLock
	for _, kp := range k.keepers() {
		out = append(out, k.keptLock(kp))
	}
	return out
}

// isLockWait reports whether a goroutine's state in a dump is a wait for a
// lock.
func isLockWait(state string) bool {
	return strings.HasPrefix(waits(state), "waits for a lock")
}

// holdersBack writes and returns what proves whose code stuck goroutines
// wait on, for a hang and a deadlock alike: a lock (lockCulprit), else a
// condition nobody wakes (neverWoken).
func (k *code) holdersBack(b *strings.Builder, gs []goroutine) (owners []int, culprit string) {
	if owners, culprit = k.lockCulprit(b, gs); culprit != "" {
		return owners, culprit
	}
	sleepers, culprit := k.neverWoken(b, gs)
	return append(owners, sleepers...), culprit
}

// lockCulprit writes and returns what proves whose code a wait for a lock
// hangs on: a function that never released it, else one that takes it
// twice.
func (k *code) lockCulprit(b *strings.Builder, gs []goroutine) (owners []int, culprit string) {
	if owners, culprit = k.neverReleased(b, gs); culprit != "" {
		return owners, culprit
	}
	twice, culprit := k.takenTwice(b, gs)
	if culprit != "" {
		return append(owners, twice...), culprit
	}
	across, culprit := k.heldAcross(b, gs)
	return append(append(owners, twice...), across...), culprit
}

// heldAcross says, for a goroutine of yours that waits for a lock, which
// function of yours makes another goroutine wait on something else (a
// channel, a callback, a WaitGroup) while that lock is held: everyone
// waiting for the lock waits for that call (the 02 trial's PopBatch held
// f.lock across the batch's callback, and the report sent the learner
// looking for a missing Unlock). The function named is the innermost of
// yours in the holding goroutine, the one that made the call: it, or a
// caller of it, took the lock (a ...Locked function's caller did).
func (k *code) heldAcross(b *strings.Builder, gs []goroutine) (owners []int, culprit string) {
	for _, w := range gs {
		if !isLockWait(w.state) {
			continue
		}
		mine := k.yours(w.frames)
		if len(mine) == 0 {
			continue
		}
		want := k.lockTakenAt(mine[0])
		if want == "" {
			continue
		}
		for _, h := range gs {
			state := strings.TrimSuffix(h.state, " (durable)")
			if isLockWait(h.state) || strings.HasPrefix(state, "sync.Cond.Wait") || state == "running" || state == "runnable" {
				continue // a Cond's Wait lets the lock go; a running goroutine waits for nothing
			}
			theirs := k.yours(h.frames)
			for _, f := range theirs {
				lock := k.heldAt(f)
				if !k.sameLock(mine[0], want, f, lock) {
					continue
				}
				caller := theirs[0]
				fmt.Fprintf(b, "          Held:     %s waits (%s) while %s is held,\n"+
					"            taken in %s: whoever waits for the lock waits for\n"+
					"            that call. Either what it waits for should be there (is the\n"+
					"            goroutine that takes it running yet?), or let the lock go first.\n            %s\n",
					k.function(caller), state, lock, k.function(f), k.path(caller))
				if f != caller {
					// Where the holder makes the call: the fix is often
					// there, letting the lock go before it (trial W's
					// ShutDown waited for the metrics loop under q.mu,
					// and was shown the wait's line only).
					fmt.Fprintf(b, "            called under the lock from %s\n            %s\n", k.function(f), k.path(f))
				}
				return k.heldBlame(f, caller)
			}
		}
	}
	return nil, ""
}

// heldBlame is whom a Held: report blames: the exercise of the function
// that waits while holding the lock (waiter) is proof only when the one
// that took the lock (holder) is of the same exercise (then the holder is
// the function named), or of none. When they differ, either
// may have diverged: a holder that should not hold the lock across the
// call, or that never started the goroutine the call waits for (the 04
// trial's processor that never ran a listener, whose add then blocked
// under distribute's lock: the blame went to the listener, exercise 2);
// or a waiter that should not wait. Both are suspects, the holder first,
// and a swap decides.
func (k *code) heldBlame(holder, waiter frame) (owners []int, culprit string) {
	h, w := k.owner(holder), k.owner(waiter)
	switch {
	case w != 0 && h == w:
		// The holder decides to make the call under the lock: the fix,
		// letting it go first, is there (trial W was sent to the wait).
		return []int{w}, funcKey(holder.fn, k.pkg)
	case w != 0 && h == 0:
		return []int{w}, funcKey(waiter.fn, k.pkg)
	case w != 0:
		return []int{h, w}, ""
	case h != 0:
		return []int{h}, funcKey(holder.fn, k.pkg)
	}
	return nil, ""
}

// hangsLike returns runTests' hangs: given a stuck test's dump, the checks
// that would get stuck the same way, to be left out rather than waited out
// (each costs seconds). Proved: the one function that keeps a lock its
// goroutines wait for; the checks that run its exercise (the blame file
// says which) would wait for the same lock. Seen twice: two stuck tests
// whose goroutines of yours wait at the same places (a pump that never
// stops, a loop that never ends: no lock to prove it by); the checks that
// run every exercise those places belong to would wait there too. One stuck
// test alone proves nothing of that kind, so it takes the second. Either
// way the plain checks (k.plainChecks) are left out too: the blame file
// does not measure them, they may run that code, and each would cost a
// stop (07's plain tests, side by side, cost 11 stops and 5 minutes for
// one missing Unlock). They are judged once the hang is fixed.
func (k *code) hangsLike(blame Blame) func(dump string) (tests []string, proved bool) {
	shapes := map[string]int{} // a hang's shape → the stuck tests it was seen in
	return func(dump string) ([]string, bool) {
		gs := parseDump(dump)
		if t, ok := k.firstTakenTwice(gs); ok && t.read {
			// A read lock taken twice waits only while a writer waits
			// between the two: the checks that run the same code with no
			// writer pass (trial B's objects calling Get under ByIndex's
			// RLock: every scenario was shown as failing with the stress
			// test that got stuck).
			return nil, false
		}
		owners, culprit := k.lockCulprit(&strings.Builder{}, gs)
		if culprit != "" {
			owners = owners[:1] // the function that keeps the lock
		} else {
			shape, ids := k.hangShape(gs)
			if shape == "" {
				return nil, false
			}
			if shapes[shape]++; shapes[shape] < 2 {
				return nil, false
			}
			owners = ids
		}
		var tests []string
		for test, runs := range blame {
			if !slices.ContainsFunc(owners, func(id int) bool { return !slices.Contains(runs, id) }) {
				tests = append(tests, test)
			}
		}
		tests = append(tests, k.plainChecks...)
		sort.Strings(tests)
		return tests, culprit != ""
	}
}

// hangShape is where a stuck test's goroutines of yours wait: each one's
// innermost function of yours and its state, sorted, with the exercises
// those functions belong to; "" when none waits in your code. A goroutine
// of yours caught running in a binary that printed nothing for so long
// is a loop that never ends, and the rest only wait on it: the shape is
// then the running ones alone, the same in every test that runs that
// loop, whatever the others wait for (trial V's dispatcher spinning on a
// closed channel: 31 stops in 15 minutes, each with other waiters).
func (k *code) hangShape(gs []goroutine) (string, []int) {
	var places, spinning []string
	var ids, spinIDs []int
	add := func(places *[]string, ids *[]int, at frame, g goroutine, frames []frame) {
		*places = append(*places, at.fn+" ["+g.state+"]")
		for _, id := range k.owners(frames) {
			if !slices.Contains(*ids, id) {
				*ids = append(*ids, id)
			}
		}
	}
	for _, g := range gs {
		mine := k.yours(g.frames)
		if len(mine) == 0 {
			continue
		}
		add(&places, &ids, mine[0], g, mine[:1])
		if g.state == "running" || g.state == "runnable" {
			// Caught running, its innermost frame is wherever the loop
			// happened to be: a callee as likely as the function that
			// loops (the 04 trial's pump spinning on a closed channel
			// was caught in the ring buffer's Read, and the ring-buffer
			// scenario, which runs only that, was left out as hung).
			// It is placed by its outermost function of yours, the same
			// in every stop, and every exercise of its stack is in the
			// shape.
			add(&spinning, &spinIDs, mine[len(mine)-1], g, mine)
		}
	}
	if len(spinning) > 0 && len(spinIDs) > 0 {
		places, ids = spinning, spinIDs
	}
	if len(places) == 0 || len(ids) == 0 {
		return "", nil
	}
	sort.Strings(places)
	return strings.Join(slices.Compact(places), "\n"), ids
}

// hungReport says why check test was left out: it runs the code the stuck
// test's goroutines waited in, or, a plain check, it may.
func (k *code) hungReport(test, stuck, dump string) (string, []int, string) {
	var b strings.Builder
	gs := parseDump(dump)
	owners, culprit := k.lockCulprit(&b, gs)
	switch {
	case culprit != "" && slices.Contains(k.plainChecks, test):
		return fmt.Sprintf("Not run:  %s got stuck on a lock your code never lets go; this check\n"+
			"          may take it too, so it was left out until that is fixed.\n%s", shownName(stuck), b.String()), owners, culprit
	case culprit != "":
		return fmt.Sprintf("Not run:  it runs the same code as %s, which got stuck: it would wait\n"+
			"          for the same lock.\n%s", stuck, b.String()), owners, culprit
	}
	_, owners = k.waiting(&b, gs, false)
	if slices.Contains(k.plainChecks, test) {
		return fmt.Sprintf("Not run:  %s got stuck, as another check did before it, with your\n"+
			"          goroutines waiting at the same places; this check may wait there\n"+
			"          too, so it was left out until that is fixed.\n%s", shownName(stuck), b.String()), owners, ""
	}
	return fmt.Sprintf("Not run:  it runs the same code as %s, which got stuck, as another check\n"+
		"          did before it, with your goroutines waiting at the same places: it\n"+
		"          would wait there too.\n%s", shownName(stuck), b.String()), owners, ""
}

// takenTwice says, for a goroutine of yours that waits for a lock while a
// function of yours lower in its own stack already holds one, which
// function that is: Go's locks are not reentrant, so it waits for itself.
// It returns that function's exercise and, for the first such goroutine,
// the function.
func (k *code) takenTwice(b *strings.Builder, gs []goroutine) (owners []int, culprit string) {
	t, ok := k.firstTakenTwice(gs)
	if !ok {
		return nil, ""
	}
	// The call that takes the lock again is made by the caller of the
	// function that waits: the holder itself, or a function it calls
	// holding the lock, which is then the one at fault (trial K's
	// startShutdown, "call it with q.mu held", called ShuttingDown,
	// which locks; the report named ShutDown).
	at := t.mine[1]
	if t.holder == at {
		fmt.Fprintf(b, "          Taken twice: %s holds the lock it then waits for\n"+
			"            %s (a sync lock is not reentrant)\n", k.function(t.holder), k.path(t.holder))
	} else {
		fmt.Fprintf(b, "          Taken twice: %s holds the lock, and %s, called\n"+
			"            under it, calls %s, which takes it again (a sync lock is not\n"+
			"            reentrant): %s\n", k.function(t.holder), k.function(at), k.function(t.mine[0]), k.path(at))
	}
	if t.read {
		b.WriteString("            A read lock taken again waits only once a writer waits for the lock\n" +
			"            between the two, as here: checks with no writer pass all the same.\n")
	}
	if id := k.owner(at); id != 0 {
		return []int{id}, funcKey(at.fn, k.pkg)
	}
	return nil, ""
}

// twice is a goroutine of yours that waits for a lock a function lower in
// its own stack holds.
type twice struct {
	mine   []frame // its frames in your code, innermost first
	holder frame   // the one that holds the lock
	read   bool    // it waits to read-lock what it holds read-locked (RLock twice)
}

// firstTakenTwice finds the first goroutine of gs that waits for a lock
// it holds itself.
func (k *code) firstTakenTwice(gs []goroutine) (twice, bool) {
	for _, g := range gs {
		if !isLockWait(g.state) {
			continue
		}
		mine := k.yours(g.frames)
		if len(mine) < 2 {
			continue
		}
		want := k.lockTakenAt(mine[0]) // the lock it waits for
		for _, f := range mine[1:] {
			if held, heldToRead := k.lockAt(f); k.sameLock(mine[0], want, f, held) {
				return twice{mine: mine, holder: f, read: heldToRead && k.readLockAt(mine[0])}, true
			}
		}
	}
	return twice{}, false
}

// readLockAt reports whether the lock call on a frame's line of your code
// is an RLock.
func (k *code) readLockAt(f frame) bool {
	name, _ := k.lockCallAt(f)
	return name == "RLock"
}

// lockTakenAt names the lock a Lock or RLock call on a frame's line of
// your code takes ("q.mu"), or "".
func (k *code) lockTakenAt(f frame) string {
	_, lock := k.lockCallAt(f)
	return lock
}

// lockCallAt is the Lock or RLock call on a frame's line of your code:
// its method and the lock it takes ("RLock", "s.mu"), or "" and "".
func (k *code) lockCallAt(f frame) (name, lock string) {
	src := k.s.files[filepath.Base(f.file)]
	if src == nil || filepath.Dir(f.file) != k.s.dir {
		return "", ""
	}
	call := callAt(src, f.line, func(c *ast.CallExpr) string {
		if name, lock, ok := lockMethod(c); ok && strings.HasSuffix(name, "Lock") && !strings.HasSuffix(name, "Unlock") {
			return name + " " + lock
		}
		return ""
	})
	name, lock, _ = strings.Cut(call, " ")
	return name, lock
}

// fields is a lock's name without its receiver ("mu" for q.mu, "cond.L"
// for q.cond.L): a caller and its callee name their receivers apart.
func fields(lock string) string {
	_, rest, _ := strings.Cut(lock, ".")
	return rest
}
