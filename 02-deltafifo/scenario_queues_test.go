package deltafifo_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// queueCommands make the file's queues.
var queueCommands = []scenario.Command[*driver]{
	{Name: "new-deltafifo", Run: (*driver).newFIFO,
		Usage: `new-deltafifo [name=N] [known] [known-fails=KEY] [emit-replaced]
Makes a DeltaFIFO. Without a name, or with a name already taken, the new
queue replaces all others; with a new name, it joins them, and every
output is split per queue. Each queue has its own consumer cache; "known"
hands that cache to the queue as KnownObjects, and known-fails=KEY makes
the queue's GetByKey of KEY there fail with an error. Prints ok.`,
		Example: "new-deltafifo known emit-replaced"},
	{Name: "new-realfifo", Run: (*driver).newFIFO,
		Usage: `new-realfifo [name=N] [known] [known-fails=KEY] [atomic] [unlock] [bookmarks]
Makes a RealFIFO with those options, named as new-deltafifo's queue is.
Prints ok, or the constructor's "coding error" panic.`,
		Example: "new-realfifo name=real atomic bookmarks"},
}

// fifo is one queue of a scenario with its consumer.
type fifo struct {
	name    string
	q       queue
	cache   knownStore
	waiting *waitingPop // a Pop that blocked, if any
}

// failingLookup is a consumer cache whose GetByKey of one key fails: the
// queue cannot tell whether it holds the object, and must not guess.
type failingLookup struct {
	knownStore
	key string
}

func (c failingLookup) GetByKey(key string) (any, bool, error) {
	if key == c.key {
		return nil, false, fmt.Errorf("the lookup of %s failed", key)
	}
	return c.knownStore.GetByKey(key)
}

// waitingPop is a Pop running in its own goroutine.
type waitingPop struct {
	done     chan struct{}
	line     string
	panicked any
}

// newFIFO makes a queue, or reports the constructor's refusal.
func (d *driver) newFIFO(t testing.TB, td *datadriven.TestData) (out string) {
	name := "q"
	named := td.MaybeScanArgs(t, "name", &name)
	f := &fifo{name: name, cache: d.im.NewKnown()}
	var known knownStore
	if td.HasArg("known") {
		known = f.cache
		if td.HasArg("known-fails") {
			var key string
			td.ScanArgs(t, "known-fails", &key)
			known = failingLookup{f.cache, key}
		}
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

// each plays a command on every queue it is for (all, or the one named
// by on=NAME), then reports the waiting Pops that returned meanwhile; the
// output is split per queue when the file has several.
func (d *driver) each(t testing.TB, td *datadriven.TestData, run func(f *fifo) []string) string {
	if len(d.fifos) == 0 {
		td.Fatalf(t, "make a queue first (new-deltafifo or new-realfifo)")
	}
	out := map[*fifo][]string{}
	for _, f := range d.targets(t, td) {
		out[f] = run(f)
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

// targets are the queues a step is for: on=NAME's, or all.
func (d *driver) targets(t testing.TB, td *datadriven.TestData) []*fifo {
	if !td.HasArg("on") {
		return d.fifos
	}
	var name string
	td.ScanArgs(t, "on", &name)
	var targets []*fifo
	for _, f := range d.fifos {
		if f.name == name {
			targets = append(targets, f)
		}
	}
	if len(targets) == 0 {
		td.Fatalf(t, "no queue named %q", name)
	}
	return targets
}

// objects is the step's input, one object a line.
func (d *driver) objects(t testing.TB, td *datadriven.TestData) []any {
	objs, err := parseObjects(d.im, td.Input)
	if err != nil {
		td.Fatalf(t, "%v", err)
	}
	return objs
}

func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
