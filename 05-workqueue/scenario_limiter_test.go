package workqueue_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// limiterCommands ask a rate limiter alone, with no queue.
var limiterCommands = []scenario.Command[*driver]{
	{Name: "new-limiter", Run: (*driver).newLimiter,
		Usage: `new-limiter
Makes the file's rate limiter from the input, a call: exponential(base,
max), fast-slow(fast, slow, attempts), bucket(qps, burst), max-of(...),
max-wait(limiter, max), default-controller() or default-item-based().
Prints ok.`,
		Example: "new-limiter\nmax-of(exponential(5ms, 1000s), bucket(10, 100))"},
	{Name: "when", Run: (*driver).when,
		Usage: `when ITEM ... [repeat=N]
When for each item, N times: ITEM DELAY a line, a run of equal answers as
one line with its count (×N).`,
		Example: "when a b repeat=3"},
	{Name: "when-each", Run: (*driver).whenEach,
		Usage: `when-each n=N
One When for each of N items, item-0 to item-(N-1); a run of equal
answers prints as one line, FIRST…LAST DELAY.`,
		Example: "when-each n=105"},
	{Name: "limiter-forget", Run: (*driver).limiterForget,
		Usage:   "limiter-forget ITEM ...\nForget each item; prints ok.",
		Example: "limiter-forget a"},
	{Name: "limiter-requeues", Run: (*driver).limiterRequeues,
		Usage:   "limiter-requeues ITEM ...\nNumRequeues of each item: ITEM=N ...",
		Example: "limiter-requeues a"},
}

// rateLimiter is the file's limiter; a step before new-limiter is a
// mistake.
func (d *driver) rateLimiter(t testing.TB, td *datadriven.TestData) RateLimiter {
	if d.limiter == nil {
		td.Fatalf(t, "%s needs a limiter: use new-limiter", td.Cmd)
	}
	return d.limiter
}

func (d *driver) newLimiter(t testing.TB, td *datadriven.TestData) string {
	spec, err := parseLimiter(td.Input)
	if err != nil {
		td.Fatalf(t, "%v", err)
	}
	d.limiter = d.im.NewLimiter(spec)
	return "ok"
}

func (d *driver) when(t testing.TB, td *datadriven.TestData) string {
	limiter := d.rateLimiter(t, td)
	repeat := 1
	td.MaybeScanArgs(t, "repeat", &repeat)
	var out []string
	for _, item := range items(td) {
		if item != "repeat" {
			out = append(out, whenRuns(limiter, item, repeat)...)
		}
	}
	return strings.Join(out, "\n")
}

// whenRuns asks When(item) repeat times; consecutive equal answers print
// once, with a count.
func whenRuns(limiter RateLimiter, item string, repeat int) []string {
	var out []string
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
		w := limiter.When(item)
		if n > 0 && w != last {
			flush()
			n = 0
		}
		last = w
		n++
	}
	flush()
	return out
}

func (d *driver) whenEach(t testing.TB, td *datadriven.TestData) string {
	limiter := d.rateLimiter(t, td)
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
		w := limiter.When(item)
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
}

func (d *driver) limiterForget(t testing.TB, td *datadriven.TestData) string {
	for _, item := range items(td) {
		d.rateLimiter(t, td).Forget(item)
	}
	return "ok"
}

func (d *driver) limiterRequeues(t testing.TB, td *datadriven.TestData) string {
	var out []string
	for _, item := range items(td) {
		out = append(out, fmt.Sprintf("%s=%d", item, d.rateLimiter(t, td).NumRequeues(item)))
	}
	return strings.Join(out, " ")
}
