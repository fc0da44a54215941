package watchserver_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	ws "example.com/walkthrough/07-watchserver"
)

func cm(ns, name, value string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string]string{"v": value}}
}

func TestStorageCreateUpdateDeleteList(t *testing.T) {
	t.Parallel() // its own etcd and server: it waits beside the others
	e := startEtcd(t)
	st := ws.NewStorage(e.Client)
	ctx := context.Background()

	a, err := cmOf(st.Create(ctx, cm("ns", "a", "1")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Create(ctx, cm("ns", "a", "1")); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("second create: want AlreadyExists, got %v", err)
	}
	// The value etcd holds is kube-apiserver's protobuf envelope.
	raw, err := e.Client.Get(ctx, ws.ConfigMaps.Key("ns", "a"))
	if err != nil || len(raw.Kvs) != 1 || !strings.HasPrefix(string(raw.Kvs[0].Value), "k8s\x00") {
		t.Fatalf("stored value: want the k8s\\x00 envelope, got %v %q", err, raw.Kvs)
	}
	if got := a.ResourceVersion; got != "2" {
		t.Errorf("first write on a fresh etcd: rv %s, want 2", got)
	}
	b := a.DeepCopy()
	b.Data["v"] = "2"
	b, err = cmOf(st.Update(ctx, b))
	if err != nil {
		t.Fatal(err)
	}
	stale := a.DeepCopy()
	stale.Data["v"] = "3"
	_, err = cmOf(st.Update(ctx, stale))
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), `configmaps "a": the object has been modified`) {
		t.Fatalf("stale update: want 409 Conflict, got %v", err)
	}
	same, err := cmOf(st.Update(ctx, b))
	if err != nil || same.ResourceVersion != b.ResourceVersion {
		t.Fatalf("no-op update: want rv %s unchanged, got %v %v", b.ResourceVersion, same, err)
	}
	if _, err := st.Create(ctx, cm("other", "x", "1")); err != nil {
		t.Fatal(err)
	}
	list, err := cmListOf(st.List(ctx, "ns", ws.PageOptions{}))
	if err != nil || len(list.Items) != 1 || list.ResourceVersion != "4" {
		t.Fatalf("list ns: want one item at rv 4, got %+v %v", list, err)
	}
	del, err := cmOf(st.Delete(ctx, "ns", "a"))
	if err != nil || del.ResourceVersion != "5" || del.Data["v"] != "2" {
		t.Fatalf("delete: want the last state at rv 5, got %+v %v", del, err)
	}
	if _, err := st.Get(ctx, "ns", "a"); !apierrors.IsNotFound(err) {
		t.Fatalf("get after delete: want NotFound, got %v", err)
	}
}

func TestEtcdWatchFromRevisionAndCompaction(t *testing.T) {
	t.Parallel() // its own etcd and server: it waits beside the others
	e := startEtcd(t)
	st := ws.NewStorage(e.Client)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, _ := cmOf(st.Create(ctx, cm("ns", "a", "1")))
	a.Data["v"] = "2"
	_, _ = st.Update(ctx, a)
	_, _ = st.Delete(ctx, "ns", "a")

	var got []string
	ch := ws.WatchEtcd(ctx, e.Client, ws.ConfigMaps, 2) // from after the create
	for range 2 {
		ev := <-ch
		got = append(got, string(ev.Type)+" "+asCM(ev.Object).Data["v"]+" "+asCM(ev.Object).ResourceVersion)
	}
	if want := "MODIFIED 2 3,DELETED 2 4"; strings.Join(got, ",") != want {
		t.Fatalf("events: got %v, want %s", got, want)
	}
	if _, err := st.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	ev := <-ws.WatchEtcd(ctx, e.Client, ws.ConfigMaps, 1)
	if ev.Type != watch.Error || ev.Status.Code != 410 || ev.Status.Reason != metav1.StatusReasonExpired ||
		ev.Status.Message != "The resourceVersion for the provided watch is too old." {
		t.Fatalf("watch below the compaction: want 410 Expired, got %+v", ev)
	}
}

