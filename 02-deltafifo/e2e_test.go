//go:build !walkthrough_standin

// The end-to-end tests need a real cluster and never judge an exercise
// copy: a check builds without them (the tag walkthrough_standin), which
// keeps client-go's clientsets out of its binary and its link short.

package deltafifo_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	ours "example.com/walkthrough/02-deltafifo"
	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/workshop/cluster"
)

// On a real API server, a client-go Reflector feeding our atomic RealFIFO,
// drained into chapter 03's Indexer the way an informer drains it, ends up
// with the same cache as a client-go SharedIndexInformer watching the same
// namespace, after a burst of creates, updates and deletes. Needs a
// cluster: run `make e2e` (see docs/e2e.md).
func TestE2ERealFIFOFeedsTheSameCache(t *testing.T) {
	cfg := cluster.Require(t)
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ns := cluster.Namespace(t, cs.CoreV1())
	cms := cs.CoreV1().ConfigMaps(ns)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	fifo := ours.NewRealFIFOWithOptions(ours.RealFIFOOptions{AtomicEvents: true, EmitDeltaTypeBookmark: true})
	idx := indexer.NewIndexer(indexer.DeletionHandlingMetaNamespaceKeyFunc, indexer.Indexers{})
	reflector := cache.NewReflector(cluster.ListWatch(cms), &corev1.ConfigMap{}, fifo, 0)
	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
	informer := factory.Core().V1().ConfigMaps().Informer()

	consumed := make(chan struct{})
	go func() {
		defer close(consumed)
		for {
			_, err := fifo.Pop(func(obj any, _ bool) error {
				for _, d := range obj.(ours.Deltas) {
					switch d.Type {
					case ours.ReplacedAll:
						info := d.Object.(ours.ReplacedAllInfo)
						_ = idx.Replace(info.Objects, info.ResourceVersion)
					case ours.Deleted:
						_ = idx.Delete(d.Object)
					case ours.Added, ours.Updated, ours.Replaced, ours.Sync:
						_ = idx.Update(d.Object)
					}
				}
				return nil
			})
			if err != nil {
				return // closed
			}
		}
	}()
	go reflector.RunWithContext(ctx)
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	defer func() { cancel(); fifo.Close(); <-consumed }()

	cluster.ConfigMapBurst(t, ctx, cms, 30)

	cluster.WaitForSameCaches(t, ctx, cms, map[string]cache.Store{
		"reflector+02 RealFIFO+03 indexer": idx,
		"SharedIndexInformer":              informer.GetStore(),
	})
}
