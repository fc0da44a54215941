package watchserver_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	ws "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/leak"
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
	if e.Started > time.Second {
		// Said only when slow: a failing test's report shows its log,
		// and a routine start is noise there (trial C).
		t.Logf("embedded etcd was slow to start: ready in %v at %s", e.Started, e.Endpoint)
	}
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

// pollUntil asks cond every few milliseconds until it holds, for up to
// within, and says whether it did: these tests run on a real etcd, on
// real time, so there is no bubble to wait in. Only a failure waits the
// whole time out.
func pollUntil(within time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(within); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// waitReady waits until the cache answers a list.
func waitReady(t testing.TB, c *ws.Cache) {
	t.Helper()
	if !pollUntil(10*time.Second, c.Ready) {
		t.Fatal("the watch cache did not become ready in 10s")
	}
}

// awaitEtcdWatchCreated returns once etcd has created every watch opened
// on client before it. etcd registers a watch before it marks it as
// wanting previous values, so a write landing in between is sent as a
// DELETE without PrevKv (our WatchEtcd turns that into a 500; one CI run in
// many did). clientv3 sends one stream's watch requests one at a time,
// each after etcd's reply to the last, so once a watch opened after ours
// is created, ours is created and marked. A stream is chosen by the
// context's metadata: the sentinel goes on the plain stream and on the one
// clientv3.WithRequireLeader picks, whichever the watch under test used.
func awaitEtcdWatchCreated(t testing.TB, client *clientv3.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, stream := range []context.Context{ctx, clientv3.WithRequireLeader(ctx)} {
		created := false
		for resp := range client.Watch(stream, "/walkthrough-sentinel", clientv3.WithCreatedNotify()) {
			if created = resp.Created; created {
				break
			}
		}
		if !created {
			t.Fatalf("etcd did not create a watch within 10s")
		}
	}
}

// handlersStillRunning says where each goroutine serving a request still
// waits, by the innermost function of the chapter's code (reference or
// exercise) on its stack: the report of a handler that never ends names
// the place, not only the symptom.
func handlersStillRunning() string {
	var places []string
	count := map[string]int{}
	for _, g := range leak.Stacks() {
		if !strings.Contains(g, "net/http.(*conn).serve") {
			continue
		}
		state := ""
		if head, _, ok := strings.Cut(g, "\n"); ok {
			if i, j := strings.Index(head, "["), strings.Index(head, "]"); i >= 0 && j > i {
				state = head[i+1 : j]
			}
		}
		lines := strings.Split(g, "\n")
		for i := 1; i+1 < len(lines); i += 2 {
			fn, file := strings.TrimSpace(lines[i]), strings.TrimSpace(lines[i+1])
			if strings.HasPrefix(fn, "example.com/walkthrough/07-watchserver") && !strings.Contains(file, "_test.go") {
				if at := strings.LastIndex(file, " +0x"); at >= 0 {
					file = file[:at]
				}
				if at := strings.LastIndex(fn, "("); at > 0 {
					fn = fn[:at] // the arguments: addresses
				}
				place := fmt.Sprintf("%s [%s]\n\t\t%s", fn, state, file)
				if count[place]++; count[place] == 1 {
					places = append(places, place)
				}
				break
			}
		}
	}
	if len(places) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("; still serving:")
	for _, place := range places {
		fmt.Fprintf(&b, "\n\t%d× %s", count[place], place)
	}
	return b.String()
}

// asCM is obj as the ConfigMap the tests stored (nil for nil): Storage,
// the cache and their events hand out runtime.Objects.
func asCM(obj runtime.Object) *corev1.ConfigMap {
	cm, _ := obj.(*corev1.ConfigMap)
	return cm
}

// asCMList is a list of ConfigMaps (an empty one for nil).
func asCMList(obj runtime.Object) *corev1.ConfigMapList {
	if l, ok := obj.(*corev1.ConfigMapList); ok {
		return l
	}
	return &corev1.ConfigMapList{}
}

// cmOf is a write's result as a ConfigMap, keeping its error.
func cmOf(obj runtime.Object, err error) (*corev1.ConfigMap, error) { return asCM(obj), err }

// cmListOf is a LIST's result as a ConfigMapList, keeping its error.
func cmListOf(obj runtime.Object, err error) (*corev1.ConfigMapList, error) {
	return asCMList(obj), err
}
