package workqueue_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// queueCommands make the file's queue and call the plain queue's methods.
var queueCommands = []scenario.Command[*driver]{
	{Name: "new-queue", Run: (*driver).newQueue,
		Usage: `new-queue kind=plain|delaying|rate-limiting [name=Q]
Makes the file's one queue; a rate-limiting queue takes its rate limiter
from the input (as new-limiter does). A named queue has metrics. Prints ok.`,
		Example: "new-queue kind=rate-limiting name=q\ndefault-controller()"},
	{Name: "add", Run: (*driver).add,
		Usage:   "add ITEM ...\nAdd each item; prints len=N.",
		Example: "add a b a"},
	{Name: "len", Run: (*driver).lenCmd,
		Usage: "len\nLen, once the bubble settles: len=N."},
	{Name: "get", Run: (*driver).get,
		Usage: `get [n=K]
Get, K times, each item on a line; refuses to block ("would block: use
go-get"), and says when Get returned shutdown.`,
		Example: "get n=2"},
	{Name: "done", Run: (*driver).done,
		Usage:   "done ITEM ...\nDone each item; prints len=N.",
		Example: "done a"},
	{Name: "drain", Run: (*driver).drain,
		Usage: "drain\nGet and Done everything queued, in order, without blocking: the items, or (empty)."},
	{Name: "shutdown", Run: (*driver).shutdown,
		Usage: "shutdown\nShutDown; prints len=N."},
	{Name: "shutdown-with-drain", Run: (*driver).shutdownWithDrain,
		Usage: `shutdown-with-drain
ShutDownWithDrain; prints len=N, or refuses while items are held (it
would block: use go-shutdown-with-drain).`},
	{Name: "shutting-down", Run: (*driver).shuttingDown,
		Usage: "shutting-down\nShuttingDown: true or false."},
}

// queue is the file's queue; a step before new-queue is a mistake.
func (d *driver) queue(t testing.TB, td *datadriven.TestData) *handle {
	if d.q == nil {
		td.Fatalf(t, "%s needs a queue: start the file with new-queue", td.Cmd)
	}
	return d.q
}

// length settles the bubble first: a goroutine woken by the step may
// still be taking an item.
func (d *driver) length(t testing.TB, td *datadriven.TestData) string {
	q := d.queue(t, td)
	synctest.Wait()
	return fmt.Sprintf("len=%d", q.Len())
}

// cleanup shuts the queue down and finishes the items still held, so
// every goroutine of the bubble can exit. A panic here (an unfinished
// exercise) is already reported by the step that hit it first.
func (d *driver) cleanup() {
	if d.q == nil {
		return
	}
	protect := func(f func()) {
		defer func() { _ = recover() }()
		f()
	}
	protect(d.q.ShutDown)
	for _, item := range d.calls.heldItems() {
		protect(func() { d.q.Done(item) })
	}
}

func (d *driver) newQueue(t testing.TB, td *datadriven.TestData) string {
	if d.q != nil {
		td.Fatalf(t, "one queue per scenario file")
	}
	var kind, name string
	td.ScanArgs(t, "kind", &kind)
	td.MaybeScanArgs(t, "name", &name)
	var limiter RateLimiter
	if kind == rateLimitingQueue {
		spec, err := parseLimiter(td.Input)
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		limiter = d.im.NewLimiter(spec)
	}
	q := d.im.NewQueue(kind, name, limiter)
	d.q = &q
	return "ok"
}

func (d *driver) add(t testing.TB, td *datadriven.TestData) string {
	for _, item := range items(td) {
		d.queue(t, td).Add(item)
	}
	return d.length(t, td)
}

func (d *driver) lenCmd(t testing.TB, td *datadriven.TestData) string { return d.length(t, td) }

func (d *driver) get(t testing.TB, td *datadriven.TestData) string {
	d.calls.noWaitingGet(t, td)
	q := d.queue(t, td)
	n := 1
	td.MaybeScanArgs(t, "n", &n)
	var out []string
	for range n {
		if q.Len() == 0 && !q.ShuttingDown() {
			out = append(out, "(would block: use go-get)")
			break
		}
		item, shutdown := q.Get()
		if shutdown {
			out = append(out, fmt.Sprintf("(shutdown, item %q)", item))
			continue
		}
		d.calls.hold(item)
		out = append(out, item)
	}
	return strings.Join(out, "\n")
}

func (d *driver) done(t testing.TB, td *datadriven.TestData) string {
	for _, item := range items(td) {
		d.calls.release(item)
		d.queue(t, td).Done(item)
	}
	return d.length(t, td)
}

func (d *driver) drain(t testing.TB, td *datadriven.TestData) string {
	d.calls.noWaitingGet(t, td)
	q := d.queue(t, td)
	var got []string
	seen := map[string]bool{}
	for q.Len() > 0 {
		item, _ := q.Get()
		q.Done(item)
		if seen[item] {
			// Nothing adds while drain runs: an item handed out twice came
			// back by itself, and would forever (trial F's Get that left
			// the item dirty spun here until the runner stopped it).
			got = append(got, fmt.Sprintf("(%s again: nobody added it since its Get, yet Done queued it again; is it still dirty?)", item))
			break
		}
		seen[item] = true
		got = append(got, item)
	}
	if len(got) == 0 {
		return "(empty)"
	}
	return strings.Join(got, " ")
}

func (d *driver) shutdown(t testing.TB, td *datadriven.TestData) string {
	d.queue(t, td).ShutDown()
	return d.length(t, td)
}

func (d *driver) shutdownWithDrain(t testing.TB, td *datadriven.TestData) string {
	if held := d.calls.heldItems(); len(held) > 0 {
		return fmt.Sprintf("(would block: %s held; use go-shutdown-with-drain)", strings.Join(held, " "))
	}
	d.queue(t, td).ShutDownWithDrain()
	return d.length(t, td)
}

func (d *driver) shuttingDown(t testing.TB, td *datadriven.TestData) string {
	return fmt.Sprint(d.queue(t, td).ShuttingDown())
}
