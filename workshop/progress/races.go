package progress

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/gotest"
)

// raceMark is what testing prints in every test that was running when the
// race detector reported, whichever test the report itself was printed in.
const raceMark = "race detected during execution of test"

// shareRaces gives each test of one run that failed on a race the run's
// race reports, when its own output has none. The detector prints a report
// once, into the output of whichever test was last to print, while every
// test running at that moment fails with raceMark: with tests side by
// side, the report and most of the failures it causes land in different
// tests, and each failure would be judged with no evidence.
func shareRaces(res *gotest.Result) {
	seen := map[string]bool{}
	var reports []string
	names := make([]string, 0, len(res.Output))
	for name := range res.Output {
		names = append(names, name)
	}
	sort.Strings(names) // the same order, whichever map order
	for _, name := range names {
		for _, r := range raceReports(res.Output[name]) {
			if !seen[r] {
				seen[r] = true
				reports = append(reports, r)
			}
		}
	}
	if len(reports) == 0 {
		return
	}
	for _, name := range names {
		out := res.Output[name]
		if strings.Contains(out, raceMark) && len(raceReports(out)) == 0 {
			res.Output[name] = out + strings.Join(reports, "")
		}
	}
}

// raceReports cuts the race detector's reports out of a test's output, each
// from its WARNING line to the closing rule.
func raceReports(output string) []string {
	const rule = "=================="
	var out []string
	for {
		i := strings.Index(output, "WARNING: DATA RACE")
		if i < 0 {
			return out
		}
		rest := output[i:]
		j := strings.Index(rest, rule)
		if j < 0 {
			return append(out, rest+"\n"+rule+"\n")
		}
		out = append(out, rest[:j+len(rule)]+"\n")
		output = rest[j+len(rule):]
	}
}

// underLock reports whether an access ran with a lock held by your code:
// whether one of your frames, innermost first, sits after a Lock or RLock
// in its own function with no Unlock in between (a deferred Unlock does
// not count: it runs at the return). A function named ...Locked only
// expects its caller to hold the lock, so its callers are read on. The
// innermost function literal around a line is its function: a goroutine
// does not hold the lock of the function that started it. A lock a method
// of another type holds (the processor's, while it calls into a listener's
// sync tracker) guards that type's fields, not the ones the access is to,
// when that type has a lock of its own: the 04 trial read "under a lock"
// for a tracker's count written with no lock of the tracker's, and was
// sent to the processor. A type with no lock (03's storeIndex) is guarded
// by its caller's (the store's): the 03 blank trial was told its Update,
// which held the store's lock, held none.
func (k *code) underLock(frames []frame) (held, readOnly bool, holder frame) {
	owner := receiverOf(frames[0].fn)
	k.takersOnce.Do(k.readTakers)
	for _, f := range frames {
		if lock, read := k.lockAt(f); lock != "" {
			if recv := receiverOf(f.fn); owner != "" && recv != "" && recv != owner && k.lockOwners[owner] {
				return false, false, frame{}
			}
			return true, read, f
		}
	}
	return false, false, frame{}
}

// funcLiteral is how a stack names a function literal: func1, func2.1, ...
var funcLiteral = regexp.MustCompile(`^func[0-9]`)

// receiverOf is the type of the method a stack frame's function is (or a
// function literal is inside): "sharedProcessor" for
// "example.com/walkthrough/04-processor.(*sharedProcessor).distribute.func1";
// "" for a plain function.
func receiverOf(fn string) string {
	fn = fn[strings.LastIndex(fn, "/")+1:] // the package's last element, then the name
	_, name, _ := strings.Cut(fn, ".")
	recv, rest, ok := strings.Cut(name, ".")
	if !ok || funcLiteral.MatchString(rest) {
		return "" // a plain function, or a literal inside one
	}
	recv = strings.TrimSuffix(strings.TrimPrefix(recv, "(*"), ")")
	if i := strings.IndexByte(recv, '['); i >= 0 {
		recv = recv[:i] // a generic type's parameters
	}
	return recv
}

// heldAt names the lock ("q.mu") held at a frame of your code by its own
// function (lockedAt), or "".
func (k *code) heldAt(f frame) string {
	lock, _ := k.lockAt(f)
	return lock
}

// lockAt is heldAt, and whether the lock held is only read-locked.
func (k *code) lockAt(f frame) (lock string, read bool) {
	src := k.s.files[filepath.Base(f.file)]
	if src == nil || filepath.Dir(f.file) != k.s.dir {
		return "", false
	}
	return lockedAt(src, f.line, inClosure(f.fn))
}

