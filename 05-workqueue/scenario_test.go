package workqueue_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// scenarioImpls is what the scenario runner starts: one driver per file.
var scenarioImpls = scenario.Impls{}

// TestScenarios plays testdata/scenarios/*.txt against the implementation
// chosen with WALKTHROUGH_IMPL (reference, exercise or client-go). Each
// file runs in its own synctest bubble: time stands still until a step
// says `advance`, so every delay and backoff in a trace is exact.
func TestScenarios(t *testing.T) {
	scenario.Run(t, scenarioImpls, scenario.Options{Bubble: true})
}

// driver plays the commands of one scenario file against one queue and
// one rate limiter. The commands:
//
//	new-queue kind=plain|delaying|rate-limiting [name=q]   (a rate limiter on the next line)
//	add a b …              Add each; prints len
//	get [n=2]              Get, n times; refuses to block
//	go-get w1 …            a Get in a goroutine named w1
//	done a b …             Done each; prints len
//	drain                  Get and Done everything queued, in order
//	len, shutting-down, shutdown, shutdown-with-drain, go-shutdown-with-drain d
//	add-after a=250ms …    AddAfter each
//	add-rate-limited a …, forget a …, num-requeues a …
//	advance 250ms          let time pass; prints the time and len
//	metrics                the queue's metrics, by Prometheus name
//	new-limiter            a rate limiter alone (on the next line)
//	when a … [repeat=n], when-each n=105, limiter-forget a …, limiter-requeues a …
//
// Calls that block (Get on an empty queue, ShutDownWithDrain while a
// worker holds an item) run in goroutines the scenario names (`go-get
// w1`). After every step the driver waits for the bubble to settle, then
// reports what those goroutines did during the step ("w1 got a").
type driver struct {
	im      impl
	q       *handle
	limiter RateLimiter
	start   time.Time

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

func newDriver(t testing.TB, im impl) scenario.Driver {
	d := &driver{im: im, start: time.Now()}
	t.Cleanup(d.cleanup)
	return d.step
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
	d.mu.Lock()
	held := slices.Clone(d.held)
	d.mu.Unlock()
	for _, item := range held {
		protect(func() { d.q.Done(item) })
	}
}

func (d *driver) step(t testing.TB, td *datadriven.TestData) string {
	out := d.run(t, td)
	if events := d.settle(); events != "" {
		out = strings.TrimPrefix(out+"\n"+events, "\n")
	}
	return out
}

// settle waits until every goroutine in the bubble is blocked, passes on
// a panic one of ours hit, and reports the blocking calls that returned.
func (d *driver) settle() string {
	synctest.Wait()
	d.mu.Lock()
	defer d.mu.Unlock()
	if p := d.panicked; p != nil {
		d.panicked = nil
		panic(p)
	}
	var events []string
	for _, op := range d.ops {
		if op.done && !op.reported {
			op.reported = true
			events = append(events, op.name+" "+op.result)
		}
	}
	return strings.Join(events, "\n")
}

// goCall runs call in a goroutine as the blocking call name.
func (d *driver) goCall(name string, isGet bool, call func() string) {
	op := &asyncOp{name: name, isGet: isGet}
	d.mu.Lock()
	d.ops = append(d.ops, op)
	d.mu.Unlock()
	go func() {
		defer func() {
			if v := recover(); v != nil {
				d.mu.Lock()
				d.panicked = v
				d.mu.Unlock()
			}
		}()
		result := call()
		d.mu.Lock()
		op.done, op.result = true, result
		d.mu.Unlock()
	}()
}

// waiting lets the calls just started run as far as they can, and lists
// those that block. The ones that returned are reported by settle.
func (d *driver) waiting(started []*asyncOp) string {
	synctest.Wait()
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, op := range started {
		if !op.done {
			out = append(out, op.name+" waiting")
		}
	}
	return strings.Join(out, "\n")
}

func (d *driver) run(t testing.TB, td *datadriven.TestData) string {
	items := func() []string {
		var out []string
		for _, a := range td.CmdArgs {
			out = append(out, a.Key)
		}
		return out
	}
	queue := func() *handle {
		if d.q == nil {
			td.Fatalf(t, "%s needs a queue: start the file with new-queue", td.Cmd)
		}
		return d.q
	}
	need := func(ok bool, what string) {
		if !ok {
			td.Fatalf(t, "%s needs a %s queue", td.Cmd, what)
		}
	}
	limiter := func() RateLimiter {
		if d.limiter == nil {
			td.Fatalf(t, "%s needs a limiter: use new-limiter", td.Cmd)
		}
		return d.limiter
	}
	// length settles the bubble first: a goroutine woken by the step may
	// still be taking an item.
	// noWaitingGet refuses a step that would race a waiting go-get for
	// the next item: which one wins is up to the scheduler.
	noWaitingGet := func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, op := range d.ops {
			if op.isGet && !op.done {
				td.Fatalf(t, "%s while %s waits in Get: the item would go to whichever runs first", td.Cmd, op.name)
			}
		}
	}
	length := func() string {
		q := queue()
		synctest.Wait()
		return fmt.Sprintf("len=%d", q.Len())
	}

	switch td.Cmd {
	case "new-queue":
		if d.q != nil {
			td.Fatalf(t, "one queue per scenario file")
		}
		var kind, name string
		td.ScanArgs(t, "kind", &kind)
		td.MaybeScanArgs(t, "name", &name)
		var spec *limiterSpec
		if kind == rateLimitingQueue {
			var err error
			if spec, err = parseLimiter(td.Input); err != nil {
				td.Fatalf(t, "%v", err)
			}
		}
		q := d.im.NewQueue(kind, name, spec)
		d.q = &q
		return "ok"

	case "add":
		for _, item := range items() {
			queue().Add(item)
		}
		return length()

	case "len":
		return length()

	case "get":
		noWaitingGet()
		n := 1
		td.MaybeScanArgs(t, "n", &n)
		var out []string
		for range n {
			if queue().Len() == 0 && !queue().ShuttingDown() {
				out = append(out, "(would block: use go-get)")
				break
			}
			item, shutdown := queue().Get()
			if shutdown {
				out = append(out, fmt.Sprintf("(shutdown, item %q)", item))
				continue
			}
			d.mu.Lock()
			d.held = append(d.held, item)
			d.mu.Unlock()
			out = append(out, item)
		}
		return strings.Join(out, "\n")

	case "go-get":
		var started []*asyncOp
		for _, name := range items() {
			d.goCall(name, true, func() string {
				item, shutdown := queue().Get()
				if shutdown {
					return fmt.Sprintf("got shutdown (item %q)", item)
				}
				d.mu.Lock()
				d.held = append(d.held, item)
				d.mu.Unlock()
				return "got " + item
			})
			started = append(started, d.ops[len(d.ops)-1])
		}
		return d.waiting(started)

	case "done":
		for _, item := range items() {
			d.mu.Lock()
			if i := slices.Index(d.held, item); i >= 0 {
				d.held = slices.Delete(d.held, i, i+1)
			}
			d.mu.Unlock()
			queue().Done(item)
		}
		return length()

	case "drain":
		// Get and Done everything queued, without blocking.
		noWaitingGet()
		var got []string
		for queue().Len() > 0 {
			item, _ := queue().Get()
			queue().Done(item)
			got = append(got, item)
		}
		if len(got) == 0 {
			return "(empty)"
		}
		return strings.Join(got, " ")

	case "shutdown":
		queue().ShutDown()
		return length()

	case "shutdown-with-drain":
		d.mu.Lock()
		held := slices.Clone(d.held)
		d.mu.Unlock()
		if len(held) > 0 {
			return fmt.Sprintf("(would block: %s held; use go-shutdown-with-drain)", strings.Join(held, " "))
		}
		queue().ShutDownWithDrain()
		return length()

	case "go-shutdown-with-drain":
		name := items()[0]
		d.goCall(name, false, func() string {
			queue().ShutDownWithDrain()
			return "returned"
		})
		return d.waiting(d.ops[len(d.ops)-1:])

	case "shutting-down":
		return fmt.Sprint(queue().ShuttingDown())

	case "add-after":
		need(queue().AddAfter != nil, "delaying")
		for _, a := range td.CmdArgs {
			if len(a.Vals) != 1 {
				td.Fatalf(t, "add-after wants item=duration, got %s", a)
			}
			dur, err := time.ParseDuration(a.Vals[0])
			if err != nil {
				td.Fatalf(t, "%v", err)
			}
			queue().AddAfter(a.Key, dur)
		}
		return length()

	case "add-rate-limited":
		need(queue().AddRateLimited != nil, "rate-limiting")
		for _, item := range items() {
			queue().AddRateLimited(item)
		}
		return length()

	case "forget":
		need(queue().Forget != nil, "rate-limiting")
		for _, item := range items() {
			queue().Forget(item)
		}
		return length()

	case "num-requeues":
		need(queue().NumRequeues != nil, "rate-limiting")
		var out []string
		for _, item := range items() {
			out = append(out, fmt.Sprintf("%s=%d", item, queue().NumRequeues(item)))
		}
		return strings.Join(out, " ")

	case "advance":
		if len(td.CmdArgs) != 1 {
			td.Fatalf(t, "advance wants one duration")
		}
		dur, err := time.ParseDuration(td.CmdArgs[0].Key)
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		time.Sleep(dur)
		synctest.Wait()
		s := fmt.Sprintf("t=%s", time.Since(d.start))
		if d.q != nil {
			s += " " + length()
		}
		return s

	case "metrics":
		if queue().Metrics == nil {
			return "(unnamed queue: no metrics)"
		}
		return strings.TrimSuffix(formatMetrics(queue().Metrics()), "\n")

	case "new-limiter":
		spec, err := parseLimiter(td.Input)
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		d.limiter = d.im.NewLimiter(spec)
		return "ok"

	case "when":
		// Consecutive equal answers print once, with a count.
		limiter()
		repeat := 1
		td.MaybeScanArgs(t, "repeat", &repeat)
		var out []string
		for _, item := range items() {
			if item == "repeat" {
				continue
			}
			var last time.Duration
			n := 0
			flush := func() {
				switch {
				case n == 1:
					out = append(out, fmt.Sprintf("%s %s", item, last))
				case n > 1:
					out = append(out, fmt.Sprintf("%s %s (×%d)", item, last, n))
				}
			}
			for range repeat {
				w := d.limiter.When(item)
				if n > 0 && w != last {
					flush()
					n = 0
				}
				last = w
				n++
			}
			flush()
		}
		return strings.Join(out, "\n")

	case "when-each":
		// One When for each of n items, item-0 to item-(n-1); runs of
		// equal answers print as one line.
		limiter()
		var n int
		td.ScanArgs(t, "n", &n)
		var out []string
		first, last := "", time.Duration(-1)
		prev := ""
		flush := func() {
			if first == "" {
				return
			}
			if first == prev {
				out = append(out, fmt.Sprintf("%s %s", first, last))
			} else {
				out = append(out, fmt.Sprintf("%s…%s %s", first, prev, last))
			}
		}
		for i := range n {
			item := fmt.Sprintf("item-%d", i)
			w := d.limiter.When(item)
			if first != "" && w != last {
				flush()
				first = ""
			}
			if first == "" {
				first = item
			}
			last, prev = w, item
		}
		flush()
		return strings.Join(out, "\n")

	case "limiter-forget":
		for _, item := range items() {
			limiter().Forget(item)
		}
		return "ok"

	case "limiter-requeues":
		var out []string
		for _, item := range items() {
			out = append(out, fmt.Sprintf("%s=%d", item, limiter().NumRequeues(item)))
		}
		return strings.Join(out, " ")
	}
	td.Fatalf(t, "unknown command %q", td.Cmd)
	return ""
}
