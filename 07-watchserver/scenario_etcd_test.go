package watchserver_test

import (
	"strconv"
	"testing"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// etcdCommands act on etcd itself, below any API server and cache.
var etcdCommands = []scenario.Command[*driver]{
	{Name: "watch-etcd", Run: (*driver).watchEtcd,
		Usage: `watch-etcd id=W rv=RV
Opens the watch W on etcd itself, from the revision labelled RV, read with
events and end like an HTTP watch: chapter 07's exercise 3 on its own.
Prints "watching etcd".`,
		Example: "watch-etcd id=e rv=r1"},
	{Name: "compact", Run: (*driver).compact,
		Usage: `compact
Compacts etcd at its current revision. Prints ok.`},
}

// watchEtcd opens a watch on etcd itself. No API server and no cache are
// involved.
func (d *driver) watchEtcd(t testing.TB, td *datadriven.TestData) string {
	if d.target.WatchEtcd == nil {
		td.Fatalf(d.t, "this target cannot watch etcd")
	}
	rv, err := strconv.ParseInt(d.norm.value(scenario.Arg(t, td, "rv")), 10, 64)
	if err != nil {
		td.Fatalf(d.t, "watch-etcd needs rv=<a known revision label>: %v", err)
	}
	events, stop := d.target.WatchEtcd(d.t, rv)
	d.watches[scenario.Arg(t, td, "id")] = &openWatch{raw: events, body: closerFunc(stop)}
	return "watching etcd"
}

// closerFunc is a func() as an io.Closer.
type closerFunc func()

func (f closerFunc) Close() error { f(); return nil }

func (d *driver) compact(t testing.TB, _ *datadriven.TestData) string {
	d.target.Compact(t)
	return "ok"
}
