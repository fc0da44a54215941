//go:build !walkthrough_standin

// The end-to-end tests need a real cluster and never judge an exercise
// copy: a check builds without them (the tag walkthrough_standin), which
// keeps client-go's clientsets out of its binary and its link short.

package indexer_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	ours "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/workshop/cluster"
)

// reflectorStore adapts our Indexer to the cache.Store a client-go Reflector writes into.
// The method sets already match, so it only names the seam: if the chapter's API ever drifts
// from client-go's, this is where the difference is bridged.
type reflectorStore struct{ ours.Indexer }

var _ cache.Store = reflectorStore{}

// On a real API server, a client-go Reflector filling our indexer and a client-go
// SharedIndexInformer watching the same namespace agree after a burst of creates, updates
// and deletes: the same keys at the same resourceVersions, both equal to a fresh LIST. Our
// namespace index agrees too. Needs a cluster: run `make e2e` (see docs/e2e.md).
func TestE2EIndexerMatchesClientGo(t *testing.T) {
	cfg := cluster.Require(t)
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ns := cluster.Namespace(t, cs.CoreV1())
	cms := cs.CoreV1().ConfigMaps(ns)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	idx := ours.NewIndexer(ours.MetaNamespaceKeyFunc, ours.Indexers{ours.NamespaceIndex: ours.MetaNamespaceIndexFunc})
	reflector := cache.NewReflector(cluster.ListWatch(cms), &corev1.ConfigMap{}, reflectorStore{idx}, 0)
	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
	informer := factory.Core().V1().ConfigMaps().Informer()

	go reflector.RunWithContext(ctx)
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	defer cancel() // stop the reflector and the informer before Shutdown waits for them

	cluster.ConfigMapBurst(t, ctx, cms, 30)

	cluster.WaitForSameCaches(t, ctx, cms, map[string]cache.Store{
		"reflector+03-indexer": reflectorStore{idx},
		"SharedIndexInformer":  informer.GetStore(),
	})
	inNS, err := idx.ByIndex(ours.NamespaceIndex, ns)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(inNS), len(idx.List()); got != want {
		t.Errorf("our namespace index holds %d objects under %q, but the indexer holds %d", got, ns, want)
	}
}
