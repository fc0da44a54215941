package watchserver_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	listwatch "example.com/walkthrough/01-listwatch"
	indexer "example.com/walkthrough/03-indexer"
	ws "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/cluster"
)

// TestClientsCannotTellTheDifference points chapter 01's Reflector (list
// then watch, and WatchList) and a real client-go SharedIndexInformer at
// our server, writes a burst of creates, updates and deletes, and waits
// until every cache holds exactly what a LIST returns.
func TestClientsCannotTellTheDifference(t *testing.T) {
	s := startServer(t, ws.CacheOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
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
