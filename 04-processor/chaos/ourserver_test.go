package chaos_test

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	watchserver "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/cluster"
	"example.com/walkthrough/workshop/faults"
)

// ourFaults is the table against chapter 07's server: the same faults, with a restart of
// our server where kube-apiserver's table restarts kube-apiserver. Our server serves
// ConfigMaps only, from its watch cache.
var ourFaults = []fault{
	{name: "connection cut (ours)", res: configMaps, writers: 3, inject: cutConnections},
	{name: "server restart (ours)", res: configMaps, writers: 2, inject: restartOurs(time.Second)},
	{name: "compaction, watch cache (ours)", res: configMaps, writers: 2, inject: fallBehind},
	{name: "etcd restart (ours)", res: configMaps, writers: 2, inject: restart(cluster.Etcd, 2*time.Second)},
	{name: "churn, slow handler (ours)", res: configMaps, writers: 6, minOps: 5000, inject: churn},
	{name: "bad server data (ours)", res: configMaps, writers: 2, inject: badData},
}

// TestChaosOurServer runs the fault tier against chapter 07's server: its storage, watch
// cache and watch server, in this process, on the cluster's etcd, with ours and
// client-go's caches as its clients.
func TestChaosOurServer(t *testing.T) {
	table := chaosTable(t, ourFaults, "our server")
	kube := cluster.Require(t)
	etcdURL := cluster.RequireEtcd(t)
	paths, err := cluster.FindPaths(".")
	if err != nil {
		t.Fatal(err)
	}
	// Our server serves TLS with kube-apiserver's certificate (127.0.0.1 is in it), so the
	// clients trust it through the same CA, and a corrupted byte breaks a TLS record, as it
	// does on kube-apiserver's connections, instead of turning into a valid wrong object.
	pki := cluster.PKIIn(paths)
	cert, err := tls.LoadX509KeyPair(pki.ServingCert, pki.ServingKey)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := startOurServer(etcdURL, cert)
	if err != nil {
		t.Fatal(err)
	}
	defer ours.close()
	proxy, err := faults.Listen(ours.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	direct := rest.CopyConfig(kube)
	direct.Host = "https://" + ours.addr
	// Our server answers a write in a fraction of kube-apiserver's time (no admission, no
	// audit): the writers are held to about kube-apiserver's pace, about 250 writes a
	// second, so that the slow handlers' backlog, and the recovery, are alike in both tables.
	direct.QPS, direct.Burst = 250, 50
	cs := kubernetes.NewForConfigOrDie(direct)
	viaProxy := rest.CopyConfig(kube)
	viaProxy.Host = "https://" + proxy.Addr()
	var namespaces atomic.Int64
	runTable(t, "chapter 07's server", table, viaProxy, func() *env {
		return &env{proxy: proxy, paths: paths, etcd: etcdURL, cs: cs, ours: ours,
			// Our server has no namespaces to create: a name nothing else uses is one.
			namespace: func(t *testing.T) string {
				return fmt.Sprintf("chaos-ours-%d-%d", time.Now().UnixNano(), namespaces.Add(1))
			}}
	})
}

// restartOurs stops our server (its listener, every connection, its watch cache) for down
// and starts it again on the same address, with a cache that lists etcd anew.
func restartOurs(down time.Duration) func(context.Context, *testing.T, *env) int {
	return func(ctx context.Context, t *testing.T, e *env) int {
		sleepCtx(ctx, 2*time.Second)
		t.Logf("trace: restarting our server (down %s) under the running informers", down)
		e.ours.stop()
		sleepCtx(ctx, down)
		if err := e.ours.start(); err != nil {
			t.Fatalf("starting our server again: %v", err)
		}
		t.Logf("trace: our server is back")
		sleepCtx(ctx, 2*time.Second)
		return 1
	}
}

// ourServer is chapter 07's server on one loopback address, over TLS, started and stopped
// whole.
type ourServer struct {
	addr string
	etcd *clientv3.Client
	cert tls.Certificate

	mu       sync.Mutex
	http     *http.Server
	served   chan struct{}
	stopped  context.CancelFunc
	cacheRan chan struct{}
}

func startOurServer(etcdURL string, cert tls.Certificate) (*ourServer, error) {
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{etcdURL}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return nil, fmt.Errorf("dialing etcd at %s: %w", etcdURL, err)
	}
	s := &ourServer{addr: "127.0.0.1:0", etcd: cli, cert: cert}
	if err := s.start(); err != nil {
		cli.Close()
		return nil, err
	}
	return s, nil
}

// start listens on addr (a port of the kernel's choosing the first time, the same one
// after) and serves a new storage and watch cache over etcd.
func (s *ourServer) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return err
	}
	s.addr = ln.Addr().String()
	st := watchserver.NewStorage(s.etcd)
	c := watchserver.NewCache(st, watchserver.CacheOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	s.stopped, s.cacheRan, s.served = cancel, make(chan struct{}), make(chan struct{})
	go func() { defer close(s.cacheRan); c.Run(ctx) }()
	s.http = &http.Server{Handler: watchserver.NewServer(st, c),
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{s.cert}, NextProtos: []string{"h2", "http/1.1"}}}
	go func() {
		defer close(s.served)
		if err := s.http.ServeTLS(ln, "", ""); !errors.Is(err, http.ErrServerClosed) {
			panic(fmt.Sprintf("our server stopped serving: %v", err))
		}
	}()
	return nil
}

// stop closes the listener and every connection, then stops the watch cache.
func (s *ourServer) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.http.Close()
	<-s.served
	s.stopped()
	<-s.cacheRan
}

func (s *ourServer) close() {
	s.stop()
	_ = s.etcd.Close()
}
