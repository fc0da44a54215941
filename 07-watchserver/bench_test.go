package watchserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
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

// BenchmarkFanOut: b.N ConfigMap writes, each delivered to N HTTP watchers
// (client-go watches, JSON), timed until every watcher has every event.
// .../ours is our server over embedded etcd; .../kube-apiserver runs only
// with a cluster (make cluster-up; WALKTHROUGH_E2E_KUBECONFIG), on the same
// machine. Reported: events delivered per second, all watchers together.
func BenchmarkFanOut(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("watchers=%d/ours", n), func(b *testing.B) {
			s := startServer(b, ws.CacheOptions{})
			fanOut(b, s.cs, "bench", n)
		})
		b.Run(fmt.Sprintf("watchers=%d/kube-apiserver", n), func(b *testing.B) {
			if os.Getenv(cluster.EnvKubeconfig) == "" {
				b.Skip("no cluster: make cluster-up, then set " + cluster.EnvKubeconfig)
			}
			cfg := cluster.Require(b)
			cs, err := kubernetes.NewForConfig(cfg)
			if err != nil {
				b.Fatal(err)
			}
			hc, _ := rest.HTTPClientFor(cfg)
			b.Cleanup(func() { utilnet.CloseIdleConnectionsFor(hc.Transport) })
			fanOut(b, cs, cluster.Namespace(b, cs.CoreV1()), n)
		})
	}
}

