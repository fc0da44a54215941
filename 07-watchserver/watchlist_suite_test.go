package watchserver_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/tools/cache"

	listwatch "example.com/walkthrough/01-listwatch"
	"example.com/walkthrough/01-listwatch/testserver"
	ws "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/scenario"
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
//   - Time. 01's files advance a fake clock; here the clock is real, so
//     advance sleeps, each step then waits (up to waitFor) for the lines
//     the file expects, and a step that expects nothing waits a moment
//     (settle) for nothing to happen.
//
// suiteFiles are chapter 01's scenarios whose server only has to be a
// server: the WatchList suite, and the classic list-then-watch files
// whose faults a proxy can play. The others script what no real server
// does on cue (a raw or malformed frame, a bookmark now, a page cap, a
// compaction between two pages), wait out hours of fake time, or tell
// 799 ms from 801 ms, which a real clock cannot do reliably.
var suiteFiles = []string{
	"watchlist.txt", "watchlist-fallback.txt", "watchlist-retry.txt", "watchlist-rewatch.txt",
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
				datadriven.RunTest(t, files[name].Path, newSuiteDriver(t, client, files[name]).step)
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

// suiteDriver plays one of 01's files: our server behind a fault proxy,
// one Reflector on it, and the trace of what happened.
type suiteDriver struct {
	client string
	// watchList is the WatchListClient feature of the file: client-go's
	// gate is set from it, 01's Reflector takes it as an option.
	watchList bool
	srv       *testServer
	proxy     *faultProxy
	base      int64 // etcd's revision before the file's first write
	tr        *suiteTrace
	store     *suiteStore
	lastRV    func() string
	stopRun   func()
}

func newSuiteDriver(t *testing.T, client string, f *scenario.File) *suiteDriver {
	d := &suiteDriver{client: client, tr: &suiteTrace{}, watchList: true}
	for feature, on := range f.Features {
		if feature != "WatchListClient" {
			t.Fatalf("%s sets the feature gate %s: this suite plays WatchListClient only", f.Path, feature)
		}
		d.watchList = on
	}
	d.srv = startServer(t, ws.CacheOptions{})
	rev, err := d.srv.storage.CurrentRevision(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	d.base = rev
	d.proxy = newFaultProxy(t, d.srv.server, func(r testserver.Request) {
		r.Path = strings.Replace(r.Path, "/configmaps", "/pods", 1)
		if rv := r.Query.Get("resourceVersion"); rv != "" && rv != "0" {
			r.Query.Set("resourceVersion", d.rel(rv))
		}
		d.tr.add("%s", r)
	})
	t.Cleanup(func() {
		if d.stopRun != nil {
			d.stopRun()
		}
	})
	return d
}

// rel is a resource version counted from the file's start, as 01's
// scripted server counts them.
func (d *suiteDriver) rel(rv string) string {
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil {
		return rv
	}
	return strconv.FormatInt(n-d.base, 10)
}

// describe writes an object as "namespace/name@rv", the version relative.
func (d *suiteDriver) describe(obj any) string {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("(%T)", obj)
	}
	return m.GetNamespace() + "/" + m.GetName() + "@" + d.rel(m.GetResourceVersion())
}

// caughtUp waits until the watch cache has seen the write at rv. 01's
// scripted server is consistent the moment a write returns; ours, like
// kube-apiserver, serves LIST at resourceVersion=0 from a cache that an
// etcd watch keeps a moment behind.
func (d *suiteDriver) caughtUp(t *testing.T, rv string) {
	want, err := strconv.ParseInt(rv, 10, 64)
	if err != nil {
		t.Fatalf("resourceVersion %q: %v", rv, err)
	}
	deadline := time.Now().Add(waitFor)
	for d.srv.cache.RV() < want {
		if time.Now().After(deadline) {
			t.Fatalf("the watch cache is still at %d, %v after the write at %d", d.srv.cache.RV(), waitFor, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// settle is how long a step that expects nothing waits for nothing to
// happen; waitFor is the most a step waits for what it expects.
const (
	settle  = 150 * time.Millisecond
	waitFor = 10 * time.Second
)

func (d *suiteDriver) step(t *testing.T, td *datadriven.TestData) string {
	ctx := context.Background()
	cms := d.srv.cs.CoreV1()
	var out []string
	say := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }

	switch td.Cmd {
	case "server":
		d.proxy.withoutWatchList.Store(td.HasArg("without-watchlist"))

	case "create", "update":
		for _, l := range linesOf(td) {
			cm := suiteConfigMap(t, td, l)
			var got *corev1.ConfigMap
			var err error
			if td.Cmd == "create" {
				got, err = cms.ConfigMaps(cm.Namespace).Create(ctx, cm, metav1.CreateOptions{})
			} else {
				got, err = cms.ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
			}
			if err != nil {
				td.Fatalf(t, "%v", err)
			}
			say("server: %s %s", td.Cmd, d.describe(got))
			d.caughtUp(t, got.ResourceVersion)
		}

	case "delete":
		for _, key := range linesOf(td) {
			ns, name, _ := strings.Cut(key, "/")
			got, err := d.srv.storage.Delete(ctx, ns, name)
			if err != nil {
				td.Fatalf(t, "%v", err)
			}
			say("server: delete %s", d.describe(got))
			d.caughtUp(t, got.ResourceVersion)
		}

	case "start":
		d.start(t)

	case "advance":
		// The clock is real, so this much of it passes: the Reflector
		// tells a very short watch (under a second) from a healthy one.
		dur, err := time.ParseDuration(td.CmdArgs[0].Key)
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		time.Sleep(dur)

	case "drop-watches":
		d.proxy.dropWatches()

	case "fail", "error-frame":
		var code int
		td.ScanArgs(t, "code", &code)
		var reason string
		td.MaybeScanArgs(t, "reason", &reason)
		status := &metav1.Status{Status: metav1.StatusFailure, Code: int32(code),
			Reason: metav1.StatusReason(reason), Message: http.StatusText(code)}
		if td.Cmd == "error-frame" {
			d.proxy.sendError(status)
			break
		}
		var verb string
		td.ScanArgs(t, "verb", &verb)
		d.proxy.failNext(verb, status)

	case "store":
		return d.until(td, func() string { return strings.Join(orNone(d.store.contents(d)), "\n") })

	case "same":
		return d.until(td, func() string {
			list, err := cms.ConfigMaps("").List(ctx, metav1.ListOptions{})
			if err != nil {
				return err.Error()
			}
			var want []string
			for i := range list.Items {
				want = append(want, d.describe(&list.Items[i]))
			}
			sort.Strings(want)
			got := d.store.contents(d)
			if strings.Join(got, " ") == strings.Join(want, " ") {
				return "store == server: " + strconv.Itoa(len(got)) + " objects"
			}
			return "store != server\nstore:  " + strings.Join(got, " ") + "\nserver: " + strings.Join(want, " ")
		})

	case "last-sync-rv":
		return d.until(td, func() string { return fmt.Sprintf("%q", d.rel(d.lastRV())) })

	default:
		td.Fatalf(t, "chapter 01's command %q has no counterpart against a real server", td.Cmd)
	}
	var shown int // trace lines in the last print
	got := d.until(td, func() string {
		lines := d.tr.peek()
		shown = len(lines)
		all := append(out[:len(out):len(out)], lines...)
		if len(all) == 0 {
			return "(nothing)"
		}
		return strings.Join(all, "\n")
	})
	d.tr.drop(shown)
	return got
}

// until polls show until it prints what the file expects or waitFor runs
// out, and returns the last print. When the file expects nothing, it
// first lets settle pass, so that something unexpected has the time to
// show up.
func (d *suiteDriver) until(td *datadriven.TestData, show func() string) string {
	want := strings.TrimSpace(td.Expected)
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

// start runs the chosen Reflector on the proxy until the test ends.
func (d *suiteDriver) start(t *testing.T) {
	d.store = &suiteStore{Store: cache.NewStore(cache.MetaNamespaceKeyFunc), d: d}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	switch d.client {
	case "01-listwatch":
		client := &listwatch.Client{HTTP: d.proxy.http.Client(), Base: d.proxy.http.URL,
			Path: "/api/v1/configmaps", Kind: listwatch.Typed[corev1.ConfigMap]("ConfigMap")}
		r := listwatch.NewReflector(client, &corev1.ConfigMap{}, d.store, listwatch.ReflectorOptions{UseWatchList: d.watchList})
		d.lastRV = r.LastSyncResourceVersion
		go func() { defer close(done); r.Run(ctx) }()
	case "client-go":
		// As 01's client-go adapter lists and watches: through the REST
		// client, so the requests are the ones its goldens recorded.
		cs := clientsetFor(t, d.proxy.http.URL)
		rest := cache.NewListWatchFromClient(cs.CoreV1().RESTClient(), "configmaps", metav1.NamespaceAll, fields.Everything())
		var lw cache.ListerWatcher = rest
		if !d.watchList {
			lw = cache.ToListWatcherWithWatchListSemantics(rest, withoutWatchList{})
		}
		r := cache.NewReflectorWithOptions(lw, &corev1.ConfigMap{}, d.store, cache.ReflectorOptions{})
		d.lastRV = r.LastSyncResourceVersion
		go func() { defer close(done); r.RunWithContext(ctx) }()
	}
	d.stopRun = func() { cancel(); <-done }
}

// withoutWatchList turns client-go's WatchListClient gate off for one
// Reflector, through client-go's own opt-out for clients that cannot
// stream a list (cache.ToListWatcherWithWatchListSemantics). The gate is
// global, and the Reflector reads it, and this opt-out, once, when it is
// built (NewReflectorWithOptions, reflector.go:361-363): either one off,
// and it lists then watches. Setting the gate would make the files that
// turn it off wait for the others; with the opt-out, all run side by side.
type withoutWatchList struct{}

func (withoutWatchList) IsWatchListSemanticsUnSupported() bool { return true }

func suiteConfigMap(t *testing.T, td *datadriven.TestData, line string) *corev1.ConfigMap {
	fields := strings.Fields(line)
	ns, name, ok := strings.Cut(fields[0], "/")
	if !ok {
		td.Fatalf(t, "want namespace/name, got %q", fields[0])
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	for _, f := range fields[1:] {
		k, v, _ := strings.Cut(f, "=")
		if k != "labels" {
			td.Fatalf(t, "only labels= has a ConfigMap counterpart, not %q", f)
		}
		cm.Labels = map[string]string{}
		for _, kv := range strings.Split(v, ",") {
			lk, lv, _ := strings.Cut(kv, ":")
			cm.Labels[lk] = lv
		}
	}
	return cm
}

// linesOf is a step's input, one trimmed line each, blank lines left out.
func linesOf(td *datadriven.TestData) []string {
	var ls []string
	for _, l := range strings.Split(td.Input, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			ls = append(ls, l)
		}
	}
	return ls
}

func orNone(s []string) []string {
	if len(s) == 0 {
		return []string{"(none)"}
	}
	return s
}

// suiteTrace is what happened, in order: requests and store calls.
type suiteTrace struct {
	mu    sync.Mutex
	lines []string
}

func (tr *suiteTrace) add(format string, args ...any) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = append(tr.lines, fmt.Sprintf(format, args...))
}

func (tr *suiteTrace) peek() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]string(nil), tr.lines...)
}

// drop forgets the first n lines: those a step has shown.
func (tr *suiteTrace) drop(n int) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = tr.lines[n:]
}

