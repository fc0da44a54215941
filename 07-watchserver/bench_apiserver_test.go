package watchserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	ws "example.com/walkthrough/07-watchserver"
)

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
	err := onSixteen(n, func(i int) error {
		body, err := s.cs.CoreV1().RESTClient().Get().Namespace(ns).Resource("configmaps").
			Param("watch", "true").Param("resourceVersion", rv).Param("allowWatchBookmarks", "true").
			Param("timeoutSeconds", "600").SetHeader("Accept", "application/json").Stream(ctx)
		streams[i] = body
		return err
	})
	if err != nil {
		closeAll()
		b.Fatalf("opening %d watches: %v", n, err)
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