func fanOut(b *testing.B, cs kubernetes.Interface, ns string, n int) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cms := cs.CoreV1().ConfigMaps(ns)
	list, err := cms.List(ctx, metav1.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	for range n {
		w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
		if err != nil {
			b.Fatal(err)
		}
		defer w.Stop()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for got := 0; got < b.N; got++ {
				if _, ok := <-w.ResultChan(); !ok {
					return
				}
			}
		}()
	}
	b.ResetTimer()
	for i := range b.N {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("bench-%d-%d", n, i)}}
		if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	wg.Wait()
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "events/s")
}

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
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
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
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cli.Close() })
	return cli
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
		if _, err = s.etcd.Delete(ctx, ws.Prefix+ns+"/", clientv3.WithPrefix()); err == nil {
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
	next := make(chan int)
	errs := make(chan error, 16)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var err error
				if st != nil {
					_, err = st.Create(ctx, benchConfigMap(ns, i))
				} else {
					_, err = s.cs.CoreV1().ConfigMaps(ns).Create(ctx, benchConfigMap(ns, i), metav1.CreateOptions{})
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for i := range n {
		select {
		case next <- i:
		case err = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err == nil && len(errs) > 0 {
		err = <-errs
	}
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

// BenchmarkList: one LIST of a namespace of 1000 ConfigMaps per op, JSON,
// read to the last byte: at resourceVersion=0 (from the watch cache, in
// both servers), consistent (resourceVersion unset) and in pages of 500
// (consistent, following continue: the op is both pages).
func BenchmarkList(b *testing.B) {
	const n = 1000
	kinds := []struct {
		name  string
		rv    string
		limit int64
	}{
		{"rv=0", "0", 0},
		{"consistent", "", 0},
		{"limit=500", "", 500},
	}
	for _, k := range kinds {
		eachServer(b, fmt.Sprintf("objects=%d/%s", n, k.name), func(b *testing.B, s *apiServer) {
			ns := s.seed(b, n)
			ctx := context.Background()
			// Once untimed, decoded: the right objects, the right pages.
			got, pages := 0, 0
			for opts := (metav1.ListOptions{ResourceVersion: k.rv, Limit: k.limit}); ; pages++ {
				list, err := s.cs.CoreV1().ConfigMaps(ns).List(ctx, opts)
				if err != nil {
					b.Fatal(err)
				}
				got += len(list.Items)
				if opts.Continue = list.Continue; opts.Continue == "" {
					pages++
					break
				}
			}
			if want := max(1, int((n+k.limit-1)/max(k.limit, 1))); got != n || k.limit > 0 && pages != want {
				b.Fatalf("%s: %d objects in %d pages, want %d in %d", k.name, got, pages, n, want)
			}
			var bytesRead int
			for b.Loop() {
				bytesRead = 0
				cont := ""
				for {
					req := s.cs.CoreV1().RESTClient().Get().Namespace(ns).Resource("configmaps").SetHeader("Accept", "application/json")
					if k.rv != "" {
						req.Param("resourceVersion", k.rv)
					}
					if k.limit > 0 {
						req.Param("limit", fmt.Sprint(k.limit))
					}
					if cont != "" {
						req.Param("continue", cont)
					}
					body, err := req.DoRaw(ctx)
					if err != nil {
						b.Fatal(err)
					}
					bytesRead += len(body)
					if k.limit == 0 {
						break
					}
					meta, err := listMetaOf(body)
					if err != nil {
						b.Fatal(err)
					}
					if cont = meta.Continue; cont == "" {
						break
					}
				}
			}
			b.ReportMetric(float64(bytesRead), "bytes/list")
		})
	}
}

// listMetaOf reads a JSON list's metadata, which both servers write
// before the items, without parsing the items.
func listMetaOf(body []byte) (metav1.ListMeta, error) {
	var meta metav1.ListMeta
	d := json.NewDecoder(bytes.NewReader(body))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return meta, fmt.Errorf("a list that is not a JSON object: %.80q", body)
	}
	for d.More() {
		key, err := d.Token()
		if err != nil {
			return meta, err
		}
		if key == "metadata" {
			return meta, d.Decode(&meta)
		}
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return meta, err
		}
	}
	return meta, fmt.Errorf("a list without metadata: %.80q", body)
}

// BenchmarkWatchList: one op opens a watch with sendInitialEvents=true,
// resourceVersionMatch=NotOlderThan and allowWatchBookmarks=true on a
// namespace of N ConfigMaps (resourceVersion unset: a consistent start),
// reads its N ADDED events until the BOOKMARK annotated
// k8s.io/initial-events-end, and closes it.
func BenchmarkWatchList(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		eachServer(b, fmt.Sprintf("objects=%d", n), func(b *testing.B, s *apiServer) {
			ns := s.seed(b, n)
			for b.Loop() {
				added, err := watchList(s, ns)
				if err != nil {
					b.Fatal(err)
				}
				if added != n {
					b.Fatalf("%d ADDED events before the initial-events-end bookmark, want %d", added, n)
				}
			}
		})
	}
}

// watchList is one WatchList: the ADDED events it read before the
// initial-events-end bookmark. Frames are JSON lines, each starting with
// its type (both servers marshal metav1.WatchEvent); only that and the
// bookmark's annotation are looked at.
func watchList(s *apiServer, ns string) (added int, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	body, err := s.cs.CoreV1().RESTClient().Get().Namespace(ns).Resource("configmaps").
		Param("watch", "true").Param("sendInitialEvents", "true").
		Param("resourceVersionMatch", "NotOlderThan").Param("allowWatchBookmarks", "true").
		Param("timeoutSeconds", "60").SetHeader("Accept", "application/json").Stream(ctx)
	if err != nil {
		return 0, err
	}
	defer body.Close()
	r := bufio.NewReaderSize(body, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return added, fmt.Errorf("after %d ADDED: %w", added, err)
		}
		switch {
		case bytes.HasPrefix(line, []byte(`{"type":"ADDED"`)):
			added++
		case bytes.HasPrefix(line, []byte(`{"type":"BOOKMARK"`)):
			if bytes.Contains(line, []byte(`"`+ws.InitialEventsEnd+`":"true"`)) {
				return added, nil
			}
		default:
			return added, fmt.Errorf("after %d ADDED: unexpected frame %.200s", added, line)
		}
	}
}

