package processor_test

import (
	"context"
	"reflect"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/buffer"

	"example.com/walkthrough/workshop/scenario"
)

// The adapter for the real client-go: the goldens are recorded through it.
// The queue is chosen by the feature gates the scenario file sets, so the
// fifoKind argument is not needed here.
func init() {
	example := func(kind string) runtime.Object {
		if kind == "configmaps" {
			return &v1.ConfigMap{}
		}
		return &v1.Pod{}
	}
	wrap := func(inf cache.SharedIndexInformer) informer {
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
	register(scenario.ClientGo, impl{
		NewInformer: func(lw *scriptedLW, resync time.Duration, _ fifoKind) informer {
			return wrap(cache.NewSharedIndexInformer(lw, example(lw.kind), resync, cache.Indexers{}))
		},
		NewFactory: func(resync time.Duration, o factoryOptions) factory {
			// The informers are client-go's generated ones, which read the
			// factory's namespace and tweak, on a fake clientset whose LIST
			// and WATCH go to the scenario's scripted ListerWatchers.
			var mu sync.Mutex
			lws := map[string]*scriptedLW{}
			lwFor := func(a clienttesting.Action) *scriptedLW {
				mu.Lock()
				defer mu.Unlock()
				return lws[a.GetResource().Resource]
			}
			cs := kubefake.NewClientset()
			cs.PrependReactor("list", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
				obj, err := lwFor(a).list(a.GetNamespace(), a.(clienttesting.ListActionImpl).ListOptions)
				return true, obj, err
			})
			cs.PrependWatchReactor("*", func(a clienttesting.Action) (bool, watch.Interface, error) {
				w, err := lwFor(a).watch(a.GetNamespace(), a.(clienttesting.WatchActionImpl).ListOptions)
				return true, w, err
			})
			var opts []informers.SharedInformerOption
			if o.Namespace != "" {
				opts = append(opts, informers.WithNamespace(o.Namespace))
			}
			if tweak := o.tweak(); tweak != nil {
				opts = append(opts, informers.WithTweakListOptions(tweak))
			}
			if o.Transform {
				opts = append(opts, informers.WithTransform(addTransformedLabel))
			}
			if len(o.Resync) > 0 {
				custom := map[metav1.Object]time.Duration{}
				for kind, period := range o.Resync {
					custom[example(kind).(metav1.Object)] = period
				}
				opts = append(opts, informers.WithCustomResyncConfig(custom))
			}
			f := informers.NewSharedInformerFactoryWithOptions(cs, resync, opts...)
			return factory{
				InformerFor: func(kind string, lw *scriptedLW) (any, informer) {
					mu.Lock()
					lws[kind] = lw
					mu.Unlock()
					inf := f.Core().V1().Pods().Informer()
					if kind == "configmaps" {
						inf = f.Core().V1().ConfigMaps().Informer()
					}
					// Each call wraps the shared informer in a new typed
					// one; the cache underneath is what is shared.
					return inf.GetIndexer(), wrap(inf)
				},
				Start: f.Start,
				WaitForCacheSync: func(stop <-chan struct{}) map[string]bool {
					out := map[string]bool{}
					for t, ok := range f.WaitForCacheSync(stop) {
						out[reflect.Type.String(t)] = ok
					}
					return out
				},
				Shutdown: f.Shutdown,
			}
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
