package cluster_test

// End-to-end tests of the API server behaviours the informer chapters build on. Each one runs
// against the real kube-apiserver that `make e2e` starts, and skips without it (see Require).
// They are ordered as a learner meets the ideas: paged lists, watches from a resourceVersion,
// bookmarks, 410 Gone after compaction, and finally a Reflector keeping a cache in step.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"

	"example.com/walkthrough/workshop/cluster"
)

// env is what every test here needs: a client, a fresh namespace, and a deadline.
type env struct {
	ctx context.Context
	cs  kubernetes.Interface
	ns  string
	cms typedcorev1.ConfigMapInterface // the namespace's ConfigMaps, the objects every test uses
}

func setup(t *testing.T) env {
	t.Helper()
	cfg := cluster.Require(t)
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ns := cluster.Namespace(t, cs.CoreV1())
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	return env{ctx: ctx, cs: cs, ns: ns, cms: cs.CoreV1().ConfigMaps(ns)}
}

// create makes ConfigMap name and returns it as stored (with its resourceVersion).
func (e env) create(t *testing.T, name string) *corev1.ConfigMap {
	t.Helper()
	cm, err := e.cms.Create(e.ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Data:       map[string]string{"v": "0"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating ConfigMap %s: %v", name, err)
	}
	return cm
}

// update changes one ConfigMap's data, which gives it a new resourceVersion.
func (e env) update(t *testing.T, cm *corev1.ConfigMap, v string) *corev1.ConfigMap {
	t.Helper()
	cm = cm.DeepCopy()
	cm.Data["v"] = v
	cm, err := e.cms.Update(e.ctx, cm, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("updating ConfigMap: %v", err)
	}
	return cm
}

// next reads one event from w, failing the test if none comes within 30 seconds.
func next(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("the watch closed before the expected event")
		}
		return ev
	case <-time.After(30 * time.Second):
		t.Fatal("no watch event within 30s")
	}
	panic("unreachable")
}

// describe prints an event as "ADDED b" for failure messages and comparisons.
func describe(ev watch.Event) string {
	if m, err := meta.Accessor(ev.Object); err == nil {
		return fmt.Sprintf("%s %s", ev.Type, m.GetName())
	}
	return fmt.Sprintf("%s %T", ev.Type, ev.Object)
}

// A LIST with Limit returns one page and a continue token; following the tokens visits every
// object exactly once, from one consistent snapshot: an object created between pages is not
// in the remaining pages, because they are read at the first page's resourceVersion.
func TestE2EListPagesSeeEveryItemOnce(t *testing.T) {
	e := setup(t)
	var want []string
	for i := range 10 {
		want = append(want, e.create(t, fmt.Sprintf("cm-%02d", i)).Name)
	}

	var got []string
	var pages int
	opts := metav1.ListOptions{Limit: 3}
	for {
		page, err := e.cms.List(e.ctx, opts)
		if err != nil {
			t.Fatalf("list page %d: %v", pages+1, err)
		}
		pages++
		for _, cm := range page.Items {
			got = append(got, cm.Name)
		}
		if pages == 1 {
			e.create(t, "late") // after the snapshot: must not appear on later pages
		}
		if page.Continue == "" {
			break
		}
		opts.Continue = page.Continue
	}
	if pages != 4 {
		t.Errorf("10 objects at 3 a page came in %d pages, want 4", pages)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paged list (-want +got), every name once and in key order:\n%s", diff)
	}
}

