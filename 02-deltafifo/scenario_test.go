package deltafifo_test

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// scenarioImpls is what the scenario runner starts: one driver per file.
var scenarioImpls = scenario.Impls{}

// TestScenarios plays testdata/scenarios/*.txt against the implementation
// chosen with WALKTHROUGH_IMPL (reference, exercise or client-go). Each file
// runs in a synctest bubble: a Pop on an empty queue blocks, and the
// driver sees that exactly, with synctest.Wait.
func TestScenarios(t *testing.T) {
	scenario.Run(t, scenarioImpls, scenario.Options{Bubble: true})
}

// The commands, each applied to every queue of the file (or to the one
// named by on=NAME):
//
//	new-deltafifo [name=N] [known] [emit-replaced]
//	new-realfifo [name=N] [known] [atomic] [unlock] [bookmarks]
//	    Without a name, or with a name already taken, the new queue replaces
//	    all others; with a new name, it joins them, and every output is
//	    split per queue. Each queue has its own
//	    consumer cache; "known" hands that cache to the queue as
//	    KnownObjects.
//	known              the objects in the input go into every consumer cache
//	cache              what a consumer cache holds
//	add | update | delete, one object per input line
//	replace [rv=RV]    the input is the list
//	resync | bookmark rv=RV | close | is-closed | has-synced | key-of
//	pop [n=K | NAME=K ...] [error=TEXT] [sorted] [show-done]
//	    K Pops. Each hands its deltas to a process function that records
//	    them, applies them to the consumer cache as an informer would, and
//	    returns error TEXT if given. A line per pop: the key, the deltas,
//	    isInInitialList, and HasSynced after the pop. "sorted" sorts the
//	    lines, where the order is not part of the contract (set).
//	    "show-done" also says whether the HasSyncedChecker channel was
//	    closed while process ran.
//	pop-batch [n=K] [error=TEXT]
//	    K PopBatch calls: "batch" or "single" per call. Both functions
//	    return error TEXT if given, and the line shows what PopBatch returned.
//
// A Pop that finds the queue empty blocks: the step says so, and the
// first later step during which it returns reports what it got.

// fifo is one queue of a scenario with its consumer.
type fifo struct {
	name    string
	q       queue
	cache   knownStore
	waiting *waitingPop // a Pop that blocked, if any
}

// waitingPop is a Pop running in its own goroutine.
type waitingPop struct {
	done     chan struct{}
	line     string
	panicked any
}

// driver plays the commands of one scenario file.
type driver struct {
	im    impl
	fifos []*fifo
}

func newDriver(im impl) *driver { return &driver{im: im} }

// closeAll releases every waiting Pop at the end of a file.
func (d *driver) closeAll() {
	for _, f := range d.fifos {
		f.q.Close()
	}
}

func (d *driver) step(t testing.TB, td *datadriven.TestData) string {
	switch td.Cmd {
	case "new-deltafifo", "new-realfifo":
		return d.newFIFO(t, td)
	}
	if len(d.fifos) == 0 {
		td.Fatalf(t, "make a queue first (new-deltafifo or new-realfifo)")
	}
	targets := d.fifos
	if td.HasArg("on") {
		var name string
		td.ScanArgs(t, "on", &name)
		targets = nil
		for _, f := range d.fifos {
			if f.name == name {
				targets = append(targets, f)
			}
		}
		if len(targets) == 0 {
			td.Fatalf(t, "no queue named %q", name)
		}
	}
	out := map[*fifo][]string{}
	for _, f := range targets {
		out[f] = d.run(t, td, f)
	}
	// A Pop that was waiting may have returned during this step.
	synctest.Wait()
	for _, f := range d.fifos {
		if w := f.waiting; w != nil && isDone(w.done) {
			f.waiting = nil
			if w.panicked != nil {
				panic(w.panicked)
			}
			out[f] = append(out[f], "the waiting Pop returned: "+w.line)
		}
	}
	if len(d.fifos) == 1 {
		return strings.Join(out[d.fifos[0]], "\n")
	}
	var b strings.Builder
	for _, f := range d.fifos {
		if lines, ok := out[f]; ok {
			fmt.Fprintf(&b, "%s:\n", f.name)
			for _, l := range lines {
				fmt.Fprintf(&b, "  %s\n", l)
			}
		}
	}
	return b.String()
}

// newFIFO makes a queue, or reports the constructor's refusal.
func (d *driver) newFIFO(t testing.TB, td *datadriven.TestData) (out string) {
	name := "q"
	named := td.MaybeScanArgs(t, "name", &name)
	f := &fifo{name: name, cache: d.im.NewKnown()}
	var known knownStore
	if td.HasArg("known") {
		known = f.cache
	}
	if td.Cmd == "new-deltafifo" {
		f.q = d.im.NewDeltaFIFO(known, td.HasArg("emit-replaced"))
	} else {
		defer func() {
			// The constructor's option checks panic on purpose.
			if v := recover(); v != nil {
				if s, ok := v.(string); ok && strings.HasPrefix(s, "coding error:") {
					out = "panic: " + s
					return
				}
				panic(v)
			}
		}()
		f.q = d.im.NewRealFIFO(known, realOptions{Atomic: td.HasArg("atomic"), Unlock: td.HasArg("unlock"), Bookmarks: td.HasArg("bookmarks")})
	}
	if !named || slices.ContainsFunc(d.fifos, func(g *fifo) bool { return g.name == name }) {
		d.closeAll() // start over
		d.fifos = nil
	}
	d.fifos = append(d.fifos, f)
	return "ok"
}

