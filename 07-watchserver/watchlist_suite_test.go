package watchserver_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/tools/cache"

	listwatch "example.com/walkthrough/01-listwatch"
	"example.com/walkthrough/01-listwatch/lwscenario"
	"example.com/walkthrough/01-listwatch/testserver"
	ws "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// TestChapter01WatchListSuite plays chapter 01's WatchList scenarios
// (01-listwatch/testdata/scenarios/watchlist*.txt, recorded from
// client-go against 01's scripted server) against our server on a real
// etcd, with chapter 01's Reflector and with client-go's, and wants the
// same trace, line for line.
//
// What has to bridge the two worlds, and nothing else:
//   - Names and numbers. 01's files speak of pods from version 1; our
//     server keeps ConfigMaps in an etcd whose first write is revision 2.
//     The trace shows /configmaps as /pods and every version less the
//     revision etcd started at.
//   - Faults. A real server does not refuse a request, drop a stream or
//     send a 410 on cue, so a proxy in front of ours does (faultProxy),
//     as a load balancer, API priority and fairness, or a server without
//     the WatchList feature would. Everything else, the streaming list
//     and its bookmark above all, is our server's own.
//   - Time. 01's files advance a fake clock; here the server's clock is
//     real. client-go's Reflector takes a clock that jumps at an advance
//     (jumpClock); 01's Reflector reads the real one, so there advance
//     sleeps. Each step then waits (up to waitFor) for the lines the file
//     expects, and a step that expects nothing waits a moment (settle)
//     for nothing to happen.
//
// suiteFiles are chapter 01's scenarios whose server only has to be a
// server: the WatchList suite, and the classic list-then-watch files
// whose faults a proxy can play. The others script what no real server
// does on cue (a raw or malformed frame, a bookmark now, a page cap, a
// compaction between two pages), wait out hours of fake time, or tell
// 799 ms from 801 ms, which a real clock cannot do reliably.
var suiteFiles = []string{
	"watchlist.txt", "watchlist-fallback.txt", "watchlist-retry.txt", "watchlist-rewatch.txt", "watchlist-broken.txt",
	"list-then-watch.txt", "watch-events.txt", "dropped-watch.txt", "list-gone.txt",
}

func TestChapter01ScenariosOnOurServer(t *testing.T) {
	t.Parallel() // its own etcd and server: it waits beside the others
	files := map[string]*scenario.File{}
	for _, name := range suiteFiles {
		f, err := scenario.ReadFile(filepath.Join("..", "01-listwatch", "testdata", "scenarios", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	// Each file has its own etcd and server, and spends its time waiting on
	// real clocks: files run side by side.
	play := func(t *testing.T, client string, names []string) {
		for _, name := range names {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				d := newSuiteDriver(t, client, files[name])
				datadriven.RunTest(t, files[name].Path, func(t *testing.T, td *datadriven.TestData) string { return d.Step(t, td) })
			})
		}
	}
	t.Run("01-listwatch", func(t *testing.T) {
		t.Parallel() // 01's Reflector reads no feature gate
		play(t, "01-listwatch", suiteFiles)
	})
	t.Run("client-go", func(t *testing.T) {
		t.Parallel()
		play(t, "client-go", suiteFiles)
	})
}

// suiteDriver is chapter 01's driver, playing one of its files on our
// server behind a fault proxy (suiteBackend), with the chosen Reflector.
func newSuiteDriver(t *testing.T, client string, f *scenario.File) *lwscenario.Driver {
	for feature := range f.Features {
		if feature != "WatchListClient" {
			t.Fatalf("%s sets the feature gate %s: this suite plays WatchListClient only", f.Path, feature)
		}
	}
	b := &suiteBackend{t: t, srv: startServer(t, ws.CacheOptions{})}
	rev, err := b.srv.storage.CurrentRevision(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b.base = rev
	b.proxy = newFaultProxy(t, b.srv.server, func(r testserver.Request) {
		r.Path = strings.Replace(r.Path, "/configmaps", "/pods", 1)
		if rv := r.Query.Get("resourceVersion"); rv != "" && rv != "0" {
			r.Query.Set("resourceVersion", b.RV(rv))
		}
		b.tr.Add("%s", r)
	})
	return lwscenario.New(t, lwscenario.Impl{NewReflector: b.reflector(client)}, b, f)
}

// suiteBackend is our server on a real etcd, behind a fault proxy, as
// chapter 01's driver sees a server: ConfigMaps stand in for pods, and
// versions count from the file's first write.
type suiteBackend struct {
	t     *testing.T
	srv   *testServer
	proxy *faultProxy
	base  int64 // etcd's revision before the file's first write
	tr    *notation.Trace
	// clock is the Reflector's (ReflectorOptions.Clock, in client-go's and
	// in 01's), which jumps at an advance.
	clock *jumpClock
	// realTimeUnlessUsed lets the time really pass at an advance while
	// nobody has read the clock: 01's Reflector may be yours (--mine), and
	// yours may read the real clock, not the one its options give.
	realTimeUnlessUsed bool
}

// Serve takes the file's server options: only a server without the
// WatchList feature has a counterpart here (the proxy plays it).
func (b *suiteBackend) Serve(opts testserver.Options, tr *notation.Trace) error {
	if opts.MaxPageSize != 0 {
		return fmt.Errorf("max-page has no counterpart against a real server")
	}
	if b.tr == nil { // the proxy's requests go to it from now on
		b.tr = tr
	}
	b.proxy.withoutWatchList.Store(opts.WithoutWatchList)
	return nil
}

// Write creates or updates the pod's ConfigMap counterpart: only its
// labels carry over, a ConfigMap has no node.
func (b *suiteBackend) Write(verb string, pod *corev1.Pod) (string, error) {
	if pod.Spec.NodeName != "" {
		return "", fmt.Errorf("only labels= has a ConfigMap counterpart, not node=")
	}
	defer b.held()()
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name, Labels: pod.Labels}}
	cms := b.srv.cs.CoreV1().ConfigMaps(cm.Namespace)
	var got *corev1.ConfigMap
	var err error
	if verb == "create" {
		got, err = cms.Create(ctx, cm, metav1.CreateOptions{})
	} else {
		got, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	}
	if err != nil {
		return "", err
	}
	b.caughtUp(got.ResourceVersion)
	return b.RV(got.ResourceVersion), nil
}

