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
// condition variable, or to say Done to one waiting on a WaitGroup. The
// dump shows the waiter (a Pop in waitLocked, a distribute in
// startedCond.Wait, a ShutDown in metricsDone.Wait), not the function that
// should have called Broadcast or Done: that one ran and returned. But the
// reference says which functions wake that condition, or say Done to that
// WaitGroup; one of yours that does not, while the reference's does, is
// the missing wake-up.

// wakers is what the reference and your code say about who wakes which
// condition and who says Done to which WaitGroup, read once per check.
// The maps are keyed by the field and what wakes it: "cond" for a
// condition's Broadcast or Signal, "metricsDone.Done" for a WaitGroup's.
type wakers struct {
	once      sync.Once
	reference map[string]map[string]int  // what wakes ("cond", "wg.Done") → the reference's functions that call it, and how many times
	yours     map[string]map[string]int  // what wakes → your functions that call it themselves, and how many times
	calls     map[string]map[string]bool // your function → the names it calls
	where     map[string]string          // your function → its reference path and line
	// goes names the WaitGroups your code starts goroutines with (its Go
	// method says Done for them): who says Done to them is not in sight.
	goes map[string]bool
}

// wakeCalls finds, in one file's source, the functions that call
// Broadcast or Signal, by the condition's field name ("cond"), or a
// WaitGroup's Done or Go ("wg.Done", "wg.Go"), and the names every
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
				if f.Sel.Name == "Done" && len(c.Args) == 0 || f.Sel.Name == "Go" && len(c.Args) == 1 {
					if field := lastName(f.X); field != "" {
						fn(key, field+"."+f.Sel.Name)
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

// condAt names the condition a Wait call at line of src waits on, or
// the WaitGroup: the field's name alone either way.
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
	w.calls, w.where, w.goes = map[string]map[string]bool{}, map[string]string{}, map[string]bool{}
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
			if wg, ok := strings.CutSuffix(field, ".Go"); ok {
				w.goes[wg] = true
				return
			}
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
	var fields []string // "cond" for a condition, "wg.Done" for a WaitGroup
	for _, g := range gs {
		state := strings.TrimSuffix(g.state, " (durable)")
		cond, group := strings.HasPrefix(state, "sync.Cond.Wait"), strings.HasPrefix(state, "sync.WaitGroup.Wait")
		if !cond && !group {
			continue
		}
		mine := k.yours(g.frames)
		if len(mine) == 0 || filepath.Dir(mine[0].file) != k.s.dir {
			continue
		}
		field := condAt(k.s.files[filepath.Base(mine[0].file)], mine[0].line)
		if field == "" || group && w.goes[field] {
			continue // a WaitGroup your code starts goroutines with: their Done is Go's
		}
		if group {
			field += ".Done"
		}
		if !slices.Contains(fields, field) {
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
			if viaHelper {
				continue
			}
			missing = append(missing, fn)
			if wg, ok := strings.CutSuffix(field, ".Done"); ok {
				// Trial K's updateUnfinishedWorkLoop returned without its
				// deferred Done: ShutDown waited, and the report named it
				// and the delaying queue's loop, both waiting.
				fmt.Fprintf(b, "          Never done: a goroutine of yours waits for %s (a WaitGroup), and %s\n"+
					"          calls its Done %s, where the reference's does %s.\n            %s\n",
					wg, k.named(fn), times(w.yours[field][fn]), times(w.reference[field][fn]), k.s.translate(w.where[fn]))
				continue
			}
			fmt.Fprintf(b, "          Never woken: a goroutine of yours waits on %s, and %s\n"+
				"          wakes it (Broadcast or Signal) %s, where the reference's does %s.\n            %s\n",
				field, k.named(fn), times(w.yours[field][fn]), times(w.reference[field][fn]), k.s.translate(w.where[fn]))
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
