package watchserver_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	listwatch "example.com/walkthrough/01-listwatch"
	indexer "example.com/walkthrough/03-indexer"
	processor "example.com/walkthrough/04-processor"
	ws "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/cluster"
)

// TestClientsCannotTellTheDifference points chapter 01's Reflector (list
// then watch, and WatchList), chapter 04's informer (today's path and the
// classic one) and a real client-go SharedIndexInformer at our server, writes a burst of creates, updates and deletes, and waits
// until every cache holds exactly what a LIST returns.
func TestClientsCannotTellTheDifference(t *testing.T) {
	t.Parallel()
	s := startServer(t, ws.CacheOptions{})
	// A correct run takes about a second on a quiet machine, and ran out
	// of eventWait's 10 s once at a load of 12 (five informers starting
	// beside every scenario). A server that never lets the caches agree
	// fails it after 14 s, with the caches that differ, just before the
	// runner's 15 s idle watch would stop it as stuck.
	ctx, cancel := context.WithTimeout(context.Background(), 14*time.Second)
	defer cancel()
	const ns = "clients"
	stores := map[string]cache.Store{}
	var stops []func()
	for _, watchList := range []bool{false, true} {
		idx := indexer.NewIndexer(indexer.MetaNamespaceKeyFunc, indexer.Indexers{})
		client := &listwatch.Client{HTTP: s.http.Client(), Base: s.http.URL,
			Path: "/api/v1/namespaces/" + ns + "/configmaps", Kind: listwatch.Typed[corev1.ConfigMap]("ConfigMap")}
		r := listwatch.NewReflector(client, &corev1.ConfigMap{}, idx, listwatch.ReflectorOptions{UseWatchList: watchList})
		rctx, rcancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); r.Run(rctx) }()
		stops = append(stops, func() { rcancel(); <-done })
		stores[fmt.Sprintf("01-listwatch Reflector (watchlist=%t)", watchList)] = storeView{idx}
	}
	for name, path := range map[string]processor.Path{"today's path": processor.TodaysPath, "classic path": processor.ClassicPath} {
		cms := s.cs.CoreV1().ConfigMaps(ns)
		lw := &cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return cms.List(ctx, o) },
			WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
				return cms.Watch(ctx, o)
			},
		}
		inf := processor.NewSharedIndexInformerWithOptions(lw, &corev1.ConfigMap{}, processor.SharedIndexInformerOptions{
			Indexers: indexer.Indexers{indexer.NamespaceIndex: indexer.MetaNamespaceIndexFunc},
			Path:     path,
		})
		ictx, icancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); inf.Run(ictx) }()
		stops = append(stops, func() { icancel(); <-done })
		stores["04-processor informer ("+name+")"] = storeView{inf.GetIndexer()}
	}
	factory := informers.NewSharedInformerFactoryWithOptions(s.cs, 0, informers.WithNamespace(ns))
	informer := factory.Core().V1().ConfigMaps().Informer()
	fctx, fcancel := context.WithCancel(ctx)
	factory.Start(fctx.Done())
	stops = append(stops, func() { fcancel(); factory.Shutdown() })
	defer func() {
		for _, stop := range stops {
			stop()
		}
	}()
	stores["client-go SharedIndexInformer"] = informer.GetStore()

	cms := s.cs.CoreV1().ConfigMaps(ns)
	cluster.ConfigMapBurst(t, ctx, cms, 30)
	cluster.WaitForSameCaches(t, ctx, cms, stores)
}

// storeView shows chapter 03's indexer as a client-go cache.Store.
type storeView struct{ indexer.Indexer }

var _ cache.Store = storeView{}
