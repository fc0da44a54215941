package processor_test

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/buffer"

	"example.com/walkthrough/workshop/scenario"
)

// clientGoFactory is client-go's generated SharedInformerFactory, set by
// adapter_clientgo_factory_test.go: a check of your copy never runs it and
// builds without that file (see there).
var clientGoFactory func(resync time.Duration, o factoryOptions) factory

// clientGoExample is the typed object client-go's informer of kind decodes.
func clientGoExample(kind string) runtime.Object {
	if kind == "configmaps" {
		return &v1.ConfigMap{}
	}
	return &v1.Pod{}
}

// wrapClientGo adapts one of client-go's informers to the scenarios.
func wrapClientGo(inf cache.SharedIndexInformer) informer {
	// HasStarted is not in client-go's SharedIndexInformer interface, and
	// its typed informer does not have it: nil where it is missing.
	var hasStarted func() bool
	if s, ok := inf.(interface{ HasStarted() bool }); ok {
		hasStarted = s.HasStarted
	}
	return informer{
		Run: inf.RunWithContext,
		AddEventHandler: func(h eventHandler, resync *time.Duration) (registration, error) {
			if resync == nil {
				return inf.AddEventHandler(h)
			}
			return inf.AddEventHandlerWithResyncPeriod(h, *resync)
		},
		RemoveEventHandler: func(reg registration) error {
			return inf.RemoveEventHandler(reg.(cache.ResourceEventHandlerRegistration))
		},
		HasSynced:    inf.HasSynced,
		HasStarted:   hasStarted,
		IsStopped:    inf.IsStopped,
		List:         func() []any { return inf.GetIndexer().List() },
		StoreRV:      func() string { return inf.GetIndexer().LastStoreSyncResourceVersion() },
		LastSyncRV:   inf.LastSyncResourceVersion,
		SetTransform: func(fn func(any) (any, error)) error { return inf.SetTransform(fn) },
		SetWatchErrorHandler: func(fn func(err error)) error {
			return inf.SetWatchErrorHandlerWithContext(func(_ context.Context, _ *cache.Reflector, err error) { fn(err) })
		},
		AddIndexer: func(name string, fn func(any) ([]string, error)) error {
			return inf.AddIndexers(cache.Indexers{name: fn})
		},
		ByIndex: func(name, value string) ([]any, error) { return inf.GetIndexer().ByIndex(name, value) },
	}
}

// The adapter for the real client-go: the goldens are recorded through it.
// The queue is chosen by the feature gates the scenario file sets, so the
// fifoKind argument is not needed here. It is hand-written, not generated
// from the reference adapter (//exgen:clientgo): client-go chooses its
// queue by feature gate where ours takes options, its informers run with a
// context and its registrations are an interface, and its factory lives in
// a file of its own (adapter_clientgo_factory_test.go).
func init() {
	register(scenario.ClientGo, impl{
		NewInformer: func(lw *scriptedLW, resync time.Duration, _ fifoKind) informer {
			return wrapClientGo(cache.NewSharedIndexInformer(lw, clientGoExample(lw.kind), resync, cache.Indexers{}))
		},
		// The factory's own file is left out of a check's build; a check
		// never runs client-go's factory.
		NewFactory: func(resync time.Duration, o factoryOptions) factory {
			if clientGoFactory == nil {
				panic("client-go's factory is not in this build (tag walkthrough_standin): a check of your copy must not run it")
			}
			return clientGoFactory(resync, o)
		},
		WaitForCacheSync: func(stop <-chan struct{}, fns ...func() bool) bool {
			synced := make([]cache.InformerSynced, len(fns))
			for i, fn := range fns {
				synced[i] = fn
			}
			return cache.WaitForCacheSync(stop, synced...)
		},
		NewRing: func(initialSize int) ring {
			r := buffer.NewTypedRingGrowing[any](buffer.RingGrowingOptions{InitialSize: initialSize})
			return ring{Write: r.WriteOne, Read: r.ReadOne, Len: r.Len, Cap: r.Cap}
		},
		Tombstone: func(obj any) (string, any, bool) {
			d, ok := obj.(cache.DeletedFinalStateUnknown)
			return d.Key, d.Obj, ok
		},
	})
}