func (b *suiteBackend) Delete(ns, name string) (string, error) {
	defer b.held()()
	got, err := cmOf(b.srv.storage.Delete(context.Background(), ns, name))
	if err != nil {
		return "", err
	}
	b.caughtUp(got.ResourceVersion)
	return b.RV(got.ResourceVersion), nil
}

// held stops the Reflector's clock for a write (jumpClock.hold); with no
// jumping clock it does nothing.
func (b *suiteBackend) held() (release func()) {
	if b.clock == nil {
		return func() {}
	}
	return b.clock.hold()
}

// Objects lists the ConfigMaps through the server, as "ns/name@rv".
func (b *suiteBackend) Objects() []string {
	list, err := b.srv.cs.CoreV1().ConfigMaps("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, cm := range list.Items {
		out = append(out, cm.Namespace+"/"+cm.Name+"@"+b.RV(cm.ResourceVersion))
	}
	sort.Strings(out)
	return out
}

// Fail plays a refused request; a real server has no HTML error page,
// Retry-After or reset on cue.
func (b *suiteBackend) Fail(f testserver.Fault) error {
	if f.Body != "" || f.RetryAfter != "" || f.Reset {
		return fmt.Errorf("only code, reason and times of fail have a counterpart against a real server")
	}
	b.proxy.failNext(f.Verb, &metav1.Status{Status: metav1.StatusFailure, Code: f.Code, Reason: f.Reason, Message: f.Message})
	return nil
}

func (b *suiteBackend) SendError(code int32, reason metav1.StatusReason, message string) {
	b.proxy.sendError(&metav1.Status{Status: metav1.StatusFailure, Code: code, Reason: reason, Message: message})
}

func (b *suiteBackend) DropWatches()                 { b.proxy.dropWatches() }
func (b *suiteBackend) Scripted() *testserver.Server { return nil }

// RV is a resource version counted from the file's start, as 01's
// scripted server counts them.
func (b *suiteBackend) RV(rv string) string {
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil {
		return rv
	}
	return strconv.FormatInt(n-b.base, 10)
}

