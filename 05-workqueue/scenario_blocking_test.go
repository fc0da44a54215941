package workqueue_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// blockingCommands start calls that may block, each in a goroutine the
// step names.
var blockingCommands = []scenario.Command[*driver]{
	{Name: "go-get", Run: (*driver).goGet,
		Usage: `go-get NAME ...
A Get in a goroutine for each NAME. Prints "NAME waiting" for those still
blocked; a later step prints "NAME got ITEM" when one returns.`,
		Example: "go-get w1 w2"},
	{Name: "go-shutdown-with-drain", Run: (*driver).goShutdownWithDrain,
		Usage: `go-shutdown-with-drain NAME
ShutDownWithDrain in a goroutine named NAME: "NAME waiting" while workers
hold items, "NAME returned" in the step during which it returns.`,
		Example: "go-shutdown-with-drain d"},
}

// blockingCalls are the calls running in goroutines, and the items got and
// not yet Done.
type blockingCalls struct {
	mu       sync.Mutex // guards the fields below, which goroutines write
	ops      []*asyncOp
	held     []string // items got and not yet Done, in the order they were got
	panicked any      // a panic in a goroutine, passed on by the next step
}

// asyncOp is a blocking call running in a goroutine.
type asyncOp struct {
	name     string
	isGet    bool
	done     bool
	result   string
	reported bool
}

func (d *driver) goGet(t testing.TB, td *datadriven.TestData) string {
	q := d.queue(t, td)
	var started []*asyncOp
	for _, name := range items(td) {
		started = append(started, d.calls.goCall(name, true, func() string {
			item, shutdown := q.Get()
			if shutdown {
				return fmt.Sprintf("got shutdown (item %q)", item)
			}
			d.calls.hold(item)
			return "got " + item
		}))
	}
	return d.calls.waiting(started)
}

func (d *driver) goShutdownWithDrain(t testing.TB, td *datadriven.TestData) string {
	q := d.queue(t, td)
	op := d.calls.goCall(items(td)[0], false, func() string {
		q.ShutDownWithDrain()
		return "returned"
	})
	return d.calls.waiting([]*asyncOp{op})
}

// settle waits until every goroutine in the bubble is blocked, passes on
// a panic one of ours hit, and reports the blocking calls that returned.
func (c *blockingCalls) settle() string {
	synctest.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.panicked; p != nil {
		c.panicked = nil
		panic(p)
	}
	var events []string
	for _, op := range c.ops {
		if op.done && !op.reported {
			op.reported = true
			events = append(events, op.name+" "+op.result)
		}
	}
	return strings.Join(events, "\n")
}

// goCall runs call in a goroutine as the blocking call name.
func (c *blockingCalls) goCall(name string, isGet bool, call func() string) *asyncOp {
	op := &asyncOp{name: name, isGet: isGet}
	c.mu.Lock()
	c.ops = append(c.ops, op)
	c.mu.Unlock()
	go func() {
		defer func() {
			if v := recover(); v != nil {
				c.mu.Lock()
				c.panicked = scenario.Catch(v)
				c.mu.Unlock()
			}
		}()
		result := call()
		c.mu.Lock()
		op.done, op.result = true, result
		c.mu.Unlock()
	}()
	return op
}

// waiting lets the calls just started run as far as they can, and lists
// those that block. The ones that returned are reported by settle.
func (c *blockingCalls) waiting(started []*asyncOp) string {
	synctest.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, op := range started {
		if !op.done {
			out = append(out, op.name+" waiting")
		}
	}
	return strings.Join(out, "\n")
}

// noWaitingGet refuses a step that would race a waiting go-get for the
// next item: which one wins is up to the scheduler.
func (c *blockingCalls) noWaitingGet(t testing.TB, td *datadriven.TestData) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, op := range c.ops {
		if op.isGet && !op.done {
			td.Fatalf(t, "%s while %s waits in Get: the item would go to whichever runs first", td.Cmd, op.name)
		}
	}
}

// hold notes an item got and not yet Done.
func (c *blockingCalls) hold(item string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = append(c.held, item)
}

// release forgets a held item, once Done.
func (c *blockingCalls) release(item string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.Index(c.held, item); i >= 0 {
		c.held = slices.Delete(c.held, i, i+1)
	}
}

// heldItems are the items held now.
func (c *blockingCalls) heldItems() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.held)
}
