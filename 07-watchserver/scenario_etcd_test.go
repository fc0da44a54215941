package watchserver_test

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	clientv3 "go.etcd.io/etcd/client/v3"

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
	{Name: "etcd-lease", Run: (*driver).etcdLease,
		Usage: `etcd-lease name=N
Reads, in etcd itself, the key of the current resource's object N: prints
"lease granted=SECONDS" when it is on a lease (how long etcd granted
it, not what is left), "no lease" when it lives until deleted.`,
		Example: "etcd-lease name=web.1"},
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

// etcdLease prints the lease of the current resource's object.
func (d *driver) etcdLease(t testing.TB, td *datadriven.TestData) string {
	ttl := d.target.Lease(t, path.Base(d.base), scenario.MustArg(t, td, "name"))
	if ttl == 0 {
		return "no lease"
	}
	return fmt.Sprintf("lease granted=%ds", int64(ttl/time.Second))
}

// etcdLease is how long etcd granted the lease key is on, 0 for none (or
// no key).
func etcdLease(t testing.TB, client *clientv3.Client, key string) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := client.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Kvs) == 0 || resp.Kvs[0].Lease == 0 {
		return 0
	}
	ttl, err := client.TimeToLive(ctx, clientv3.LeaseID(resp.Kvs[0].Lease))
	if err != nil {
		t.Fatal(err)
	}
	return time.Duration(ttl.GrantedTTL) * time.Second
}