// TestPageAfterCompaction: once etcd has compacted a paged list's
// revision, the next page is a 410 whose Status carries a token that goes
// on from the same key at the latest revision. kube-apiserver 1.37 answers
// the same 410, but only once it has dropped the snapshot of its watch
// cache at that revision: its cacher reads the compacted revision every
// 15 s (pkg/storage/cacher/compactor.go), so for up to about 15 s after a
// compaction it still serves the page, and longer after a compaction it
// did not record itself (docs/07-watchserver.md, "How kube-apiserver
// differs"). Ours keeps no snapshots, so no scenario can hold this for
// both.
func TestPageAfterCompaction(t *testing.T) {
	t.Parallel() // its own etcd and server: it waits beside the others
	e := startEtcd(t)
	st := ws.NewStorage(e.Client)
	ctx := context.Background()
	for _, name := range []string{"a", "b", "c"} {
		if _, err := st.Create(ctx, cm("ns", name, "1")); err != nil {
			t.Fatal(err)
		}
	}
	first, err := cmListOf(st.List(ctx, "ns", ws.PageOptions{Limit: 1}))
	if err != nil || len(first.Items) != 1 || first.Continue == "" || *first.RemainingItemCount != 2 {
		t.Fatalf("first page: want a, a token and 2 left, got %+v %v", first, err)
	}
	if _, err := st.Create(ctx, cm("ns", "d", "1")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = cmListOf(st.List(ctx, "ns", ws.PageOptions{Limit: 1, Continue: first.Continue}))
	var status apierrors.APIStatus
	if !apierrors.IsResourceExpired(err) || !errors.As(err, &status) || status.Status().Continue == "" {
		t.Fatalf("next page after compaction: want 410 Expired with a token at once (kube-apiserver serves the page from a cache snapshot for up to ~15 s more; ours keeps none), got %v", err)
	}
	rest, err := cmListOf(st.List(ctx, "ns", ws.PageOptions{Continue: status.Status().Continue}))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, item := range rest.Items {
		names = append(names, item.Name)
	}
	if strings.Join(names, " ") != "b c d" {
		t.Fatalf("going on at the latest revision: want b c d (d is new: the list is no longer one snapshot), got %v", names)
	}
}

// TestExactListAfterCompaction: a list at a version etcd has compacted
// (Exact, or limit with a past version) is a 410 at once. kube-apiserver
// answers it from a snapshot of its watch cache while it still holds one
// (list-at-version.txt stops before compaction for this reason), and
// with the same 410 once it does not.
func TestExactListAfterCompaction(t *testing.T) {
	t.Parallel() // its own etcd and server: it waits beside the others
	e := startEtcd(t)
	st := ws.NewStorage(e.Client)
	ctx := context.Background()
	a, err := cmOf(st.Create(ctx, cm("ns", "a", "1")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Create(ctx, cm("ns", "b", "1")); err != nil {
		t.Fatal(err)
	}
	rev, _ := strconv.ParseInt(a.ResourceVersion, 10, 64)
	then, err := cmListOf(st.List(ctx, "ns", ws.PageOptions{Limit: 5, Revision: rev}))
	if err != nil || len(then.Items) != 1 || then.ResourceVersion != a.ResourceVersion {
		t.Fatalf("list at a's version: want a alone at %s, got %+v %v", a.ResourceVersion, then, err)
	}
	if _, err := st.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = cmListOf(st.List(ctx, "ns", ws.PageOptions{Revision: rev}))
	if !apierrors.IsResourceExpired(err) || !strings.Contains(err.Error(), "The resourceVersion for the provided list is too old.") {
		t.Fatalf("exact list after compaction: want 410 %q, got %v", "The resourceVersion for the provided list is too old.", err)
	}
}

// TestEventsShareALease: Events are written on an etcd lease of an hour
// and a minute (ttl.go), the writes of a minute on the same one, as
// kube-apiserver's lease manager reuses its leases; an update puts the
// key on a lease again (etcd would otherwise take it off); a ConfigMap,
// which has no TTL, is on none.
func TestEventsShareALease(t *testing.T) {
	t.Parallel() // its own etcd: it waits beside the others
	e := startEtcd(t)
	st := ws.NewStorage(e.Client)
	events := st.For(ws.Events)
	ctx := context.Background()
	leaseOf := func(key string) int64 {
		t.Helper()
		resp, err := e.Client.Get(ctx, key)
		if err != nil || len(resp.Kvs) != 1 {
			t.Fatalf("%s: %v (%d keys)", key, err, len(resp.Kvs))
		}
		return resp.Kvs[0].Lease
	}
	event := func(name, message string) *corev1.Event {
		return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}, Reason: "Created", Message: message}
	}
	for _, name := range []string{"web.1", "web.2"} {
		if _, err := events.Create(ctx, event(name, "Created Deployment web")); err != nil {
			t.Fatal(err)
		}
	}
	first := leaseOf(ws.Events.Key("ns", "web.1"))
	if first == 0 {
		t.Fatal("an Event was written on no lease")
	}
	if second := leaseOf(ws.Events.Key("ns", "web.2")); second != first {
		t.Errorf("two Events written a moment apart are on leases %x and %x, want one shared", first, second)
	}
	ttl, err := e.Client.TimeToLive(ctx, clientv3.LeaseID(first))
	if err != nil || ttl.GrantedTTL != 3660 {
		t.Errorf("the lease was granted for %d s (%v), want 3660: the TTL and a minute's slack", ttl.GrantedTTL, err)
	}
	if _, err := events.Update(ctx, event("web.1", "Created Deployment web again")); err != nil {
		t.Fatal(err)
	}
	if got := leaseOf(ws.Events.Key("ns", "web.1")); got == 0 {
		t.Error("an updated Event is on no lease: it would never expire")
	}
	if _, err := st.Create(ctx, cm("ns", "a", "1")); err != nil {
		t.Fatal(err)
	}
	if got := leaseOf(ws.ConfigMaps.Key("ns", "a")); got != 0 {
		t.Errorf("a ConfigMap is on lease %x, want none", got)
	}
}
