// Package chaos_test is the fault tier (`make chaos`, docs/e2e.md): ours and client-go side by
// side on a real control plane while connections are cut, kube-apiserver and etcd restart,
// etcd compacts, writers churn and frames arrive broken. After each fault every cache must
// equal a fresh LIST (key and resourceVersion) and every handler must have told a consistent
// story. It needs a cluster and WALKTHROUGH_CHAOS=1: run `make chaos`.
package chaos_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	listwatch "example.com/walkthrough/01-listwatch"
	indexer "example.com/walkthrough/03-indexer"
	ours "example.com/walkthrough/04-processor"
	"example.com/walkthrough/workshop/cluster"
	"example.com/walkthrough/workshop/faults"
)

// resource is one collection the suite writes and watches: ConfigMaps (served from the API
// server's watch cache) or PodTemplates (watch cache off: watches go to etcd, so a compaction
// gives the next watch 410 Gone at once).
type resource struct {
	plural string
	proto  runtime.Object
	kind   listwatch.Kind
}

var (
	configMaps   = resource{"configmaps", &corev1.ConfigMap{}, listwatch.Typed[corev1.ConfigMap]("ConfigMap")}
	podTemplates = resource{"podtemplates", &corev1.PodTemplate{}, listwatch.Typed[corev1.PodTemplate]("PodTemplate")}
)

func (r resource) listWatch(cs kubernetes.Interface, ns string, lists *atomic.Int64) *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			lists.Add(1)
			if r.plural == "configmaps" {
				return cs.CoreV1().ConfigMaps(ns).List(ctx, o)
			}
			return cs.CoreV1().PodTemplates(ns).List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			if o.SendInitialEvents != nil && *o.SendInitialEvents {
				lists.Add(1) // a streaming list (WatchList) is a relist too
			}
			if r.plural == "configmaps" {
				return cs.CoreV1().ConfigMaps(ns).Watch(ctx, o)
			}
			return cs.CoreV1().PodTemplates(ns).Watch(ctx, o)
		},
	}
}

// object builds version v of the named object: an unconditional Update replaces it whole.
func (r resource) object(name string, v int) runtime.Object {
	if r.plural == "configmaps" {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"v": fmt.Sprint(v)}}
	}
	return &corev1.PodTemplate{ObjectMeta: metav1.ObjectMeta{Name: name}, Template: corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"v": fmt.Sprint(v)}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}}
}

func (r resource) write(ctx context.Context, cs kubernetes.Interface, ns, op, name string, v int) error {
	var err error
	switch {
	case op == "delete" && r.plural == "configmaps":
		err = cs.CoreV1().ConfigMaps(ns).Delete(ctx, name, metav1.DeleteOptions{})
	case op == "delete":
		err = cs.CoreV1().PodTemplates(ns).Delete(ctx, name, metav1.DeleteOptions{})
	case op == "create" && r.plural == "configmaps":
		_, err = cs.CoreV1().ConfigMaps(ns).Create(ctx, r.object(name, v).(*corev1.ConfigMap), metav1.CreateOptions{})
	case op == "create":
		_, err = cs.CoreV1().PodTemplates(ns).Create(ctx, r.object(name, v).(*corev1.PodTemplate), metav1.CreateOptions{})
	case r.plural == "configmaps":
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, r.object(name, v).(*corev1.ConfigMap), metav1.UpdateOptions{})
	default:
		_, err = cs.CoreV1().PodTemplates(ns).Update(ctx, r.object(name, v).(*corev1.PodTemplate), metav1.UpdateOptions{})
	}
	return err
}

