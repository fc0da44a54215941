//go:build !walkthrough_standin

package processor_test

import (
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

// The client-go adapter's factory (adapter_clientgo_test.go): client-go's
// generated SharedInformerFactory on a fake clientset. It has a file of
// its own because the generated informers and the fake clientset link
// every API group of Kubernetes into the test binary, and a check of your
// copy, which never runs client-go's factory, builds without this file
// (the tag walkthrough_standin): its link takes half the time.
func init() {
	clientGoFactory = func(resync time.Duration, o factoryOptions) factory {
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
				custom[clientGoExample(kind).(metav1.Object)] = period
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
				return inf.GetIndexer(), wrapClientGo(inf)
			},
			Start: f.Start,
			WaitForCacheSync: func(stop <-chan struct{}) map[string]bool {
				return byTypeName(f.WaitForCacheSync(stop))
			},
			Shutdown: f.Shutdown,
		}
	}
}
