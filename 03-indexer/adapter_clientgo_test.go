package indexer_test

import (
	"maps"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/listers"
	listersv1 "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"example.com/walkthrough/workshop/scenario"
)

// The adapter for the real client-go: the goldens are recorded through it.
// It is hand-written, not generated from the reference adapter
// (//exgen:clientgo): the lister a client-go user holds is the typed
// listers/core/v1 PodLister (Pods(ns), no Get without a namespace), where
// ours is chapter 03's generic Lister (Namespace(ns)); more than the names
// differ.
func init() {
	register(scenario.ClientGo, impl{
		NewIndexer: func(deletionHandling bool, names ...string) handle {
			keyFunc := cache.KeyFunc(cache.MetaNamespaceKeyFunc)
			if deletionHandling {
				keyFunc = cache.DeletionHandlingMetaNamespaceKeyFunc
			}
			idx := cache.NewIndexer(keyFunc, clientGoIndexers(names))
			pods := listersv1.NewPodLister(idx)
			return handle{
				Indexer:    idx,
				IndexNames: func() []string { return slices.Sorted(maps.Keys(idx.GetIndexers())) },
				AddIndexes: func(names ...string) error { return idx.AddIndexers(clientGoIndexers(names)) },
				// PodLister has no Get without a namespace: the generic
				// lister it is made of (and lists with) keys by name alone.
				Pods:   listers.New[*v1.Pod](idx, v1.Resource("pod")),
				PodsIn: func(ns string) podReader { return pods.Pods(ns) },
			}
		},
		KeyFunc:                 cache.MetaNamespaceKeyFunc,
		DeletionHandlingKeyFunc: cache.DeletionHandlingMetaNamespaceKeyFunc,
		SplitKey:                cache.SplitMetaNamespaceKey,
		NamespaceIndexFunc:      cache.MetaNamespaceIndexFunc,
		ExplicitKey:             func(key string) any { return cache.ExplicitKey(key) },
		Tombstone:               func(key string, obj any) any { return cache.DeletedFinalStateUnknown{Key: key, Obj: obj} },
	})
}

func clientGoIndexers(names []string) cache.Indexers {
	indexers := cache.Indexers{}
	for _, name := range names {
		if name == cache.NamespaceIndex {
			indexers[name] = cache.MetaNamespaceIndexFunc
		} else {
			indexers[name] = catalogue[name]
		}
	}
	return indexers
}