// serverSnapshot is a fresh LIST, as sorted namespace/name@resourceVersion lines.
func (r resource) serverSnapshot(ctx context.Context, cs kubernetes.Interface, ns string) ([]string, error) {
	var items []any
	if r.plural == "configmaps" {
		l, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for i := range l.Items {
			items = append(items, &l.Items[i])
		}
	} else {
		l, err := cs.CoreV1().PodTemplates(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for i := range l.Items {
			items = append(items, &l.Items[i])
		}
	}
	return cluster.Snapshot(items), nil
}

// story is a handler that checks the calls it gets tell a consistent story: an add only for
// an object it does not know, an update or delete only for one it does. What it knows at the
// end must equal the server: a vanished object it was never told about is a lost delete.
type story struct {
	slow time.Duration // a slow handler sleeps this long per call

	mu         sync.Mutex
	known      map[string]string // key → resourceVersion
	violations []string
}

func newStory(slow time.Duration) *story { return &story{slow: slow, known: map[string]string{}} }

func keyRV(obj any) (string, string, bool) {
	switch d := obj.(type) {
	case cache.DeletedFinalStateUnknown:
		obj = d.Obj
	case indexer.DeletedFinalStateUnknown:
		obj = d.Obj
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", "", false
	}
	return m.GetNamespace() + "/" + m.GetName(), m.GetResourceVersion(), true
}

func (s *story) note(op string, obj any) {
	if s.slow > 0 {
		time.Sleep(s.slow)
	}
	key, rv, ok := keyRV(obj)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok {
		s.violations = append(s.violations, fmt.Sprintf("%s of a %T", op, obj))
		return
	}
	_, known := s.known[key]
	switch {
	case op == "add" && known:
		s.violations = append(s.violations, "add for known "+key+"@"+rv)
	case op != "add" && !known:
		s.violations = append(s.violations, op+" for unknown "+key+"@"+rv)
	}
	if op == "delete" {
		delete(s.known, key)
	} else {
		s.known[key] = rv
	}
}

func (s *story) OnAdd(obj any, _ bool) { s.note("add", obj) }
func (s *story) OnUpdate(_, obj any)   { s.note("update", obj) }
func (s *story) OnDelete(obj any)      { s.note("delete", obj) }

func (s *story) snapshot() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.known))
	for k, rv := range s.known {
		out = append(out, k+"@"+rv)
	}
	slices.Sort(out)
	return out
}

// subject is one cache under test: a bare Reflector into a store, or an informer with a
// consistency-checking handler (two on the informers: one of them slow).
type subject struct {
	side, name string
	list       func() []any
	stories    []*story
	lists      atomic.Int64 // LIST calls, the first one included
	run        func(ctx context.Context)
}

// subjects makes ours and client-go's twins, all reading through cfg (the proxy).
func subjects(t *testing.T, cfg *rest.Config, r resource, ns string) []*subject {
	cs := kubernetes.NewForConfigOrDie(cfg)
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []*subject

	// Ours: chapter 01's Reflector, on its own net/http client, into chapter 03's store.
	refl := &subject{side: "ours", name: "01 Reflector → 03 store"}
	client := countingLW{&listwatch.Client{HTTP: hc, Base: cfg.Host, Path: "/api/v1/namespaces/" + ns + "/" + r.plural, Kind: r.kind}, &refl.lists}
	store, reflector := listwatch.NewStoreAndReflector(client, r.proto, listwatch.ReflectorOptions{Name: "chaos-ours-" + r.plural})
	refl.list, refl.run = store.List, reflector.Run
	out = append(out, refl)

	// Ours: chapter 04's informer (chapter 02's FIFO and chapter 03's indexer inside).
	inf := &subject{side: "ours", name: "04 informer"}
	mine := ours.NewSharedIndexInformer(r.listWatch(cs, ns, &inf.lists), r.proto, 0, indexer.Indexers{})
	inf.stories = []*story{newStory(0), newStory(2 * time.Millisecond)}
	for _, s := range inf.stories {
		if _, err := mine.AddEventHandler(s); err != nil {
			t.Fatal(err)
		}
	}
	inf.list, inf.run = mine.GetStore().List, mine.Run
	out = append(out, inf)

	// client-go's twins. Each pair takes the same road to its first list: the bare
	// Reflectors LIST (ours has UseWatchList off; client-go's is opted out of WatchList, as
	// a client that says it cannot stream a list is), the informers stream it (WatchList,
	// client-go's default since 1.35, and our informer's). So both roads run under every
	// fault, and each side's count of relists counts the same kinds of request.
	crefl := &subject{side: "client-go", name: "Reflector → Store"}
	cstore := cache.NewStore(cache.MetaNamespaceKeyFunc)
	creflector := cache.NewReflector(cache.ToListWatcherWithWatchListSemantics(r.listWatch(cs, ns, &crefl.lists), listOnly{}), r.proto, cstore, 0)
	crefl.list, crefl.run = cstore.List, creflector.RunWithContext
	out = append(out, crefl)

	cinf := &subject{side: "client-go", name: "SharedIndexInformer"}
	theirs := cache.NewSharedIndexInformer(r.listWatch(cs, ns, &cinf.lists), r.proto, 0, cache.Indexers{})
	cinf.stories = []*story{newStory(0), newStory(2 * time.Millisecond)}
	for _, s := range cinf.stories {
		if _, err := theirs.AddEventHandler(s); err != nil {
			t.Fatal(err)
		}
	}
	cinf.list, cinf.run = theirs.GetStore().List, theirs.RunWithContext
	out = append(out, cinf)
	return out
}