// caughtUp waits until the watch cache has seen the write at rv. 01's
// scripted server is consistent the moment a write returns; ours, like
// kube-apiserver, serves LIST at resourceVersion=0 from a cache that an
// etcd watch keeps a moment behind.
func (b *suiteBackend) caughtUp(rv string) {
	want, err := strconv.ParseInt(rv, 10, 64)
	if err != nil {
		b.t.Fatalf("resourceVersion %q: %v", rv, err)
	}
	deadline := time.Now().Add(waitFor)
	for b.srv.cache.RV() < want {
		if time.Now().After(deadline) {
			b.t.Fatalf("the watch cache is still at %d, %v after the write at %d", b.srv.cache.RV(), waitFor, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// settle is how long a step that expects nothing waits for nothing to
// happen; waitFor is the most a step waits for what it expects;
// jumpPatience is how long an advance on a jumping clock waits for the
// Reflector to start the wait that the advance ends.
const (
	settle       = 150 * time.Millisecond
	waitFor      = 10 * time.Second
	jumpPatience = 250 * time.Millisecond
)

// Advance jumps the Reflector's clock; for 01's, as long as it has never
// read that clock (a Reflector of yours that reads the real one), the
// time really passes instead.
func (b *suiteBackend) Advance(d time.Duration) {
	if b.clock == nil || b.realTimeUnlessUsed && !b.clock.used() {
		time.Sleep(d)
		return
	}
	b.clock.waitForTimer(d, jumpPatience)
	b.clock.Jump(d)
}

// Await polls show until it prints what the file expects or waitFor runs
// out, and returns the last print. When the file expects nothing, it
// first lets settle pass, so that something unexpected has the time to
// show up.
func (b *suiteBackend) Await(want string, show func() string) string {
	want = strings.TrimSpace(want)
	if want == "(nothing)" {
		time.Sleep(settle)
	}
	deadline := time.Now().Add(waitFor)
	for {
		got := show()
		if got == want || time.Now().After(deadline) {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// reflector makes the chosen Reflector over the proxy, writing into the
// recording store without its Bookmark (withoutBookmarks).
func (b *suiteBackend) reflector(client string) func(cfg lwscenario.ReflectorConfig) (func(context.Context), func() string) {
	return func(cfg lwscenario.ReflectorConfig) (func(context.Context), func() string) {
		store := withoutBookmarks{cfg.Store}
		switch client {
		case "01-listwatch":
			lw := &listwatch.Client{HTTP: b.proxy.http.Client(), Base: b.proxy.http.URL,
				Path: "/api/v1/configmaps", Kind: listwatch.Typed[corev1.ConfigMap]("ConfigMap")}
			b.clock, b.realTimeUnlessUsed = newJumpClock(), true
			r := listwatch.NewReflector(lw, &corev1.ConfigMap{}, store, listwatch.ReflectorOptions{UseWatchList: cfg.WatchList, Clock: b.clock})
			return r.Run, r.LastSyncResourceVersion
		default:
			// As 01's client-go adapter lists and watches: through the REST
			// client, so the requests are the ones its goldens recorded.
			cs := clientsetFor(b.t, b.proxy.http.URL)
			rest := cache.NewListWatchFromClient(cs.CoreV1().RESTClient(), "configmaps", metav1.NamespaceAll, fields.Everything())
			var lw cache.ListerWatcher = rest
			if !cfg.WatchList {
				lw = cache.ToListWatcherWithWatchListSemantics(rest, withoutWatchList{})
			}
			b.clock = newJumpClock()
			r := cache.NewReflectorWithOptions(lw, &corev1.ConfigMap{}, store, cache.ReflectorOptions{Clock: b.clock})
			return r.RunWithContext, r.LastSyncResourceVersion
		}
	}
}

// withoutBookmarks is a store with no Bookmark method (the ReflectorStore
// methods alone), so no Reflector tells it bookmarks: our server sends
// them when 01's scripted one does not.
type withoutBookmarks struct{ listwatch.ReflectorStore }

// withoutWatchList turns client-go's WatchListClient gate off for one
// Reflector, through client-go's own opt-out for clients that cannot
// stream a list (cache.ToListWatcherWithWatchListSemantics). The gate is
// global, and the Reflector reads it, and this opt-out, once, when it is
// built (NewReflectorWithOptions, reflector.go:361-363): either one off,
// and it lists then watches. Setting the gate would make the files that
// turn it off wait for the others; with the opt-out, all run side by side.
type withoutWatchList struct{}

func (withoutWatchList) IsWatchListSemanticsUnSupported() bool { return true }