// lockedAt names the lock taken by the last Lock or RLock call before
// line of src in the function around it, when no Unlock or RUnlock call
// that is not deferred comes between them, and says whether that call was
// RLock; else "". closure says the frame is a function literal's: the
// innermost one around the line. Else it is the declared function's,
// whose frame can sit on the last line of a literal it calls at once
// ("}()"): the literal's Lock is not the function's (the 04 trial's
// processor run read "holds the lock it then waits for" at such a line).
func lockedAt(src []byte, line int, closure bool) (lock string, read bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return "", false
	}
	// The innermost function (declaration or literal) holding the line.
	var body *ast.BlockStmt
	ast.Inspect(f, func(n ast.Node) bool {
		var b *ast.BlockStmt
		switch fn := n.(type) {
		case *ast.FuncDecl:
			b = fn.Body
		case *ast.FuncLit:
			if closure {
				b = fn.Body
			}
		}
		if b != nil && fset.Position(b.Lbrace).Line <= line && line <= fset.Position(b.Rbrace).Line {
			body = b
		}
		return true
	})
	if body == nil {
		return "", false
	}
	held, read := "", false
	deferred := map[ast.Node]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		if lit, ok := n.(*ast.FuncLit); ok && lit.Body != body {
			return false // another function's locks
		}
		if d, ok := n.(*ast.DeferStmt); ok {
			deferred[d.Call] = true
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || fset.Position(call.Pos()).Line >= line {
			return true
		}
		switch name, lock, _ := lockMethod(call); name {
		case "Lock", "RLock":
			held, read = lock, name == "RLock"
		case "Unlock", "RUnlock":
			if !deferred[call] {
				held, read = "", false
			}
		}
		return true
	})
	return held, read
}

// shouldHaveLocked is the frame, among your frames of an access made with
// no lock held (innermost first), of the function that should have taken
// one: the innermost whose reference code takes a lock. A helper such as
// a heap's next, which the reference calls with the lock already held,
// leaves it to its caller, so an AddAfter that calls it before its Lock
// is named, not the helper. When no frame's reference locks, it is the
// innermost of an exercise not named ...Locked (such a function leaves
// the lock to its caller; helpers outside any exercise are called by one
// that should hold it).
func (k *code) shouldHaveLocked(mine []frame) frame {
	k.takersOnce.Do(k.readTakers)
	for _, f := range mine {
		if k.owner(f) != 0 && k.takers[funcKey(f.fn, k.pkg)] {
			return f
		}
	}
	for _, f := range mine {
		if k.owner(f) != 0 && !strings.HasSuffix(funcKey(f.fn, k.pkg), "Locked") {
			return f
		}
	}
	return mine[0]
}

// readTakers reads which functions of the reference (the generated copy
// with every exercise done) call Lock or RLock in their own body, and
// which types have a lock of their own: a field of type sync.Mutex,
// sync.RWMutex, or a type of the package that embeds one (07's
// cacheLock).
func (k *code) readTakers() {
	k.takers, k.lockOwners = map[string]bool{}, map[string]bool{}
	fields := map[string][]*ast.Field{} // struct type → its fields
	k.eachReferenceFile(func(src []byte) {
		f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
		if err != nil {
			return
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl: // the struct types, with their fields
				for _, spec := range d.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok {
						if st, ok := ts.Type.(*ast.StructType); ok {
							fields[ts.Name.Name] = st.Fields.List
						}
					}
				}
			case *ast.FuncDecl: // the functions that take a lock themselves
				if d.Body == nil {
					continue
				}
				ast.Inspect(d.Body, func(n ast.Node) bool {
					if name, _, ok := lockMethod(n); ok && (name == "Lock" || name == "RLock") {
						k.takers[exgen.FuncKey(d)] = true
					}
					return true
				})
			}
		}
	})
	lockType := func(e ast.Expr) string { return strings.TrimPrefix(types.ExprString(e), "*") }
	locks := map[string]bool{"sync.Mutex": true, "sync.RWMutex": true}
	for grown := true; grown; { // a type embedding a lock is one
		grown = false
		for name, list := range fields {
			for _, f := range list {
				if len(f.Names) == 0 && locks[lockType(f.Type)] && !locks[name] {
					locks[name], grown = true, true
				}
			}
		}
	}
	for name, list := range fields {
		for _, f := range list {
			if locks[lockType(f.Type)] {
				k.lockOwners[name] = true
			}
		}
	}
}
