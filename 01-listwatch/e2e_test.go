//go:build !walkthrough_standin

// The end-to-end tests need a real cluster and never judge an exercise
// copy: a check builds without them (the tag walkthrough_standin), which
// keeps client-go's clientsets out of its binary and its link short.

package listwatch_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	ours "example.com/walkthrough/01-listwatch"
	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/workshop/cluster"
)

// End-to-end tests: our net/http ListerWatcher and our Reflector against a
// real kube-apiserver. Run them with `make e2e` (docs/e2e.md).

type e2eEnv struct {
	ctx    context.Context
	cs     *kubernetes.Clientset
	ns     string
	client *ours.Client
}

func e2eSetup(t *testing.T) e2eEnv {
	cfg := cluster.Require(t)
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ns := cluster.Namespace(t, cs.CoreV1())
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	return e2eEnv{ctx: ctx, cs: cs, ns: ns, client: &ours.Client{
		HTTP: hc, Base: cfg.Host, Path: "/api/v1/namespaces/" + ns + "/configmaps", Kind: ours.Typed[corev1.ConfigMap]("ConfigMap"),
	}}
}

func (e e2eEnv) createConfigMaps(t *testing.T, n int) string {
	t.Helper()
	var rv string
	for i := range n {
		cm, err := e.cs.CoreV1().ConfigMaps(e.ns).Create(e.ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%02d", i)}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rv = cm.ResourceVersion
	}
	return rv
}

func nextOf(t *testing.T, w ours.Watcher) ours.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("the watch closed")
		}
		return ev
	case <-time.After(30 * time.Second):
		t.Fatal("no event within 30s")
	}
	return ours.Event{}
}

// Our pager visits every object once, from one snapshot, in pages of 2.
func TestE2EListAllPages(t *testing.T) {
	e := e2eSetup(t)
	e.createConfigMaps(t, 7)
	list, paginated, err := ours.ListAll(e.ctx, e.client, metav1.ListOptions{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, obj := range list.Items {
		seen[obj.(*corev1.ConfigMap).Name]++
	}
	if !paginated || len(list.Items) != 7 || len(seen) != 7 || list.ResourceVersion == "" {
		t.Errorf("paginated=%t items=%d distinct=%d rv=%q", paginated, len(list.Items), len(seen), list.ResourceVersion)
	}
}

// A watch from a list's resource version sees exactly what came after it.
func TestE2EWatchFromListVersion(t *testing.T) {
	e := e2eSetup(t)
	rv := e.createConfigMaps(t, 2)
	w, err := e.client.Watch(e.ctx, metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := e.cs.CoreV1().ConfigMaps(e.ns).Delete(e.ctx, "cm-00", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	for {
		ev := nextOf(t, w)
		if ev.Type == ours.Bookmark {
			continue
		}
		if ev.Type != ours.Deleted || ev.Object.(*corev1.ConfigMap).Name != "cm-00" {
			t.Errorf("first event: %s %v", ev.Type, ev.Object)
		}
		return
	}
}

// A streaming list: initial ADDED events, then the annotated bookmark.
func TestE2EWatchListInitialEventsEnd(t *testing.T) {
	e := e2eSetup(t)
	e.createConfigMaps(t, 3)
	w, err := e.client.Watch(e.ctx, metav1.ListOptions{SendInitialEvents: ptr.To(true), AllowWatchBookmarks: true,
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	added := 0
	for {
		ev := nextOf(t, w)
		if ev.Type == ours.Added {
			added++
			continue
		}
		cm, _ := ev.Object.(*corev1.ConfigMap)
		if ev.Type != ours.Bookmark || cm == nil || cm.Annotations[metav1.InitialEventsAnnotationKey] != "true" {
			t.Fatalf("after %d ADDED, got %s %v", added, ev.Type, ev.Object)
		}
		break
	}
	if added != 3 {
		t.Errorf("initial events: %d ADDED, want 3", added)
	}
}

// After an etcd compaction, a watch from an old version ends with a typed
// 410 our Reflector recognises.
func TestE2EWatchAfterCompactionIsTyped410(t *testing.T) {
	e := e2eSetup(t)
	etcd := cluster.RequireEtcd(t)
	// PodTemplates, because the API server's watch cache keeps serving
	// other resources' old versions after etcd compacts (see
	// cluster.CompactEtcd); PodTemplates are watched straight from etcd.
	templates := e.cs.CoreV1().PodTemplates(e.ns)
	create := func(name string) string {
		pt, err := templates.Create(e.ctx, &corev1.PodTemplate{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "c", Image: "registry.k8s.io/pause"}},
			}},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return pt.ResourceVersion
	}
	// Compaction keeps the revision it compacts at; writes after "first"
	// push that revision past first's successor, so first's is gone.
	old := create("first")
	for i := range 3 {
		create(fmt.Sprintf("later-%d", i))
	}
	if _, err := cluster.CompactEtcd(e.ctx, etcd); err != nil {
		t.Fatal(err)
	}
	client := *e.client
	client.Path = "/api/v1/namespaces/" + e.ns + "/podtemplates"
	client.Kind = ours.Typed[corev1.PodTemplate]("PodTemplate")
	w, err := client.Watch(e.ctx, metav1.ListOptions{ResourceVersion: old, TimeoutSeconds: ptr.To(int64(10))})
	if err == nil {
		defer w.Stop()
		ev := nextOf(t, w)
		err = ev.Err
	}
	if !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
		t.Fatalf("watch from %s after compaction: want 410, got %v", old, err)
	}
	var se *ours.StatusError
	if se, _ = err.(*ours.StatusError); se == nil || se.ErrStatus.Code != http.StatusGone {
		t.Errorf("want a *StatusError with code 410, got %T %v", err, err)
	}
}

// Our Reflector, with and without WatchList, agrees with client-go's
// SharedIndexInformer after a burst of writes.
func TestE2EReflectorMatchesInformer(t *testing.T) {
	for _, watchList := range []bool{false, true} {
		t.Run(fmt.Sprintf("watchlist=%t", watchList), func(t *testing.T) {
			e := e2eSetup(t)
			idx := indexer.NewIndexer(indexer.MetaNamespaceKeyFunc, indexer.Indexers{})
			r := ours.NewReflector(e.client, &corev1.ConfigMap{}, idx, ours.ReflectorOptions{UseWatchList: watchList})
			factory := informers.NewSharedInformerFactoryWithOptions(e.cs, 0, informers.WithNamespace(e.ns))
			informer := factory.Core().V1().ConfigMaps().Informer()
			ctx, cancel := context.WithCancel(e.ctx)
			done := make(chan struct{})
			go func() { defer close(done); r.Run(ctx) }()
			factory.Start(ctx.Done())
			defer func() { cancel(); <-done; factory.Shutdown() }()

			cms := e.cs.CoreV1().ConfigMaps(e.ns)
			cluster.ConfigMapBurst(t, ctx, cms, 30)
			cluster.WaitForSameCaches(t, ctx, cms, map[string]cache.Store{
				"01-listwatch Reflector": storeView{idx},
				"SharedIndexInformer":    informer.GetStore(),
			})
		})
	}
}

// storeView shows chapter 03's indexer as a client-go cache.Store; the
// method sets match.
type storeView struct{ indexer.Indexer }

var _ cache.Store = storeView{}