// BenchmarkWrite: b.N creates of new ConfigMaps, or b.N updates of one
// ConfigMap (each sending the resourceVersion the last one returned), one
// at a time, through client-go's typed client. Reported as ops/s too.
func BenchmarkWrite(b *testing.B) {
	eachServer(b, "create", func(b *testing.B, s *apiServer) {
		ns := s.newNamespace(b)
		cms := s.cs.CoreV1().ConfigMaps(ns)
		ctx := context.Background()
		i := 0
		for b.Loop() {
			if _, err := cms.Create(ctx, benchConfigMap(ns, i), metav1.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
			i++
		}
		b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "ops/s")
	})
	eachServer(b, "update", func(b *testing.B, s *apiServer) {
		ns := s.newNamespace(b)
		cms := s.cs.CoreV1().ConfigMaps(ns)
		ctx := context.Background()
		cm, err := cms.Create(ctx, benchConfigMap(ns, 0), metav1.CreateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			i++
			cm.Data["config"] = strconv.Itoa(i)
			if cm, err = cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "ops/s")
	})
}

// BenchmarkWatchers: the server's memory for 1000 watches open on one
// (empty) namespace, beside another of 1000 ConfigMaps (ballast), each as an informer opens it (resourceVersion from a
// LIST, allowWatchBookmarks), over HTTP/2 (100 streams a connection, so
// ten connections). Both servers run in processes of their own, so both
// are measured alike, before the first watch, with all 1000 open, and
// once they are closed again, each time once a whole garbage collection
// has run after that moment (go_gc_cycles_total_gc_cycles_total, from
// /metrics, has moved by two; LISTs of another namespace hasten it,
// memoryAfterGC):
//
//   - B/watcher: VmRSS (/proc/PID/status), open less before. What the OS
//     sees, but a Go process keeps the pages it freed until its scavenger
//     returns them: a server whose heap shrank before (kube-apiserver,
//     after the other benchmarks) grows into those first, and its RSS
//     barely moves.
//   - liveB/watcher: go_gc_heap_live_bytes (the heap the last collection
//     found live) plus go_memstats_stack_inuse_bytes (goroutine stacks),
//     open less the mean of before and closed: the memory the watches
//     hold, without garbage or slack, and without what the server's
//     memory drifted by meanwhile (kube-apiserver's drifts by megabytes,
//     as its caches settle after the other benchmarks).
//   - goroutines/watcher: go_goroutines, open less before.
//
// Each is that difference over 1000, measured in the first op; ns/op is
// one op: open 1000 watches (each until its response's headers), then
// close them (the first op's close is not timed).
func BenchmarkWatchers(b *testing.B) {
	const n = 1000
	eachServer(b, fmt.Sprintf("watchers=%d", n), func(b *testing.B, s *apiServer) {
		if s.pid == 0 {
			b.Skip("the kube-apiserver of this kubeconfig is not the one make cluster-up started: its memory cannot be read")
		}
		ballast := s.seed(b, 1000)
		ns := s.newNamespace(b)
		ctx := context.Background()
		list, err := s.cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			b.Fatal(err)
		}
		before := s.memoryAfterGC(b, ballast)
		first := true
		for b.Loop() {
			closeAll := openWatches(b, s, ns, list.ResourceVersion, n)
			if !first {
				closeAll()
				continue
			}
			first = false
			b.StopTimer()
			open := s.memoryAfterGC(b, ballast)
			closeAll()
			s.waitGoroutines(b, before.goroutines)
			closed := s.memoryAfterGC(b, ballast)
			base := (before.live + before.stacks + closed.live + closed.stacks) / 2
			b.ReportMetric((open.rss-before.rss)/n, "B/watcher")
			b.ReportMetric((open.live+open.stacks-base)/n, "liveB/watcher")
			b.ReportMetric((open.goroutines-before.goroutines)/n, "goroutines/watcher")
			b.Logf("%s: before, open, closed: VmRSS %s MB, live heap %s MB, stacks %s MB, goroutines %s",
				s.name, mb(before.rss, open.rss, closed.rss), mb(before.live, open.live, closed.live),
				mb(before.stacks, open.stacks, closed.stacks),
				fmt.Sprintf("%.0f, %.0f, %.0f", before.goroutines, open.goroutines, closed.goroutines))
			b.StartTimer()
		}
	})
}