// A WATCH from resourceVersion R delivers exactly the changes after R, in order. A sentinel
// created last proves nothing else arrives before it.
func TestE2EWatchFromResourceVersion(t *testing.T) {
	e := setup(t)
	a := e.create(t, "a")
	b := e.create(t, "b") // R: everything up to here is history the watch must not replay
	e.create(t, "c")
	e.update(t, a, "1")
	if err := e.cms.Delete(e.ctx, "c", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	w, err := e.cms.Watch(e.ctx, metav1.ListOptions{ResourceVersion: b.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	e.create(t, "sentinel")

	var got []string
	for len(got) == 0 || got[len(got)-1] != "ADDED sentinel" {
		got = append(got, describe(next(t, w)))
	}
	want := []string{"ADDED c", "MODIFIED a", "DELETED c", "ADDED sentinel"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events after resourceVersion %s (-want +got):\n%s", b.ResourceVersion, diff)
	}
}

// Bookmarks tell a watcher "you are current up to this resourceVersion" without an object
// changing. Two kinds are checked: the one that ends the initial events of a streaming list
// (SendInitialEvents), which comes at once, and the one the API server sends shortly before a
// watch times out, so the client can resume from a fresh resourceVersion.
func TestE2EWatchBookmarks(t *testing.T) {
	e := setup(t)
	var last int64
	for _, name := range []string{"a", "b", "c"} {
		rv, _ := strconv.ParseInt(e.create(t, name).ResourceVersion, 10, 64)
		last = rv
	}

	t.Run("initial-events-end", func(t *testing.T) {
		w, err := e.cms.Watch(e.ctx, metav1.ListOptions{
			SendInitialEvents:    new(true),
			ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
			AllowWatchBookmarks:  true,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		var added []string
		for {
			ev := next(t, w)
			if ev.Type == watch.Added {
				added = append(added, describe(ev))
				continue
			}
			if ev.Type != watch.Bookmark {
				t.Fatalf("got %s, want ADDED events then a BOOKMARK", describe(ev))
			}
			m, _ := meta.Accessor(ev.Object)
			if m.GetAnnotations()[metav1.InitialEventsAnnotationKey] != "true" {
				t.Fatalf("bookmark without %s=true: %v", metav1.InitialEventsAnnotationKey, m.GetAnnotations())
			}
			checkRVAtLeast(t, m.GetResourceVersion(), last)
			break
		}
		slices.Sort(added)
		if diff := cmp.Diff([]string{"ADDED a", "ADDED b", "ADDED c"}, added); diff != "" {
			t.Errorf("initial events (-want +got):\n%s", diff)
		}
	})

	// A bookmark only goes out when the watched resource has moved past the watch's start, and
	// changes anywhere count: a ConfigMap made in another namespace moves every ConfigMap
	// watch forward, though none of them sees the object.
	t.Run("before-timeout", func(t *testing.T) {
		list, err := e.cms.List(e.ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		timeout := int64(6) // the bookmark is due 2s before the end
		w, err := e.cms.Watch(e.ctx, metav1.ListOptions{
			ResourceVersion:     list.ResourceVersion,
			AllowWatchBookmarks: true,
			TimeoutSeconds:      &timeout,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		other := cluster.Namespace(t, e.cs.CoreV1())
		elsewhere, err := e.cs.CoreV1().ConfigMaps(other).Create(e.ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "elsewhere"},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		elsewhereRV, _ := strconv.ParseInt(elsewhere.ResourceVersion, 10, 64)

		var bookmarks int
		for ev := range w.ResultChan() { // ends when the server closes the watch at the timeout
			if ev.Type != watch.Bookmark {
				t.Fatalf("got %s, want only bookmarks: nothing changed in this namespace", describe(ev))
			}
			m, _ := meta.Accessor(ev.Object)
			checkRVAtLeast(t, m.GetResourceVersion(), elsewhereRV)
			bookmarks++
		}
		if bookmarks == 0 {
			t.Errorf("a watch with AllowWatchBookmarks and TimeoutSeconds=%d ended without a bookmark", timeout)
		}
	})
}

// checkRVAtLeast checks a bookmark's resourceVersion against the last write it must cover.
// Comparing resourceVersions as numbers is for tests only: clients must treat them as opaque.
func checkRVAtLeast(t *testing.T, rv string, min int64) {
	t.Helper()
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || n < min {
		t.Errorf("bookmark resourceVersion %q, want a number >= %d (the last write)", rv, min)
	}
}

// Once etcd compacts its history, a watch from a resourceVersion before the compaction cannot
// be served: the API server answers 410 Gone (reason Expired). That is the moment a Reflector
// relists, and a relist plus a watch from the list's resourceVersion recovers.
//
// The test uses PodTemplates because the cluster serves their watches from etcd, not from the
// watch cache (see --watch-cache-sizes in up.go). A cached resource answers from its own
// window of recent events, and gives the same 410 only once that window has moved past the
// resourceVersion, which takes minutes.
func TestE2EWatchAfterCompactionIsGone(t *testing.T) {
	e := setup(t)
	etcd := cluster.RequireEtcd(t)
	pts := e.cs.CoreV1().PodTemplates(e.ns)
	create := func(name string) string {
		t.Helper()
		pt, err := pts.Create(e.ctx, &corev1.PodTemplate{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "c", Image: "example.invalid/never-pulled"}},
			}},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("creating PodTemplate %s: %v", name, err)
		}
		return pt.ResourceVersion
	}
	old := create("old")
	for i := range 5 {
		create(fmt.Sprintf("pt-%d", i))
	}
	rev, err := cluster.CompactEtcd(e.ctx, etcd)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compacted etcd at revision %d; watching from resourceVersion %s", rev, old)

	gone := watchError(e.ctx, pts, old)
	if gone == nil {
		t.Fatalf("a watch from resourceVersion %s after compaction at %d was served, want 410 Gone", old, rev)
	}
	if !apierrors.IsResourceExpired(gone) && !apierrors.IsGone(gone) {
		t.Fatalf("watch from a compacted resourceVersion failed with %v, want 410 Gone/Expired", gone)
	}
	t.Logf("as expected: %v", gone)

	// Recover as a Reflector does: LIST for a fresh resourceVersion, then WATCH from it.
	list, err := pts.List(e.ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 6 {
		t.Errorf("relist found %d PodTemplates, want 6", len(list.Items))
	}
	w, err := pts.Watch(e.ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	create("after")
	if got := describe(next(t, w)); got != "ADDED after" {
		t.Errorf("first event after relist: %s, want ADDED after", got)
	}
}

// watchError watches from rv and returns the error that ends it: either the WATCH request
// itself fails, or its first event is an ERROR. It returns nil when the watch is served
// instead (an object event first, or no error before a short timeout).
func watchError(ctx context.Context, pts typedcorev1.PodTemplateInterface, rv string) error {
	timeout := int64(5)
	w, err := pts.Watch(ctx, metav1.ListOptions{ResourceVersion: rv, TimeoutSeconds: &timeout})
	if err != nil {
		return err
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		if ev.Type == watch.Error {
			return apierrors.FromObject(ev.Object)
		}
		return nil
	}
	return nil
}

// A client-go Reflector feeding a plain Indexer and a SharedIndexInformer, both watching one
// namespace, end up with the same objects at the same resourceVersions after a burst of
// creates, updates and deletes, and both match a fresh LIST. Chapter 03 runs the same check
// with its own indexer in place of cache.NewIndexer (03-indexer/e2e_test.go).
func TestE2EReflectorMatchesInformer(t *testing.T) {
	e := setup(t)
	store := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	reflector := cache.NewReflector(cluster.ListWatch(e.cms), &corev1.ConfigMap{}, store, 0)
	factory := informers.NewSharedInformerFactoryWithOptions(e.cs, 0, informers.WithNamespace(e.ns))
	informer := factory.Core().V1().ConfigMaps().Informer()

	ctx, stop := context.WithCancel(e.ctx)
	go reflector.RunWithContext(ctx)
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	defer stop() // runs first: Shutdown waits for the informer, which stops with ctx

	cluster.ConfigMapBurst(t, e.ctx, e.cms, 30)

	cluster.WaitForSameCaches(t, e.ctx, e.cms, map[string]cache.Store{
		"reflector+cache.NewIndexer": store,
		"SharedIndexInformer":        informer.GetStore(),
	})
}
