//go:build !walkthrough_standin

// The end-to-end tests need a real cluster and never judge an exercise
// copy: a check builds without them (the tag walkthrough_standin), which
// keeps client-go's clientsets out of its binary and its link short.

package processor_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	indexer "example.com/walkthrough/03-indexer"
	ours "example.com/walkthrough/04-processor"
	"example.com/walkthrough/workshop/cluster"
)

// e2eStore adapts our cache to the cache.Store the shared cluster helpers
// compare: the method sets match, so it only names the seam.
type e2eStore struct{ indexer.Indexer }

var _ cache.Store = e2eStore{}

// keyOrder records, per key, the calls a handler got: ADD@rv, UPDATE@rv,
// DELETE@rv (the resourceVersion of the object handed over).
type keyOrder struct {
	mu   sync.Mutex
	seen map[string][]string
}

func (k *keyOrder) note(kind string, obj any) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	if d, ok := obj.(indexer.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	key := m.GetNamespace() + "/" + m.GetName()
	k.seen[key] = append(k.seen[key], kind+"@"+m.GetResourceVersion())
}

func (k *keyOrder) OnAdd(obj any, _ bool)  { k.note("ADD", obj) }
func (k *keyOrder) OnUpdate(_, newObj any) { k.note("UPDATE", newObj) }
func (k *keyOrder) OnDelete(obj any)       { k.note("DELETE", obj) }
func (k *keyOrder) snapshot() map[string][]string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := map[string][]string{}
	for key, evs := range k.seen {
		out[key] = append([]string(nil), evs...)
	}
	return out
}

// On a real API server, our SharedIndexInformer and client-go's, watching
// the same namespace, end a burst of creates, updates and deletes with
// the same cache (equal to a fresh LIST) and with the same calls, per key
// and in the same order, to a handler each; on today's path (WatchList,
// batch pops; client-go's defaults) and on the classic one (LIST then
// WATCH, DeltaFIFO, one pop at a time; client-go with those gates off).
// Needs a cluster: run `make e2e` (see docs/e2e.md).
func TestE2EInformerMatchesClientGo(t *testing.T) {
	cfg := cluster.Require(t)
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name  string
		path  ours.Path
		gates map[clientfeatures.Feature]bool
	}{
		{name: "today", path: ours.TodaysPath},
		{name: "classic", path: ours.ClassicPath, gates: map[clientfeatures.Feature]bool{
			clientfeatures.WatchListClient: false, clientfeatures.InOrderInformersBatchProcess: false,
			clientfeatures.InOrderInformers: false,
		}},
	} {
		t.Run(m.name, func(t *testing.T) {
			for gate, on := range m.gates {
				clientfeaturestesting.SetFeatureDuringTest(t, gate, on)
			}
			e2eCompare(t, cs, m.path)
		})
	}
}

func e2eCompare(t *testing.T, cs kubernetes.Interface, path ours.Path) {
	ns := cluster.Namespace(t, cs.CoreV1())
	cms := cs.CoreV1().ConfigMaps(ns)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	var lists, batches atomic.Int32
	mine := ours.NewSharedIndexInformerWithOptions(cluster.ListWatch(cms), &corev1.ConfigMap{}, ours.SharedIndexInformerOptions{
		Path: path,
		Tracer: &ours.Tracer{
			Listed: func([]runtime.Object, string) { lists.Add(1) },
			Popped: func(_ ours.Deltas, batch bool) {
				if batch {
					batches.Add(1)
				}
			},
		},
	})
	theirs := cache.NewSharedIndexInformer(cluster.ListWatch(cms), &corev1.ConfigMap{}, 0, cache.Indexers{})
	mineOrder := &keyOrder{seen: map[string][]string{}}
	theirOrder := &keyOrder{seen: map[string][]string{}}
	if _, err := mine.AddEventHandler(mineOrder); err != nil {
		t.Fatal(err)
	}
	if _, err := theirs.AddEventHandler(theirOrder); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel() // stop both informers before waiting for them
	wg.Go(func() { mine.Run(ctx) })
	wg.Go(func() { theirs.RunWithContext(ctx) })
	if !ours.WaitForCacheSync(ctx.Done(), mine.HasSynced, theirs.HasSynced) {
		t.Fatal("the informers did not sync")
	}
	// Today's path streams its first list; the classic one LISTs.
	switch n := lists.Load(); {
	case path == ours.TodaysPath && n != 0:
		t.Errorf("today's path made %d LIST call(s); want a WatchList and none", n)
	case path == ours.ClassicPath && n == 0:
		t.Errorf("the classic path made no LIST call")
	}

	cluster.ConfigMapBurst(t, ctx, cms, 30)

	cluster.WaitForSameCaches(t, ctx, cms, map[string]cache.Store{
		"04-processor SharedIndexInformer": e2eStore{mine.GetIndexer()},
		"client-go SharedIndexInformer":    theirs.GetStore(),
	})
	// The caches agree; give the handlers a moment to drain their buffers.
	var diff string
	for range 50 {
		if diff = cmp.Diff(theirOrder.snapshot(), mineOrder.snapshot()); diff == "" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if diff != "" {
		t.Errorf("per-key calls differ (-client-go +ours):\n%s", diff)
	}
	if n := len(mineOrder.snapshot()); n != 30 {
		t.Errorf("our handler heard about %d keys, want 30", n)
	}
	if path == ours.ClassicPath && batches.Load() != 0 {
		t.Errorf("the classic path popped %d batch(es); want one item at a time", batches.Load())
	}
}