func mb(v ...float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf("%.1f", x/1e6)
	}
	return strings.Join(s, ", ")
}

// waitGoroutines waits until the server runs no more goroutines than it
// did before the watches opened, give or take 50: it has let them go. (The
// ten HTTP/2 connections stay open, idle in the client's pool, with two
// goroutines each on the server; kube-apiserver's own count wanders by a
// few.)
func (s *apiServer) waitGoroutines(b *testing.B, want float64) {
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		m := s.memory(b)
		if m.goroutines <= want+50 {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s: %.0f goroutines 30s after the watches closed, %.0f before they opened", s.name, m.goroutines, want)
		}
	}
}

// openWatches opens n watches, 16 at a time; each has its response's
// headers, so the server has registered it. closeAll closes them.
func openWatches(b *testing.B, s *apiServer, ns, rv string, n int) (closeAll func()) {
	ctx, cancel := context.WithCancel(context.Background())
	streams := make([]io.ReadCloser, n)
	closeAll = func() {
		cancel()
		for _, s := range streams {
			if s != nil {
				s.Close()
			}
		}
	}
	next := make(chan int)
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				body, err := s.cs.CoreV1().RESTClient().Get().Namespace(ns).Resource("configmaps").
					Param("watch", "true").Param("resourceVersion", rv).Param("allowWatchBookmarks", "true").
					Param("timeoutSeconds", "600").SetHeader("Accept", "application/json").Stream(ctx)
				if err != nil {
					failed.CompareAndSwap(nil, &err)
					continue
				}
				streams[i] = body
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := failed.Load(); err != nil {
		closeAll()
		b.Fatalf("opening %d watches: %v", n, *err)
	}
	return closeAll
}

// serverMemory is what BenchmarkWatchers reads of a server process.
type serverMemory struct{ rss, live, stacks, goroutines, gcCycles float64 }

// memoryAfterGC waits until a whole garbage collection has run after now
// (two cycles end: the first may have started marking before now), then
// reads the server's memory. Meanwhile it LISTs ballast, a namespace of
// 1000 ConfigMaps, from the cache, over and over: each LIST leaves the
// server a few MB of garbage, and the collection comes in a second or
// two rather than after the half a minute kube-apiserver's idle heap
// takes to grow to its goal.
func (s *apiServer) memoryAfterGC(b *testing.B, ballast string) serverMemory {
	start := s.memory(b)
	deadline := time.Now().Add(5 * time.Minute)
	for {
		for until := time.Now().Add(250 * time.Millisecond); time.Now().Before(until); {
			if _, err := s.cs.CoreV1().RESTClient().Get().Namespace(ballast).Resource("configmaps").
				Param("resourceVersion", "0").SetHeader("Accept", "application/json").DoRaw(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
		m := s.memory(b)
		if m.gcCycles >= start.gcCycles+2 {
			return m
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s: not two garbage collections in 5 minutes", s.name)
		}
	}
}

func (s *apiServer) memory(b *testing.B) serverMemory {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.pid))
	if err != nil {
		b.Fatal(err)
	}
	var m serverMemory
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			if err != nil {
				b.Fatalf("VmRSS: %q: %v", line, err)
			}
			m.rss = kb * 1024
		}
	}
	metrics, err := s.cs.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	fields := map[string]*float64{
		"go_gc_heap_live_bytes":              &m.live,
		"go_memstats_stack_inuse_bytes":      &m.stacks,
		"go_goroutines":                      &m.goroutines,
		"go_gc_cycles_total_gc_cycles_total": &m.gcCycles,
	}
	for _, line := range strings.Split(string(metrics), "\n") {
		name, value, _ := strings.Cut(line, " ")
		if f, ok := fields[name]; ok {
			if *f, err = strconv.ParseFloat(value, 64); err != nil {
				b.Fatalf("%s: %v", line, err)
			}
			delete(fields, name)
		}
	}
	if len(fields) > 0 || m.rss == 0 {
		b.Fatalf("%s (pid %d): VmRSS or a metric missing (missing: %v)", s.name, s.pid, fields)
	}
	return m
}