// listOnly is a client that cannot stream a list: client-go's Reflector on it LISTs, as
// chapter 01's does with UseWatchList off.
type listOnly struct{}

func (listOnly) IsWatchListSemanticsUnSupported() bool { return true }

// countingLW counts our Reflector's LIST calls.
type countingLW struct {
	listwatch.ListerWatcher
	lists *atomic.Int64
}

func (c countingLW) Watch(ctx context.Context, o metav1.ListOptions) (listwatch.Watcher, error) {
	if o.SendInitialEvents != nil && *o.SendInitialEvents {
		c.lists.Add(1)
	}
	return c.ListerWatcher.Watch(ctx, o)
}

func (c countingLW) List(ctx context.Context, o metav1.ListOptions) (*listwatch.List, error) {
	if o.Continue == "" {
		c.lists.Add(1)
	}
	return c.ListerWatcher.List(ctx, o)
}

// writers churn objects of r in ns until ctx ends: creates, unconditional updates and
// deletes, each writer on its own names. Errors (a restarting server) are counted, not fatal:
// the server's state is the truth the caches are held to.
func writers(ctx context.Context, cs kubernetes.Interface, r resource, ns string, n int, ops, errs *atomic.Int64) *sync.WaitGroup {
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
			var live []string
			for i := 0; ctx.Err() == nil; i++ {
				op, name := "create", fmt.Sprintf("w%d-%d", w, i)
				if p := rng.Float64(); len(live) > 10 && p < 0.45 {
					op, name = "update", live[rng.IntN(len(live))]
				} else if len(live) > 10 && p < 0.75 {
					j := rng.IntN(len(live))
					op, name = "delete", live[j]
					live = slices.Delete(live, j, j+1)
				}
				err := r.write(ctx, cs, ns, op, name, i)
				switch {
				case err == nil:
					ops.Add(1)
					if op == "create" {
						live = append(live, name)
					}
				case apierrors.IsNotFound(err):
					live = slices.DeleteFunc(live, func(s string) bool { return s == name })
				case ctx.Err() == nil:
					errs.Add(1)
				}
			}
		})
	}
	return &wg
}

// fault is one row of the table.
type fault struct {
	name    string
	res     resource
	writers int
	// inject runs the fault while the writers run and returns how many rounds it applied. It
	// must return with every fault undone.
	inject func(ctx context.Context, t *testing.T, env *env) int
	// minOps keeps the writers going until this many writes succeeded (churn).
	minOps int64
}

type env struct {
	proxy *faults.Proxy
	paths cluster.Paths
	etcd  string
	cs    kubernetes.Interface
	ns    string
	res   resource
	// namespace makes a fresh namespace for one fault's objects.
	namespace func(t *testing.T) string
	// ours is chapter 07's server when it is the one under the faults, else nil.
	ours *ourServer
}

