package watchserver_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	ws "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/cluster"
)

// The benchmarks below set our server against kube-apiserver on the same
// etcd, each on its own side of the wire: ours runs in a child process
// (this test binary started again, benchServer), over TLS with HTTP/2 as
// kube-apiserver serves, so the client code, the transport and the process
// boundary are the same for both; only the server differs. Run them with
// a cluster (make cluster-up, then eval "$(go run ./workshop/cmd/cluster
// env)"): WALKTHROUGH_E2E_ETCD puts our server on kube-apiserver's etcd,
// in a namespace of its own (both store under /registry/configmaps/ in the
// same encoding); without it, ours runs on an embedded etcd in this process
// and the kube-apiserver side is skipped.
//
// Objects are seeded straight into etcd through our Storage when the etcd
// is known, for both sides: both servers then serve byte-identical
// objects (created through kube-apiserver, each would also carry
// managedFields). Clients ask for JSON and turn compression off: with
// client-go's default (gzip), kube-apiserver compresses any response over
// 128 KiB and ours never does. Reads are timed up to the last byte and
// parsed no further than the benchmark needs, so the time is the server's
// and the wire's, not a client's decoding.

// benchServerVar, set to an etcd endpoint, makes this test binary our
// server for the benchmarks (TestMain calls benchServer). benchProfileVar,
// set to a directory when the benchmarks run, has each such server write
// its CPU profile there, as ours-<benchmark>.pprof (go test -cpuprofile
// profiles the client side only).
const (
	benchServerVar  = "WALKTHROUGH_BENCH_SERVER"
	benchProfileVar = "WALKTHROUGH_BENCH_SERVER_CPUPROFILE"
)

// benchServer runs our server for a parent benchmark, when benchServerVar
// asks for it, and exits: a cache and a Server over the etcd it names,
// served over TLS with HTTP/2 (100 streams a connection, as
// kube-apiserver allows), plus /metrics (the Go runtime's metrics). It
// prints its URL on stdout and serves until its stdin closes.
func benchServer() {
	endpoint := os.Getenv(benchServerVar)
	if endpoint == "" {
		return
	}
	if err := runBenchServer(endpoint); err != nil {
		fmt.Fprintln(os.Stderr, "bench server:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runBenchServer(endpoint string) error {
	cli, err := newEtcdClient(endpoint)
	if err != nil {
		return err
	}
	st := ws.NewStorage(cli)
	c := ws.NewCache(st, ws.CacheOptions{})
	go c.Run(context.Background())
	for deadline := time.Now().Add(30 * time.Second); !c.Ready(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("the watch cache over %s did not become ready in 30s", endpoint)
		}
	}
	// The Go runtime's metrics, all of them, as kube-apiserver registers
	// them (k8s.io/component-base/metrics/legacyregistry).
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(collectors.MetricsAll)))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.Handle("/", ws.NewServer(st, c))
	srv := httptest.NewUnstartedServer(mux)
	srv.EnableHTTP2 = true
	srv.Config.HTTP2 = &http.HTTP2Config{MaxConcurrentStreams: 100}
	srv.StartTLS()
	if path := os.Getenv(benchProfileVar); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	fmt.Println(srv.URL)
	_, _ = io.Copy(io.Discard, os.Stdin) // until the parent closes it
	return nil
}

// apiServer is one side of a benchmark: a server, a client for it and
// what the benchmark may read about it.
type apiServer struct {
	name string
	cs   *kubernetes.Clientset
	// pid is the server's process, 0 when it is not on this machine.
	pid int
	// etcd is the server's etcd, nil when unknown.
	etcd *clientv3.Client
	// newNamespace returns an empty namespace of its own, emptied and
	// removed when the benchmark ends.
	newNamespace func(testing.TB) string
}

// eachServer runs fn as name/ours and name/kube-apiserver, ours first.
func eachServer(b *testing.B, name string, fn func(b *testing.B, s *apiServer)) {
	b.Run(name+"/ours", func(b *testing.B) { fn(b, startOurs(b)) })
	b.Run(name+"/kube-apiserver", func(b *testing.B) { fn(b, kubeAPIServer(b)) })
}

// noCompression is a client config as the benchmarks want it: no
// client-side rate limit, no gzip.
func noCompression(cfg *rest.Config) *rest.Config {
	cfg.QPS, cfg.Burst, cfg.DisableCompression = -1, 0, true
	return cfg
}

// startOurs starts our server in a child process, on the cluster's etcd
// when WALKTHROUGH_E2E_ETCD names one, else on an embedded etcd here.
func startOurs(b *testing.B) *apiServer {
	endpoint := os.Getenv(cluster.EnvEtcd)
	var cli *clientv3.Client
	if endpoint == "" {
		e := startEtcd(b)
		endpoint, cli = e.Endpoint, e.Client
	} else {
		cli = dialEtcd(b, endpoint)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), benchServerVar+"="+endpoint)
	if dir := os.Getenv(benchProfileVar); dir != "" { // the child's is a file
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%s", benchProfileVar, filepath.Join(dir, "ours-"+strings.ReplaceAll(b.Name(), "/", "_")+".pprof")))
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	stop := func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		stop()
		b.Fatalf("our server did not start: %v\n%s", err, stderr.String())
	}
	cfg := noCompression(&rest.Config{Host: strings.TrimSpace(url), TLSClientConfig: rest.TLSClientConfig{Insecure: true}})
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		stop()
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stop()
		closeIdle(cfg)
	})
	s := &apiServer{name: "ours", cs: cs, pid: cmd.Process.Pid, etcd: cli}
	s.newNamespace = func(tb testing.TB) string {
		// As long as kube-apiserver's e2e-xxxxx: the same bytes a list.
		ns := "our-" + utilrand.String(5)
		tb.Cleanup(func() { s.empty(tb, ns) })
		return ns
	}
	return s
}

