package processor_test

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	indexer "example.com/walkthrough/03-indexer"
	ours "example.com/walkthrough/04-processor"
	"example.com/walkthrough/workshop/scenario"
)

// The adapter for our own package. `make exercises` derives the exercise
// adapter from this file by pointing it at the exercise/ copy, so keep
// everything inside init: the twin must not redeclare anything.
func init() {
	fifos := map[fifoKind]ours.FIFOKind{atomicRealFIFO: ours.AtomicRealFIFO, realFIFO: ours.RealFIFO, deltaFIFO: ours.DeltaFIFO}
	// path is the one the scenario mode asks for (see TestScenarios).
	path := func() ours.Path {
		if classicMode {
			return ours.ClassicPath
		}
		return ours.TodaysPath
	}
	example := func(kind string) runtime.Object {
		if kind == "configmaps" {
			return &v1.ConfigMap{}
		}
		return &v1.Pod{}
	}
	wrap := func(inf *ours.SharedIndexInformer) informer {
		return informer{
			Run: inf.Run,
			AddEventHandler: func(h eventHandler, resync *time.Duration) (registration, error) {
				if resync == nil {
					return inf.AddEventHandler(h)
				}
				return inf.AddEventHandlerWithResyncPeriod(h, *resync)
			},
			RemoveEventHandler: func(reg registration) error { return inf.RemoveEventHandler(reg) },
			HasSynced:          inf.HasSynced,
			HasStarted:         inf.HasStarted,
			IsStopped:          inf.IsStopped,
			List:               func() []any { return inf.GetIndexer().List() },
			StoreRV:            func() string { return inf.GetIndexer().LastStoreSyncResourceVersion() },
			LastSyncRV:         inf.LastSyncResourceVersion,
			SetTransform: func(fn func(any) (any, error)) error {
				return inf.SetTransform(fn)
			},
			SetWatchErrorHandler: func(fn func(err error)) error {
				return inf.SetWatchErrorHandler(func(_ context.Context, err error) { fn(err) })
			},
			AddIndexer: func(name string, fn func(any) ([]string, error)) error {
				return inf.AddIndexers(indexer.Indexers{name: fn})
			},
			ByIndex: func(name, value string) ([]any, error) { return inf.GetIndexer().ByIndex(name, value) },
		}
	}
	register(scenario.Reference, impl{
		NewInformer: func(lw *scriptedLW, resync time.Duration, fifo fifoKind) informer {
			return wrap(ours.NewSharedIndexInformerWithOptions(lw, example(lw.kind), ours.SharedIndexInformerOptions{
				ResyncPeriod: resync, FIFO: fifos[fifo], Path: path(),
			}))
		},
		NewWatchedInformer: func(lw *scriptedLW, watched func()) informer {
			return wrap(ours.NewSharedIndexInformerWithOptions(lw, example(lw.kind), ours.SharedIndexInformerOptions{
				FIFO: ours.AtomicRealFIFO, Path: path(), Tracer: &ours.Tracer{Watched: func(watch.Event) { watched() }},
			}))
		},
		NewFactory: func(resync time.Duration, o factoryOptions) factory {
			var opts []ours.FactoryOption
			if o.Namespace != "" {
				opts = append(opts, ours.WithNamespace(o.Namespace))
			}
			if tweak := o.tweak(); tweak != nil {
				opts = append(opts, ours.WithTweakListOptions(tweak))
			}
			if o.Transform {
				opts = append(opts, ours.WithTransform(addTransformedLabel))
			}
			if len(o.Resync) > 0 {
				custom := map[runtime.Object]time.Duration{}
				for kind, period := range o.Resync {
					custom[example(kind)] = period
				}
				opts = append(opts, ours.WithCustomResyncConfig(custom))
			}
			f := ours.NewSharedInformerFactory(resync, opts...)
			return factory{
				InformerFor: func(kind string, lw *scriptedLW) (any, informer) {
					inf := f.InformerFor(example(kind), func(resync time.Duration, s ours.ListScope) *ours.SharedIndexInformer {
						return ours.NewSharedIndexInformerWithOptions(lw.in(s.Namespace, s.Tweak), example(kind), ours.SharedIndexInformerOptions{
							ResyncPeriod: resync, FIFO: ours.AtomicRealFIFO, Path: path(),
						})
					})
					return inf, wrap(inf)
				},
				Start: f.Start,
				WaitForCacheSync: func(stop <-chan struct{}) map[string]bool {
					return byTypeName(f.WaitForCacheSync(stop))
				},
				Shutdown: f.Shutdown,
			}
		},
		WaitForCacheSync: ours.WaitForCacheSync,
		NewRing: func(initialSize int) ring {
			r := ours.NewRingBuffer(initialSize)
			return ring{Write: r.Write, Read: r.Read, Len: r.Len, Cap: r.Cap}
		},
		NewDeltaProcessor: func(h eventHandler) (func(string, any) error, func(any) (any, bool)) {
			idx := indexer.NewIndexer(indexer.DeletionHandlingMetaNamespaceKeyFunc, indexer.Indexers{})
			process := func(typ string, obj any) error {
				d := ours.Delta{Type: ours.DeltaType(typ), Object: obj}
				if d.Type == ours.ReplacedAll {
					d.Object = ours.ReplacedAllInfo{ResourceVersion: "1", Objects: []any{obj}}
				}
				return ours.ProcessDeltas(h, idx, ours.Deltas{d}, false)
			}
			lookup := func(obj any) (any, bool) {
				got, ok, _ := idx.Get(obj)
				return got, ok
			}
			return process, lookup
		},
		Tombstone: func(obj any) (string, any, bool) {
			d, ok := obj.(indexer.DeletedFinalStateUnknown)
			return d.Key, d.Obj, ok
		},
	})
}
