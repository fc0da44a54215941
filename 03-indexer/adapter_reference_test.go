package indexer_test

import (
	"maps"
	"slices"

	v1 "k8s.io/api/core/v1"

	ours "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/workshop/scenario"
)

// The adapter for our own package. `make exercises` derives the exercise
// adapter from this file by pointing it at the exercise/ copy, so keep
// everything inside init: the twin must not redeclare anything.
func init() {
	indexers := func(names []string) ours.Indexers {
		out := ours.Indexers{}
		for _, name := range names {
			if name == ours.NamespaceIndex {
				out[name] = ours.MetaNamespaceIndexFunc
			} else {
				out[name] = catalogue[name]
			}
		}
		return out
	}
	register(scenario.Reference, impl{
		NewIndexer: func(deletionHandling bool, names ...string) handle {
			keyFunc := ours.KeyFunc(ours.MetaNamespaceKeyFunc)
			if deletionHandling {
				keyFunc = ours.DeletionHandlingMetaNamespaceKeyFunc
			}
			idx := ours.NewIndexer(keyFunc, indexers(names))
			pods := ours.NewLister[*v1.Pod](idx, v1.Resource("pod"))
			return handle{
				Indexer:    idx,
				IndexNames: func() []string { return slices.Sorted(maps.Keys(idx.GetIndexers())) },
				AddIndexes: func(names ...string) error { return idx.AddIndexers(indexers(names)) },
				Pods:       pods,
				PodsIn:     func(ns string) podReader { return pods.Namespace(ns) },
			}
		},
		KeyFunc:                 ours.MetaNamespaceKeyFunc,
		DeletionHandlingKeyFunc: ours.DeletionHandlingMetaNamespaceKeyFunc,
		SplitKey:                ours.SplitMetaNamespaceKey,
		NamespaceIndexFunc:      ours.MetaNamespaceIndexFunc,
		ExplicitKey:             func(key string) any { return ours.ExplicitKey(key) },
		Tombstone:               func(key string, obj any) any { return ours.DeletedFinalStateUnknown{Key: key, Obj: obj} },
	})
}
