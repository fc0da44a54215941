package processor_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// handlerCommands add and remove the informer's handlers and ask whether
// they have synced. Every step of a file, whatever its command, ends with
// the calls each handler got during it, "NAME: ADD ns/a@5 init=true", in
// handler name order and in the order each got them (sorted when the
// step has the argument "set": the order comes from a map there), then
// the planned panics of handlers recovered, "panic recovered: ...", then
// the errors the watch error handler got, "watch error: TEXT".
var handlerCommands = []scenario.Command[*driver]{
	{Name: "handler", Run: (*driver).addHandler,
		Usage: `handler name=N [block] [resync=D] [panic-on=KEY]
AddEventHandler with a handler named N that writes down every call, with
its own resync period D when given (AddEventHandlerWithResyncPeriod).
"block" makes each of its calls wait until "unblock name=N"; panic-on
makes each of its calls for the object KEY ("ns/b") panic once written
down, and every step then ends with each such panic that reached
utilruntime.HandleCrash's handlers, "panic recovered: handler N panicked
in ADD ns/b@6 init=true" (the tests set ReallyCrash to false). Waits until
every goroutine is idle. Prints ok, or the error (the handler itself shown
as <handler>). From then on every step, whatever its command, ends with the
calls N got during it, "N: ADD ns/a@5 init=true", in the order it got them,
or sorted when the step has the argument "set".`,
		Example: "handler name=h1 resync=1s"},
	{Name: "remove", Run: (*driver).removeHandler,
		Usage: `remove name=N
RemoveEventHandler with N's registration, and waits until every goroutine
is idle; ok or the error.`,
		Example: "remove name=h1"},
	{Name: "unblock", Run: (*driver).unblock,
		Usage: `unblock name=N
Lets the blocking handler N return, now and from then on, and waits until
every goroutine is idle. Prints ok.`,
		Example: "unblock name=h1"},
	{Name: "has-synced", Run: (*driver).hasSynced,
		Usage: `has-synced
HasSynced of the informer, then of each handler's registration, by name:
informer=true h1=true h2=false.`},
	{Name: "wait-for-cache-sync", Run: (*driver).waitForCacheSync,
		Usage: `wait-for-cache-sync [timeout=D]
WaitForCacheSync on the HasSynced of each input word: "informer", or a
handler's name. It gives up after D of bubble time (5s by default). Prints
what it returned and the time it took: "true after 0s".`,
		Example: "wait-for-cache-sync timeout=1s\ninformer\nh1"},
}

// callbacks are the informer's calls into the scenario: its handlers,
// each a recorder under a name, and the watch error handler.
type callbacks struct {
	handlers map[string]*recorder
	regs     map[string]registration

	mu        sync.Mutex // the informer calls watchError from its goroutines
	watchErrs []string
}

func newCallbacks() callbacks {
	return callbacks{handlers: map[string]*recorder{}, regs: map[string]registration{}}
}

// watchError is the watch error handler: it writes the error down.
func (c *callbacks) watchError(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.watchErrs = append(c.watchErrs, err.Error())
}

// take returns and forgets what the handlers got since the last step,
// per handler in name order, then the watch errors; set sorts each
// handler's calls.
func (c *callbacks) take(set bool) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(c.handlers)) {
		evs := c.handlers[name].take()
		if set {
			slices.Sort(evs)
		}
		for _, ev := range evs {
			out = append(out, name+": "+ev)
		}
	}
	out = append(out, takePlanned()...)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.watchErrs {
		out = append(out, "watch error: "+e)
	}
	c.watchErrs = nil
	return out
}

// unblockAll lets every blocking handler return.
func (c *callbacks) unblockAll() {
	for _, h := range c.handlers {
		h.unblock()
	}
}

func (d *driver) addHandler(t testing.TB, td *datadriven.TestData) string {
	name := scenario.Arg(t, td, "name")
	h := newRecorder(d.im, name, td.HasArg("block"))
	h.panicOn = scenario.Arg(t, td, "panic-on")
	var resync *time.Duration
	if v, ok := scenario.DurationArg(t, td, "resync"); ok {
		resync = &v
	}
	reg, err := d.informer(t, td).AddEventHandler(h, resync)
	if err != nil {
		// The error prints the handler, whose address changes every run.
		return "error: " + strings.ReplaceAll(err.Error(), fmt.Sprintf("%v", h), "<handler>")
	}
	d.calls.handlers[name], d.calls.regs[name] = h, reg
	d.settle()
	return "ok"
}

func (d *driver) removeHandler(t testing.TB, td *datadriven.TestData) string {
	name := scenario.Arg(t, td, "name")
	reg, ok := d.calls.regs[name]
	if !ok {
		td.Fatalf(t, "no handler %q", name)
	}
	out := notation.Result(d.informer(t, td).RemoveEventHandler(reg))
	d.settle()
	return out
}

func (d *driver) unblock(t testing.TB, td *datadriven.TestData) string {
	d.calls.handlers[scenario.Arg(t, td, "name")].unblock()
	d.settle()
	return "ok"
}

func (d *driver) hasSynced(t testing.TB, td *datadriven.TestData) string {
	line := fmt.Sprintf("informer=%t", d.informer(t, td).HasSynced())
	for _, name := range slices.Sorted(maps.Keys(d.calls.regs)) {
		line += fmt.Sprintf(" %s=%t", name, d.calls.regs[name].HasSynced())
	}
	return line
}

func (d *driver) waitForCacheSync(t testing.TB, td *datadriven.TestData) string {
	timeout, ok := scenario.DurationArg(t, td, "timeout")
	if !ok {
		timeout = 5 * time.Second
	}
	stop := make(chan struct{})
	timer := time.AfterFunc(timeout, func() { close(stop) })
	var fns []func() bool
	for _, name := range strings.Fields(td.Input) {
		if name == "informer" {
			fns = append(fns, d.informer(t, td).HasSynced)
		} else {
			fns = append(fns, d.calls.regs[name].HasSynced)
		}
	}
	start := time.Now()
	got := d.im.WaitForCacheSync(stop, fns...)
	timer.Stop()
	out := fmt.Sprintf("%t after %s", got, time.Since(start))
	d.settle()
	return out
}