// run plays one command on one queue and returns its lines.
func (d *driver) run(t testing.TB, td *datadriven.TestData, f *fifo) []string {
	objects := func() []any {
		objs, err := parseObjects(d.im, td.Input)
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		return objs
	}
	q := f.q
	switch td.Cmd {
	case "known":
		var lines []string
		for _, obj := range objects() {
			lines = append(lines, result(f.cache.Add(obj)))
		}
		return lines

	case "cache":
		keys := f.cache.ListKeys()
		sort.Strings(keys)
		lines := []string{}
		for _, k := range keys {
			obj, _, _ := f.cache.GetByKey(k)
			lines = append(lines, formatObject(obj))
		}
		if len(lines) == 0 {
			return []string{"(empty)"}
		}
		return lines

	case "add", "update", "delete":
		op := map[string]func(any) error{"add": q.Add, "update": q.Update, "delete": q.Delete}[td.Cmd]
		var lines []string
		for _, obj := range objects() {
			lines = append(lines, result(op(obj)))
		}
		return lines

	case "replace":
		var rv string
		td.MaybeScanArgs(t, "rv", &rv)
		return []string{result(q.Replace(objects(), rv))}

	case "resync":
		return []string{result(q.Resync())}

	case "bookmark":
		if q.Bookmark == nil {
			return []string{"(a " + q.Kind + " has no Bookmark)"}
		}
		var rv string
		td.ScanArgs(t, "rv", &rv)
		return []string{result(q.Bookmark(rv))}

	case "close":
		q.Close()
		return []string{"ok"}

	case "is-closed":
		return []string{strconv.FormatBool(q.IsClosed())}

	case "has-synced":
		return []string{strconv.FormatBool(q.HasSynced())}

	case "key-of":
		if q.KeyOf == nil {
			return []string{"(a " + q.Kind + " has no KeyOf)"}
		}
		var lines []string
		for _, obj := range objects() {
			key, err := q.KeyOf(obj)
			if err != nil {
				lines = append(lines, "error: "+err.Error())
			} else {
				lines = append(lines, fmt.Sprintf("%q", key))
			}
		}
		return lines

	case "pop", "pop-batch":
		n := 1
		td.MaybeScanArgs(t, "n", &n)
		td.MaybeScanArgs(t, f.name, &n)
		var failWith error
		if td.HasArg("error") {
			var text string
			td.ScanArgs(t, "error", &text)
			failWith = errors.New(text)
		}
		if td.Cmd == "pop-batch" && q.PopBatch == nil {
			return []string{"(a " + q.Kind + " has no PopBatch)"}
		}
		var lines []string
		for range n {
			if f.waiting != nil {
				td.Fatalf(t, "queue %s already has a waiting Pop", f.name)
			}
			var fn func() string
			if td.Cmd == "pop" {
				fn = func() string { return d.pop(f, failWith, td.HasArg("show-done")) }
			} else {
				fn = func() string { return d.popBatch(f, failWith) }
			}
			line, returned := d.async(f, fn)
			if !returned {
				lines = append(lines, "(blocked: the queue is empty, and Pop waits)")
				break
			}
			lines = append(lines, line)
		}
		if td.HasArg("sorted") {
			sort.Strings(lines)
		}
		return lines
	}
	td.Fatalf(t, "unknown command %q", td.Cmd)
	return nil
}

// async runs fn (a Pop) in its own goroutine and waits until it returns or
// blocks. A panic in it (an unfinished exercise, a bug) is re-raised here,
// where the scenario runner reports it.
func (d *driver) async(f *fifo, fn func() string) (string, bool) {
	w := &waitingPop{done: make(chan struct{})}
	go func() {
		defer close(w.done)
		defer func() { w.panicked = recover() }()
		w.line = fn()
	}()
	synctest.Wait()
	if !isDone(w.done) {
		f.waiting = w
		return "", false
	}
	if w.panicked != nil {
		panic(w.panicked)
	}
	return w.line, true
}

// pop runs one Pop and writes what it handed out.
func (d *driver) pop(f *fifo, failWith error, showDone bool) string {
	var trace string
	ds, err := f.q.Pop(func(ds []delta, initial bool) error {
		trace = fmt.Sprintf("%s (init=%t", formatDeltas(ds), initial)
		if showDone {
			trace += fmt.Sprintf(", done during process=%t", isDone(f.q.Done()))
		}
		for _, dl := range ds {
			if err := apply(d.im, f.cache, dl); err != nil {
				return fmt.Errorf("cache: %v", err)
			}
		}
		return failWith
	})
	if ds == nil && trace == "" {
		return "error: " + err.Error()
	}
	line := fmt.Sprintf("%s, synced=%t)", trace, f.q.HasSynced())
	if err != nil {
		line += " → error: " + err.Error()
	}
	return line
}

// popBatch runs one PopBatch and writes which function got what.
func (d *driver) popBatch(f *fifo, failWith error) string {
	var trace string
	record := func(kind string) func([]delta, bool) error {
		return func(ds []delta, initial bool) error {
			parts := make([]string, len(ds))
			for i, dl := range ds {
				parts[i] = formatDeltas([]delta{dl})
				if err := apply(d.im, f.cache, dl); err != nil {
					return fmt.Errorf("cache: %v", err)
				}
			}
			trace = fmt.Sprintf("%s [%s] (init=%t", kind, strings.Join(parts, " | "), initial)
			return failWith
		}
	}
	err := f.q.PopBatch(record("batch"), record("single"))
	if trace == "" {
		return result(err)
	}
	line := fmt.Sprintf("%s, synced=%t)", trace, f.q.HasSynced())
	if err != nil {
		line += " → error: " + err.Error()
	}
	return line
}

func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