// kubeAPIServer is the cluster's kube-apiserver, or skips without one. Its
// pid is known when the kubeconfig is the one make cluster-up wrote.
func kubeAPIServer(b *testing.B) *apiServer {
	if os.Getenv(cluster.EnvKubeconfig) == "" {
		b.Skip("no cluster: make cluster-up, then eval \"$(go run ./workshop/cmd/cluster env)\"")
	}
	cfg := noCompression(cluster.Require(b))
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { closeIdle(cfg) })
	s := &apiServer{name: "kube-apiserver", cs: cs}
	if endpoint := os.Getenv(cluster.EnvEtcd); endpoint != "" {
		s.etcd = dialEtcd(b, endpoint)
	}
	if wd, err := os.Getwd(); err == nil {
		if p, err := cluster.FindPaths(wd); err == nil {
			st, ok, err := cluster.Status(context.Background(), p)
			if err == nil && ok && st.Kubeconfig == os.Getenv(cluster.EnvKubeconfig) {
				s.pid = st.APIServerPID
			}
		}
	}
	s.newNamespace = func(tb testing.TB) string {
		ns := cluster.Namespace(tb, cs.CoreV1())
		// There is no namespace controller: the namespace's objects
		// outlive its delete unless removed here.
		tb.Cleanup(func() { s.empty(tb, ns) })
		return ns
	}
	return s
}

func dialEtcd(tb testing.TB, endpoint string) *clientv3.Client {
	cli, err := newEtcdClient(endpoint)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cli.Close() })
	return cli
}

// newEtcdClient is a client of the etcd at endpoint, quiet: the parent's
// and the child server's alike.
func newEtcdClient(endpoint string) (*clientv3.Client, error) {
	return clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
}

func closeIdle(cfg *rest.Config) {
	if hc, err := rest.HTTPClientFor(cfg); err == nil {
		utilnet.CloseIdleConnectionsFor(hc.Transport)
	}
}

// empty deletes every ConfigMap of ns: in etcd when it is known (one
// range delete), else through the API. In etcd it then compacts, as
// kube-apiserver does every 5 minutes: until then etcd's index keeps
// every deleted key, and a range read (ours reads etcd for a consistent
// LIST, and counts the range for its current revision) steps over each,
// so the next benchmark would pay for this one's deletes.
func (s *apiServer) empty(tb testing.TB, ns string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var err error
	if s.etcd != nil {
		if _, err = s.etcd.Delete(ctx, ws.ConfigMaps.Prefix()+ns+"/", clientv3.WithPrefix()); err == nil {
			_, err = ws.NewStorage(s.etcd).Compact(ctx)
		}
	} else {
		err = s.cs.CoreV1().ConfigMaps(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
	}
	if err != nil {
		tb.Errorf("emptying namespace %s: %v", ns, err)
	}
}

// benchPayload makes a seeded ConfigMap about 0.5 KB in JSON.
var benchPayload = strings.Repeat("x", 256)

func benchConfigMap(ns string, i int) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("cm-%05d", i), Labels: map[string]string{"app": "bench"}},
		Data:       map[string]string{"config": benchPayload},
	}
}

// onSixteen runs job(0) to job(n-1), 16 at a time, and returns the first
// error; once one failed, no further job starts.
func onSixteen(n int, job func(i int) error) error {
	next := make(chan int)
	var first atomic.Pointer[error]
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for i := range next {
				if err := job(i); err != nil {
					first.CompareAndSwap(nil, &err)
				}
			}
		})
	}
	for i := 0; i < n && first.Load() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := first.Load(); err != nil {
		return *err
	}
	return nil
}

// seed creates n ConfigMaps in a new namespace, 16 at a time, and waits
// until the server's cache lists them all (a LIST at resourceVersion=0).
func (s *apiServer) seed(b *testing.B, n int) string {
	ns := s.newNamespace(b)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var st *ws.Storage
	if s.etcd != nil {
		st = ws.NewStorage(s.etcd)
	}
	err := onSixteen(n, func(i int) error {
		if st != nil {
			_, err := st.Create(ctx, benchConfigMap(ns, i))
			return err
		}
		_, err := s.cs.CoreV1().ConfigMaps(ns).Create(ctx, benchConfigMap(ns, i), metav1.CreateOptions{})
		return err
	})
	if err != nil {
		b.Fatalf("seeding %d ConfigMaps: %v", n, err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		list, err := s.cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
		if err == nil && len(list.Items) == n {
			return ns
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s lists %d of the %d ConfigMaps seeded (%v)", s.name, len(list.Items), n, err)
		}
	}
}
