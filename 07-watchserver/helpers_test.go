package watchserver_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	ws "example.com/walkthrough/07-watchserver"
)

// startEtcd starts an etcd member in process for one test, on loopback
// ports the kernel picks, with its data in t.TempDir, and stops it when
// the test ends.
func startEtcd(t testing.TB) *ws.Embedded {
	t.Helper()
	e, err := ws.StartEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("embedded etcd ready in %v at %s", e.Started, e.Endpoint)
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Errorf("closing embedded etcd: %v", err)
		}
	})
	return e
}

// testServer is our API server over an embedded etcd, served on loopback.
type testServer struct {
	etcd    *ws.Embedded
	storage *ws.Storage
	cache   *ws.Cache
	server  *ws.Server
	http    *httptest.Server
	cs      *kubernetes.Clientset
}

// startServer starts etcd, the cache (waiting until it has listed) and the
// HTTP server; all stop when the test ends, in reverse order.
func startServer(t testing.TB, opts ws.CacheOptions) *testServer {
	t.Helper()
	e := startEtcd(t)
	st := ws.NewStorage(e.Client)
	c := ws.NewCache(st, opts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	waitReady(t, c)
	srv := ws.NewServer(st, c)
	h := httptest.NewServer(srv)
	t.Cleanup(h.Close)
	return &testServer{etcd: e, storage: st, cache: c, server: srv, http: h, cs: clientsetFor(t, h.URL)}
}

// clientsetFor is a clientset on host, with no client-side rate limit.
func clientsetFor(t testing.TB, host string) *kubernetes.Clientset {
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: host, QPS: 1000, Burst: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// waitReady polls until the cache answers a list: it is a real etcd, on
// real time, so there is no bubble to wait in.
func waitReady(t testing.TB, c *ws.Cache) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c.Ready() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the watch cache did not become ready in 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
