package progress

import (
	"fmt"
	"go/ast"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"example.com/walkthrough/workshop/exgen"
)

// This file finds whose code forgot to wake a goroutine waiting on a
// condition variable. The dump shows the waiter (a Pop in waitLocked, a
// distribute in startedCond.Wait), not the function that should have
// called Broadcast: that one ran and returned. But the reference says
// which functions wake that condition; one of yours that does not, while
// the reference's does, is the missing wake-up.

// wakers is what the reference and your code say about who wakes which
// condition, read once per check.
type wakers struct {
	once      sync.Once
	reference map[string]map[string]int  // condition field ("cond") → the reference's functions that wake it, and how many times
	yours     map[string]map[string]int  // condition field → your functions that wake it themselves, and how many times
	calls     map[string]map[string]bool // your function → the names it calls
	where     map[string]string          // your function → its reference path and line
}

// wakeCalls finds, in one file's source, the functions that call
// Broadcast or Signal, by the condition's field name, and the names every
// function calls.
func wakeCalls(src []byte, fn func(key, field string), call func(key, name string), decl func(key string, line int)) {
	fset, fns := funcDecls(src)
	for _, fd := range fns {
		key := exgen.FuncKey(fd)
		if decl != nil {
			decl(key, fset.Position(fd.Pos()).Line)
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch f := c.Fun.(type) {
			case *ast.SelectorExpr:
				if (f.Sel.Name == "Broadcast" || f.Sel.Name == "Signal") && len(c.Args) == 0 {
					if field := lastName(f.X); field != "" {
						fn(key, field)
					}
				}
				if call != nil {
					call(key, f.Sel.Name)
				}
			case *ast.Ident:
				if call != nil {
					call(key, f.Name)
				}
			}
			return true
		})
	}
}

// lastName is the last name of a selector chain: "startedCond" of
// "p.startedCond", "cond" of "cond".
func lastName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	}
	return ""
}

// condAt names the condition a Wait call at line of src waits on.
func condAt(src []byte, line int) string {
	return callAt(src, line, func(c *ast.CallExpr) string {
		if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Wait" && len(c.Args) == 0 {
			return lastName(s.X)
		}
		return ""
	})
}

func (k *code) readWakers() {
	w := &k.wake
	w.reference, w.yours = map[string]map[string]int{}, map[string]map[string]int{}
	w.calls, w.where = map[string]map[string]bool{}, map[string]string{}
	k.eachReferenceFile(func(src []byte) {
		wakeCalls(src, func(key, field string) {
			if w.reference[field] == nil {
				w.reference[field] = map[string]int{}
			}
			w.reference[field][key]++
		}, nil, nil)
	})
	k.eachFileOfYours(func(ref string, src []byte) {
		wakeCalls(src, func(key, field string) {
			if w.yours[field] == nil {
				w.yours[field] = map[string]int{}
			}
			w.yours[field][key]++
		}, func(key, name string) {
			if w.calls[key] == nil {
				w.calls[key] = map[string]bool{}
			}
			w.calls[key][name] = true
		}, func(key string, line int) {
			w.where[key] = fmt.Sprintf("%s:%d", ref, line)
		})
	})
}

// neverWoken names, for the goroutines of yours that wait on a condition,
// the functions of yours that the reference wakes it from and that do
// not, or less often (sharedProcessor.run wakes startedCond once it has
// started, and again as it stops), not even through a function of yours
// that does. When that is exactly one function, it is proved the culprit.
func (k *code) neverWoken(b *strings.Builder, gs []goroutine) (owners []int, culprit string) {
	k.wake.once.Do(k.readWakers)
	w := &k.wake
	var fields []string
	for _, g := range gs {
		if !strings.HasPrefix(strings.TrimSuffix(g.state, " (durable)"), "sync.Cond.Wait") {
			continue
		}
		mine := k.yours(g.frames)
		if len(mine) == 0 || filepath.Dir(mine[0].file) != k.s.dir {
			continue
		}
		if field := condAt(k.s.files[filepath.Base(mine[0].file)], mine[0].line); field != "" && !slices.Contains(fields, field) {
			fields = append(fields, field)
		}
	}
	var missing []string
	for _, field := range fields {
		for _, fn := range slices.Sorted(maps.Keys(w.reference[field])) {
			if w.where[fn] == "" || w.yours[field][fn] >= w.reference[field][fn] || slices.Contains(missing, fn) {
				continue // not yours, or it wakes the condition as often itself
			}
			viaHelper := false
			for helper := range w.yours[field] {
				short := helper[strings.LastIndex(helper, ".")+1:]
				viaHelper = viaHelper || w.calls[fn][short]
			}
			if !viaHelper {
				missing = append(missing, fn)
				fmt.Fprintf(b, "          Never woken: a goroutine of yours waits on %s, and %s\n"+
					"          wakes it (Broadcast or Signal) %s, where the reference's does %s.\n            %s\n",
					field, k.named(fn), times(w.yours[field][fn]), times(w.reference[field][fn]), k.s.translate(w.where[fn]))
			}
		}
	}
	for _, fn := range missing {
		if id := k.funcs[fn]; id != 0 {
			owners = append(owners, id)
		}
	}
	if len(missing) == 1 && len(owners) == 1 {
		culprit = missing[0]
	}
	return owners, culprit
}

// named is a function's key with its exercise: "RealFIFO.Close
// (exercise 7)".
func (k *code) named(fn string) string {
	if id := k.funcs[fn]; id != 0 {
		return fmt.Sprintf("%s (exercise %d)", fn, id)
	}
	return fn
}

// times says how many times a function wakes a condition.
func times(n int) string {
	switch n {
	case 0:
		return "nowhere"
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
