package workqueue_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// delayCommands are the delaying and rate-limiting queues' own methods,
// time, and the metrics.
var delayCommands = []scenario.Command[*driver]{
	{Name: "add-after", Run: (*driver).addAfter,
		Usage:   "add-after ITEM=DURATION ...\nAddAfter each item (a delaying queue); prints len=N.",
		Example: "add-after a=250ms b=1s"},
	{Name: "add-rate-limited", Run: (*driver).eachRateLimited,
		Usage:   "add-rate-limited ITEM ...\nAddRateLimited each item (a rate-limiting queue); prints len=N.",
		Example: "add-rate-limited a"},
	{Name: "forget", Run: (*driver).eachRateLimited,
		Usage:   "forget ITEM ...\nForget each item (a rate-limiting queue); prints len=N.",
		Example: "forget a"},
	{Name: "num-requeues", Run: (*driver).numRequeues,
		Usage:   "num-requeues ITEM ...\nNumRequeues of each item (a rate-limiting queue): ITEM=N ...",
		Example: "num-requeues a b"},
	{Name: "advance", Run: (*driver).advance,
		Usage:   "advance DURATION\nLets time pass in the bubble; prints t=TIME since the file began, and len=N with a queue.",
		Example: "advance 250ms"},
	{Name: "metrics", Run: (*driver).metrics,
		Usage: "metrics\nThe queue's metrics, by Prometheus name (a named queue's only)."},
}

// need refuses a step the file's kind of queue has no method for.
func need(t testing.TB, td *datadriven.TestData, ok bool, what string) {
	if !ok {
		td.Fatalf(t, "%s needs a %s queue", td.Cmd, what)
	}
}

func (d *driver) addAfter(t testing.TB, td *datadriven.TestData) string {
	q := d.queue(t, td)
	need(t, td, q.AddAfter != nil, "delaying")
	for _, a := range td.CmdArgs {
		if len(a.Vals) != 1 {
			td.Fatalf(t, "add-after wants item=duration, got %s", a)
		}
		dur, err := time.ParseDuration(a.Vals[0])
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		q.AddAfter(a.Key, dur)
	}
	return d.length(t, td)
}

// eachRateLimited calls AddRateLimited or Forget (the command's) with
// each item.
func (d *driver) eachRateLimited(t testing.TB, td *datadriven.TestData) string {
	q := d.queue(t, td)
	call := map[string]func(string){"add-rate-limited": q.AddRateLimited, "forget": q.Forget}[td.Cmd]
	need(t, td, call != nil, "rate-limiting")
	for _, item := range items(td) {
		call(item)
	}
	return d.length(t, td)
}

func (d *driver) numRequeues(t testing.TB, td *datadriven.TestData) string {
	q := d.queue(t, td)
	need(t, td, q.NumRequeues != nil, "rate-limiting")
	var out []string
	for _, item := range items(td) {
		out = append(out, fmt.Sprintf("%s=%d", item, q.NumRequeues(item)))
	}
	return strings.Join(out, " ")
}

func (d *driver) advance(t testing.TB, td *datadriven.TestData) string {
	time.Sleep(scenario.Advance(t, td))
	synctest.Wait()
	s := fmt.Sprintf("t=%s", time.Since(d.start))
	if d.q != nil {
		s += " " + d.length(t, td)
	}
	return s
}

func (d *driver) metrics(t testing.TB, td *datadriven.TestData) string {
	q := d.queue(t, td)
	if q.Metrics == nil {
		return "(unnamed queue: no metrics)"
	}
	return strings.TrimSuffix(formatMetrics(q.Metrics()), "\n")
}