// row is one line of the table, per side.
type row struct {
	fault          string
	rounds         int
	objects        int64
	equal          map[string]bool
	lost           map[string]int
	relists        map[string]int64
	recover        map[string]time.Duration
	violations     []string
	writeErrs      int64
	proxyCounts    faults.Counts
	divergentNames []string
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

func TestChaos(t *testing.T) {
	table := chaosTable(t, kubeFaults, "kube-apiserver")
	cfg := cluster.Require(t)
	etcdURL := cluster.RequireEtcd(t)
	paths, err := cluster.FindPaths(".")
	if err != nil {
		t.Fatal(err)
	}
	cs := kubernetes.NewForConfigOrDie(cfg)
	u, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := faults.Listen(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	viaProxy := rest.CopyConfig(cfg)
	viaProxy.Host = "https://" + proxy.Addr()
	runTable(t, "kube-apiserver", table, viaProxy, func() *env {
		return &env{proxy: proxy, paths: paths, etcd: etcdURL, cs: cs,
			namespace: func(t *testing.T) string { return cluster.Namespace(t, cs.CoreV1()) }}
	})
}

// chaosTable is the faults of table to run against server: skipped without WALKTHROUGH_CHAOS
// or when CHAOS_ONLY picks none of them.
func chaosTable(t *testing.T, table []fault, server string) []fault {
	if os.Getenv("WALKTHROUGH_CHAOS") == "" {
		t.Skip("the fault tier runs with `make chaos` (WALKTHROUGH_CHAOS=1 and a cluster)")
	}
	table = selected(t, table)
	if len(table) == 0 {
		t.Skipf("CHAOS_ONLY=%q picks no fault against %s", os.Getenv("CHAOS_ONLY"), server)
	}
	return table
}

// runTable runs each fault of table on an env of its own, prints the table under the
// server's name, and fails the test if a cache ended unlike the server or a handler told an
// inconsistent story.
//
// CHAOS_REPEAT=n runs each fault n times, one row each, then prints each fault's medians:
// its recovery is mostly where a backoff's random wait stood when the faults stopped, so one
// run says little about which side recovers faster.
func runTable(t *testing.T, server string, table []fault, viaProxy *rest.Config, newEnv func() *env) {
	n := repeats(t)
	var rows []row
	failed := false
	for _, f := range table {
		for k := range n {
			e := newEnv()
			e.res = f.res
			r := runFault(t, f, e, viaProxy)
			if n > 1 {
				r.fault = fmt.Sprintf("%s #%d", f.name, k+1)
			}
			rows = append(rows, r)
			failed = failed || len(r.violations) > 0 || len(r.divergentNames) > 0
		}
	}
	printTable(server, rows)
	if n > 1 {
		printMedians(server, table, rows, n)
	}
	if failed {
		t.Fail()
	}
}

// repeats is CHAOS_REPEAT, how many times each fault runs: 1 when unset.
func repeats(t *testing.T) int {
	s := os.Getenv("CHAOS_REPEAT")
	if s == "" {
		return 1
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("CHAOS_REPEAT=%q is not a count of runs (1 or more)", s)
	}
	return n
}

// kubeFaults is the table against kube-apiserver.
var kubeFaults = []fault{
	{name: "connection cut", res: configMaps, writers: 3, inject: cutConnections},
	{name: "kube-apiserver restart", res: configMaps, writers: 2, inject: restart(cluster.APIServer, time.Second)},
	{name: "compaction, watch cache (configmaps)", res: configMaps, writers: 2, inject: fallBehind},
	{name: "compaction, no watch cache (podtemplates)", res: podTemplates, writers: 2, inject: fallBehind},
	{name: "etcd restart", res: configMaps, writers: 2, inject: restart(cluster.Etcd, 2*time.Second)},
	{name: "churn, slow handler", res: configMaps, writers: 6, minOps: 5000, inject: churn},
	{name: "bad server data", res: configMaps, writers: 2, inject: badData},
}

// selected is the faults of table whose name matches the regular expression CHAOS_ONLY (a
// word is one). A CHAOS_ONLY that matches no fault of either table is a mistake, not a pass.
func selected(t *testing.T, table []fault) []fault {
	only := os.Getenv("CHAOS_ONLY")
	if only == "" {
		return table
	}
	re, err := regexp.Compile(only)
	if err != nil {
		t.Fatalf("CHAOS_ONLY=%q is not a regular expression: %v", only, err)
	}
	if !slices.ContainsFunc(slices.Concat(kubeFaults, ourFaults), func(f fault) bool { return re.MatchString(f.name) }) {
		t.Fatalf("CHAOS_ONLY=%q matches no fault", only)
	}
	return slices.DeleteFunc(slices.Clone(table), func(f fault) bool { return !re.MatchString(f.name) })
}

func runFault(t *testing.T, f fault, e *env, viaProxy *rest.Config) row {
	t.Logf("== %s", f.name)
	e.ns = e.namespace(t)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	subs := subjects(t, viaProxy, f.res, e.ns)

	runCtx, stopSubjects := context.WithCancel(ctx)
	var running sync.WaitGroup
	defer running.Wait()
	defer stopSubjects()
	for _, s := range subs {
		running.Go(func() { s.run(runCtx) })
	}

	var ops, errs atomic.Int64
	writeCtx, stopWriters := context.WithCancel(ctx)
	before := e.proxy.Counts()
	ws := writers(writeCtx, e.cs, f.res, e.ns, f.writers, &ops, &errs)
	rounds := f.inject(ctx, t, e)
	for f.minOps > 0 && ops.Load() < f.minOps && ctx.Err() == nil {
		sleepCtx(ctx, 200*time.Millisecond)
	}
	stopWriters()
	ws.Wait()
	faultsEnd := time.Now()

	r := row{fault: f.name, rounds: rounds, objects: ops.Load(), writeErrs: errs.Load(),
		equal: map[string]bool{}, lost: map[string]int{}, relists: map[string]int64{}, recover: map[string]time.Duration{}}
	after := e.proxy.Counts()
	r.proxyCounts = faults.Counts{Resets: after.Resets - before.Resets, Truncations: after.Truncations - before.Truncations, Corruptions: after.Corruptions - before.Corruptions}

	// Converge: poll a fresh LIST against every cache and every handler's story.
	matched := map[*subject]bool{}
	var server []string
	converge := 90 * time.Second
	if d, err := time.ParseDuration(os.Getenv("CHAOS_CONVERGE")); err == nil {
		converge = d // shorter for mutants, which are expected not to converge
	}
	deadline := time.Now().Add(converge)
	truthFailed := 0
	for time.Now().Before(deadline) && len(matched) < len(subs) {
		snap, err := f.res.serverSnapshot(ctx, e.cs, e.ns)
		if err != nil {
			// The truth is not there yet (the server is still coming back): a cache
			// cannot be judged against it, and the recovery column includes the wait.
			if truthFailed++; truthFailed == 1 {
				t.Logf("trace: %s: the fresh LIST failed (%v); polling again", f.name, err)
			}
			sleepCtx(ctx, 200*time.Millisecond)
			continue
		}
		if truthFailed > 0 {
			t.Logf("trace: %s: the fresh LIST answered %s after the faults stopped, after %d failures", f.name, time.Since(faultsEnd).Round(10*time.Millisecond), truthFailed)
			truthFailed = 0
		}
		server = snap
		for _, s := range subs {
			if matched[s] || !slices.Equal(cluster.Snapshot(s.list()), server) {
				continue
			}
			ok := true
			for _, st := range s.stories {
				ok = ok && slices.Equal(st.snapshot(), server)
			}
			if ok {
				matched[s] = true
				took := time.Since(faultsEnd)
				r.recover[s.side] = max(r.recover[s.side], took)
				t.Logf("trace: %s: %s %s equals the server %s after the faults stopped (%d lists)", f.name, s.side, s.name, took.Round(10*time.Millisecond), s.lists.Load())
			}
		}
		if len(matched) < len(subs) {
			sleepCtx(ctx, 200*time.Millisecond)
		}
	}
	for _, side := range []string{"ours", "client-go"} {
		r.equal[side] = true
	}
	for _, s := range subs {
		r.relists[s.side] += max(s.lists.Load()-1, 0)
		if !matched[s] {
			msg := fmt.Sprintf("%s %s: the cache differs from the server in %d lines", s.side, s.name, diffCount(server, cluster.Snapshot(s.list())))
			for i, st := range s.stories {
				msg += fmt.Sprintf(", handler %d's story in %d", i, diffCount(server, st.snapshot()))
			}
			r.equal[s.side] = r.equal[s.side] && diffCount(server, cluster.Snapshot(s.list())) == 0
			r.divergentNames = append(r.divergentNames, msg+" (namespace/name@resourceVersion)")
		}
		for i, st := range s.stories {
			r.lost[s.side] += diffCount(server, st.snapshot())
			st.mu.Lock()
			for _, v := range st.violations {
				r.violations = append(r.violations, fmt.Sprintf("%s %s handler %d: %s", s.side, s.name, i, v))
			}
			st.mu.Unlock()
		}
	}
	for _, d := range r.divergentNames {
		t.Errorf("%s: %s", f.name, d)
	}
	for i, v := range r.violations {
		if i == 10 {
			t.Errorf("%s: … %d more", f.name, len(r.violations)-10)
			break
		}
		t.Errorf("%s: inconsistent story: %s", f.name, v)
	}
	t.Logf("trace: %s: %d writes (%d failed and were not counted), proxy %+v", f.name, r.objects, r.writeErrs, r.proxyCounts)
	return r
}

// diffCount is how many lines are in one sorted list and not the other.
func diffCount(a, b []string) int {
	in := map[string]int{}
	for _, x := range a {
		in[x]++
	}
	for _, x := range b {
		in[x]--
	}
	n := 0
	for _, c := range in {
		n += max(c, -c)
	}
	return n
}

// printMedians prints, for each fault run n times (rows holds them in table order), both
// sides' relists in each run, their median recoveries, and how many runs ours recovered
// first, tied or later.
func printMedians(server string, table []fault, rows []row, n int) {
	var b strings.Builder
	fmt.Fprintf(&b, "\nagainst %s, %d runs each:\n%-42s | %-24s | %-24s | %-19s | %s\n", server, n, "fault",
		"relists ours, each run", "relists client-go", "median recovery", "ours first/tied/later")
	fmt.Fprintln(&b, strings.Repeat("-", 145))
	median := func(ds []time.Duration) time.Duration {
		slices.Sort(ds)
		if len(ds)%2 == 1 {
			return ds[len(ds)/2]
		}
		return (ds[len(ds)/2-1] + ds[len(ds)/2]) / 2
	}
	for i, f := range table {
		runs := rows[i*n : (i+1)*n]
		var relists [2][]string
		var recover [2][]time.Duration
		var first, tied, later int
		for _, r := range runs {
			for s, side := range []string{"ours", "client-go"} {
				relists[s] = append(relists[s], strconv.FormatInt(r.relists[side], 10))
				recover[s] = append(recover[s], r.recover[side])
			}
			switch ours, theirs := r.recover["ours"].Round(10*time.Millisecond), r.recover["client-go"].Round(10*time.Millisecond); {
			case ours < theirs:
				first++
			case ours == theirs:
				tied++
			default:
				later++
			}
		}
		fmt.Fprintf(&b, "%-42s | %-24s | %-24s | %-19s | %d/%d/%d\n", f.name, strings.Join(relists[0], " "), strings.Join(relists[1], " "),
			fmt.Sprintf("%s / %s", median(recover[0]).Round(10*time.Millisecond), median(recover[1]).Round(10*time.Millisecond)), first, tied, later)
	}
	fmt.Print(b.String())
}

func printTable(server string, rows []row) {
	var b strings.Builder
	fmt.Fprintf(&b, "\nagainst %s:\n%-42s | %6s | %7s | %-40s | %-40s\n", server, "fault", "rounds", "objects",
		"ours: cache==server, lost, relists, max recovery", "client-go: the same")
	fmt.Fprintln(&b, strings.Repeat("-", 145))
	cell := func(r row, side string) string {
		eq := "yes"
		if !r.equal[side] {
			eq = "NO"
		}
		return fmt.Sprintf("%-3s, %d lost, %d relists, %s", eq, r.lost[side], r.relists[side], r.recover[side].Round(10*time.Millisecond))
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "%-42s | %6d | %7d | %-48s | %-40s\n", r.fault, r.rounds, r.objects, cell(r, "ours"), cell(r, "client-go"))
	}
	fmt.Print(b.String())
}