// suiteStore is client-go's store with every call written to the trace,
// as 01's recording store writes them.
type suiteStore struct {
	cache.Store
	d *suiteDriver
}

func (s *suiteStore) Add(obj any) error {
	s.d.tr.add("store: add %s", s.d.describe(obj))
	return s.Store.Add(obj)
}

func (s *suiteStore) Update(obj any) error {
	s.d.tr.add("store: update %s", s.d.describe(obj))
	return s.Store.Update(obj)
}

func (s *suiteStore) Delete(obj any) error {
	s.d.tr.add("store: delete %s", s.d.describe(obj))
	return s.Store.Delete(obj)
}

func (s *suiteStore) Replace(list []any, rv string) error {
	keys := make([]string, len(list))
	for i, obj := range list {
		keys[i] = s.d.describe(obj)
	}
	sort.Strings(keys)
	s.d.tr.add("store: replace rv=%s %s", s.d.rel(rv), strings.Join(orNone(keys), " "))
	return s.Store.Replace(list, rv)
}

func (s *suiteStore) Resync() error {
	s.d.tr.add("store: resync")
	return s.Store.Resync()
}

func (s *suiteStore) contents(d *suiteDriver) []string {
	var out []string
	for _, obj := range s.List() {
		out = append(out, d.describe(obj))
	}
	sort.Strings(out)
	return out
}
