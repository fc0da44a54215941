package deltafifo_test

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// popCommands are the consumer's side. A Pop that finds the queue empty
// blocks: the step says so, and the first later step during which it
// returns reports what it got.
var popCommands = []scenario.Command[*driver]{
	{Name: "pop", Run: (*driver).popCmd,
		Usage: `pop [n=K | NAME=K ...] [error=TEXT] [sorted] [show-done] [write-during-process]
K Pops (NAME=K: K on queue NAME). Each hands its deltas to a process
function that records them, applies them to the consumer cache as an
informer would, and returns error TEXT if given. A line per pop: the
key, the deltas, isInInitialList, and HasSynced after the pop. "sorted"
sorts the lines, where the order is not part of the contract (set).
"show-done" also says whether the HasSyncedChecker channel was closed
while process ran. "write-during-process" has another goroutine add
ns/probe@0 while process runs, and says whether that write landed
before process returned or waited for the queue's lock.`,
		Example: "pop n=2 sorted"},
	{Name: "pop-batch", Run: (*driver).popCmd,
		Usage: `pop-batch [n=K] [error=TEXT]
K PopBatch calls: "batch" or "single" per call, for the function that
got the deltas. Both functions return error TEXT if given, and the line
shows what PopBatch returned. A DeltaFIFO has no PopBatch, and says so.`,
		Example: "pop-batch n=2"},
}

func (d *driver) popCmd(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string {
		n := 1
		td.MaybeScanArgs(t, "n", &n)
		td.MaybeScanArgs(t, f.name, &n)
		var failWith error
		if td.HasArg("error") {
			var text string
			td.ScanArgs(t, "error", &text)
			failWith = errors.New(text)
		}
		if td.Cmd == "pop-batch" && f.q.PopBatch == nil {
			return []string{"(a " + f.q.Kind + " has no PopBatch)"}
		}
		fn := func() string { return d.popBatch(f, failWith) }
		if td.Cmd == "pop" {
			fn = func() string { return d.pop(f, failWith, td.HasArg("show-done"), td.HasArg("write-during-process")) }
		}
		lines := d.popTimes(t, td, f, n, fn)
		if td.HasArg("sorted") {
			sort.Strings(lines)
		}
		return lines
	})
}

// popTimes runs fn (one Pop or PopBatch) n times, and stops at the first
// that blocks.
func (d *driver) popTimes(t testing.TB, td *datadriven.TestData, f *fifo, n int, fn func() string) []string {
	var lines []string
	for range n {
		if f.waiting != nil {
			td.Fatalf(t, "queue %s already has a waiting Pop", f.name)
		}
		line, returned := d.async(f, fn)
		if !returned {
			return append(lines, "(blocked: the queue is empty, and Pop waits)")
		}
		lines = append(lines, line)
	}
	return lines
}

// async runs fn (a Pop) in its own goroutine and waits until it returns or
// blocks. A panic in it (an unfinished exercise, a bug) is re-raised here,
// where the scenario runner reports it.
func (d *driver) async(f *fifo, fn func() string) (string, bool) {
	w := &waitingPop{done: make(chan struct{})}
	go func() {
		defer close(w.done)
		defer func() { w.panicked = scenario.Catch(recover()) }()
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
func (d *driver) pop(f *fifo, failWith error, showDone, probeWrite bool) string {
	var trace string
	var written chan struct{}
	ds, err := f.q.Pop(func(ds []delta, initial bool) error {
		trace = fmt.Sprintf("%s (init=%t", formatDeltas(ds), initial)
		if showDone {
			trace += fmt.Sprintf(", done during process=%t", isDone(f.q.Done()))
		}
		if probeWrite {
			written = make(chan struct{})
			go writeDuringProcess(d.im, f.q, written)
			outcome := "waited"
			if scenario.ReturnsBeforeALock(written, "deltafifo_test.writeDuringProcess(") {
				outcome = "landed"
			}
			trace += ", write during process=" + outcome
		}
		for _, dl := range ds {
			if err := apply(d.im, f.cache, dl); err != nil {
				return fmt.Errorf("cache: %v", err)
			}
		}
		return failWith
	})
	if written != nil {
		<-written // Pop has let go of the lock: a write that waited lands now
	}
	if ds == nil && trace == "" {
		return "error: " + err.Error()
	}
	line := fmt.Sprintf("%s, synced=%t)", trace, f.q.HasSynced())
	if err != nil {
		line += " → error: " + err.Error()
	}
	return line
}

// writeDuringProcess adds ns/probe@0 and closes written: a producer
// that comes while a Pop's process runs. Its name is how
// scenario.ReturnsBeforeALock finds its goroutine.
func writeDuringProcess(im impl, q queue, written chan<- struct{}) {
	defer close(written)
	obj, err := parseObject(im, "ns/probe@0")
	if err == nil {
		_ = q.Add(obj)
	}
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
