package processor_test

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// This file is the contract the scenarios, the fuzz test and the
// benchmarks drive: what an informer implementation must offer. Each
// implementation (reference, exercise, client-go) has a small adapter
// file that fills in an impl.

// eventHandler is the handler interface; ours and client-go's have the
// same method set, so one recorder serves both.
type eventHandler interface {
	OnAdd(obj any, isInInitialList bool)
	OnUpdate(oldObj, newObj any)
	OnDelete(obj any)
}

// registration is what AddEventHandler returns, in both.
type registration interface{ HasSynced() bool }

// informer is one informer under test, its calls wrapped as functions
// where the types differ between implementations.
type informer struct {
	Run                  func(ctx context.Context)
	AddEventHandler      func(h eventHandler, resync *time.Duration) (registration, error) // nil resync: the default
	RemoveEventHandler   func(reg registration) error
	HasSynced            func() bool
	HasStarted           func() bool // nil where client-go's informer lacks it
	IsStopped            func() bool
	List                 func() []any
	StoreRV              func() string // the cache's LastStoreSyncResourceVersion
	LastSyncRV           func() string // the informer's LastSyncResourceVersion
	SetTransform         func(fn func(any) (any, error)) error
	SetWatchErrorHandler func(fn func(err error)) error
	AddIndexer           func(name string, fn func(obj any) ([]string, error)) error
	ByIndex              func(name, value string) ([]any, error)
}

// factory is one shared informer factory under test.
type factory struct {
	// InformerFor asks for the informer of kind ("pods", "configmaps"),
	// built on lw the first time; id identifies the informer returned.
	InformerFor      func(kind string, lw *scriptedLW) (id any, inf informer)
	Start            func(stop <-chan struct{})
	WaitForCacheSync func(stop <-chan struct{}) map[string]bool // by type name
	Shutdown         func()
}

// byTypeName is a factory's WaitForCacheSync answer keyed by type name,
// as the scenarios print it.
func byTypeName(synced map[reflect.Type]bool) map[string]bool {
	out := map[string]bool{}
	for t, ok := range synced {
		out[t.String()] = ok
	}
	return out
}

// factoryOptions are the options a factory is made with, as client-go's
// SharedInformerOptions: one namespace (WithNamespace), a label selector
// set on every request (WithTweakListOptions), the addTransformedLabel
// transform for every informer (WithTransform), and resync periods per
// kind (WithCustomResyncConfig). Zero fields leave the option out.
type factoryOptions struct {
	Namespace     string
	LabelSelector string
	Transform     bool
	Resync        map[string]time.Duration // by kind
}

// tweak is the WithTweakListOptions function, or nil.
func (s factoryOptions) tweak() func(*metav1.ListOptions) {
	if s.LabelSelector == "" {
		return nil
	}
	return func(o *metav1.ListOptions) { o.LabelSelector = s.LabelSelector }
}

// addTransformedLabel is the transform of the scenarios: it adds the
// label transformed=yes, so the output shows which objects went through it.
//
// It labels a copy, not the object it is given: a transform may change
// the object in place, and then a list passed on untransformed would
// carry the label all the same (trial I's Replace that dropped the
// transformed list passed every check).
func addTransformedLabel(obj any) (any, error) {
	if o, ok := obj.(runtime.Object); ok {
		obj = o.DeepCopyObject()
	}
	if m, err := meta.Accessor(obj); err == nil {
		l := map[string]string{"transformed": "yes"}
		for k, v := range m.GetLabels() {
			l[k] = v
		}
		m.SetLabels(l)
	}
	return obj, nil
}

// ring is a growing ring buffer under test.
type ring struct {
	Write func(any)
	Read  func() (any, bool)
	Len   func() int
	Cap   func() int
}

// fifoKind names the queue between the Reflector and HandleDeltas; the
// client-go adapter gets it from the feature gates the scenario sets.
type fifoKind int

const (
	atomicRealFIFO fifoKind = iota
	realFIFO
	deltaFIFO
)

// classicMode tells the adapters to build informers on the classic path
// (see TestScenarios).
var classicMode bool

// impl is one implementation of the chapter.
type impl struct {
	NewInformer      func(lw *scriptedLW, resync time.Duration, fifo fifoKind) informer
	NewFactory       func(resync time.Duration, opts factoryOptions) factory
	WaitForCacheSync func(stop <-chan struct{}, fns ...func() bool) bool
	NewRing          func(initialSize int) ring
	// NewDeltaProcessor applies single deltas ("Added", ..., "ReplacedAll"
	// with the object as the whole list) to a fresh cache, notifying h;
	// lookup reads that cache. nil where the implementation does not
	// export its delta processing (client-go).
	NewDeltaProcessor func(h eventHandler) (process func(typ string, obj any) error, lookup func(obj any) (any, bool))
	// Tombstone unwraps a DeletedFinalStateUnknown.
	Tombstone func(obj any) (key string, last any, ok bool)
	// NewWatchedInformer is NewInformer (an atomic RealFIFO) whose pipeline
	// calls watched as each watch event passes the relay, between taking
	// it from the watch and handing it to the Reflector; nil where the
	// implementation has no such hook (client-go).
	NewWatchedInformer func(lw *scriptedLW, watched func()) informer
}

// runInformer runs inf on a goroutine of its own. cancel ends Run's
// context; stop cancels it and returns once Run has.
func runInformer(inf informer) (cancel, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.Run(ctx) }()
	return cancel, func() { cancel(); <-done }
}

// impls holds every implementation; the adapter files register themselves.
var impls = scenario.Registry[impl]{}

// register adds an implementation under its name.
func register(name string, im impl) { impls[name] = im }

// --- the scripted ListerWatcher --------------------------------------------

// scriptedLW is an in-memory API server for one resource: List returns
// whatever the scenario last set, Watch returns a watcher the scenario
// feeds. It has client-go's ListerWatcher method set, so both informers
// consume it unchanged.
type scriptedLW struct {
	kind string // "pods" or "configmaps"

	mu       sync.Mutex
	listRV   string
	items    []runtime.Object
	listErr  error // returned by the next List, then cleared
	refusing error // returned by every List while set: a server that refuses
	streams  bool  // serves WatchList (a watch with sendInitialEvents)
	watcher  *watch.FakeWatcher
	// stopHeld, when set, holds every Stop of a watch until it is closed:
	// a Reflector stopping then cannot return, nor Run with it.
	stopHeld chan struct{}
	lists    int // List calls so far
	watches  int // Watch calls so far
	listSeen chan struct{}
	// watchIn is the scope of the open watch: events for objects outside
	// it are not sent, as a server filters a namespaced, selected watch.
	watchIn scopeFilter
	// requests logs the namespace and selectors of every LIST and WATCH
	// since the scenario last looked (the `requests` command).
	requests notation.Trace
}

// scopeFilter is the namespace and label selector of one request.
type scopeFilter struct {
	namespace string
	selector  labels.Selector
}

func newScopeFilter(namespace string, opts metav1.ListOptions) (scopeFilter, error) {
	sel, err := labels.Parse(opts.LabelSelector)
	return scopeFilter{namespace: namespace, selector: sel}, err
}

// matches reports whether the request would be sent obj.
func (f scopeFilter) matches(obj runtime.Object) bool {
	m, err := meta.Accessor(obj)
	if err != nil {
		return true
	}
	if f.namespace != "" && m.GetNamespace() != f.namespace {
		return false
	}
	return f.selector == nil || f.selector.Matches(labels.Set(m.GetLabels()))
}

// logRequest records a request's verb, namespace and selectors.
func (lw *scriptedLW) logRequest(verb, namespace string, opts metav1.ListOptions) {
	line := verb
	if namespace != "" {
		line += " namespace=" + namespace
	}
	if opts.LabelSelector != "" {
		line += " labelSelector=" + opts.LabelSelector
	}
	if opts.FieldSelector != "" {
		line += " fieldSelector=" + opts.FieldSelector
	}
	lw.requests.Add("%s", line)
}

// in is lw seen through one namespace: what a clientset's
// Pods(namespace) lists and watches. tweak, when set, changes every
// request's options first, as a factory's WithTweakListOptions does.
func (lw *scriptedLW) in(namespace string, tweak func(*metav1.ListOptions)) *namespacedLW {
	return &namespacedLW{lw: lw, namespace: namespace, tweak: tweak}
}

// namespacedLW is a scriptedLW seen through one namespace.
type namespacedLW struct {
	lw        *scriptedLW
	namespace string
	tweak     func(*metav1.ListOptions)
}

func (n *namespacedLW) IsWatchListSemanticsUnSupported() bool {
	return n.lw.IsWatchListSemanticsUnSupported()
}

func (n *namespacedLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	if n.tweak != nil {
		n.tweak(&opts)
	}
	return n.lw.list(n.namespace, opts)
}

func (n *namespacedLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	if n.tweak != nil {
		n.tweak(&opts)
	}
	return n.lw.watch(n.namespace, opts)
}

func newScriptedLW(kind string) *scriptedLW { return &scriptedLW{kind: kind, listRV: "1"} }

// IsWatchListSemanticsUnSupported makes both Reflectors use the classic
// LIST then WATCH, unless the scenario said the server streams
// ("list stream").
func (lw *scriptedLW) IsWatchListSemanticsUnSupported() bool {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return !lw.streams
}

func (lw *scriptedLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.list(metav1.NamespaceAll, opts)
}

func (lw *scriptedLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.watch(metav1.NamespaceAll, opts)
}

func (lw *scriptedLW) list(namespace string, opts metav1.ListOptions) (runtime.Object, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.lists++
	lw.logRequest("list", namespace, opts)
	if err := lw.listErr; err != nil {
		lw.listErr = nil
		return nil, err
	}
	if lw.refusing != nil {
		return nil, lw.refusing
	}
	in, err := newScopeFilter(namespace, opts)
	if err != nil {
		return nil, err
	}
	listMeta := metav1.ListMeta{ResourceVersion: lw.listRV}
	if lw.kind == "configmaps" {
		return &v1.ConfigMapList{ListMeta: listMeta, Items: inScope[v1.ConfigMap](lw.items, in)}, nil
	}
	return &v1.PodList{ListMeta: listMeta, Items: inScope[v1.Pod](lw.items, in)}, nil
}

// inScope copies the objects the request would be sent, each a *T.
func inScope[T any, P interface {
	*T
	DeepCopy() *T
}](objs []runtime.Object, in scopeFilter) []T {
	out := make([]T, 0, len(objs))
	for _, o := range objs {
		if in.matches(o) {
			out = append(out, *any(o).(P).DeepCopy())
		}
	}
	return out
}

func (lw *scriptedLW) watch(namespace string, opts metav1.ListOptions) (watch.Interface, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.watches++
	lw.logRequest("watch", namespace, opts)
	in, err := newScopeFilter(namespace, opts)
	if err != nil {
		return nil, err
	}
	lw.watchIn = in
	lw.watcher = watch.NewFakeWithChanSize(1000, false)
	if lw.streams && opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		lw.streamLocked()
	}
	if lw.stopHeld != nil {
		return heldStop{lw.watcher, lw.stopHeld}, nil
	}
	return lw.watcher, nil
}

// heldStop is a watch whose Stop waits until held is closed.
type heldStop struct {
	*watch.FakeWatcher
	held <-chan struct{}
}

func (w heldStop) Stop() {
	<-w.held
	w.FakeWatcher.Stop()
}

// streamLocked starts a WatchList: every listed object as ADDED, then a
// bookmark at the list's resourceVersion that marks the end.
func (lw *scriptedLW) streamLocked() {
	for _, o := range lw.items {
		if lw.watchIn.matches(o) {
			lw.watcher.Add(o.DeepCopyObject())
		}
	}
	end, _ := newObject(lw.kind, "x@"+lw.listRV)
	m, _ := meta.Accessor(end)
	m.SetName("")
	m.SetNamespace("")
	m.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
	lw.watcher.Action(watch.Bookmark, end)
}

// setList sets what the next List returns.
func (lw *scriptedLW) setList(rv string, objs []runtime.Object) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.listRV, lw.items = rv, objs
}

// podsListed is a scripted pods server whose list holds n pods, ns/p0@1 to
// ns/p{n-1}@n, at resourceVersion n.
func podsListed(n int) *scriptedLW {
	lw := newScriptedLW("pods")
	list := make([]runtime.Object, n)
	for i := range n {
		list[i], _ = newObject("pods", fmt.Sprintf("ns/p%d@%d", i, i+1))
	}
	lw.setList(fmt.Sprint(n), list)
	return lw
}

// send delivers one event on the current watch; false if there is none.
func (lw *scriptedLW) send(ev watch.Event) bool {
	lw.mu.Lock()
	w, in := lw.watcher, lw.watchIn
	lw.mu.Unlock()
	if w == nil || w.IsStopped() {
		return false
	}
	// A real server also turns an update that moves an object out of (or
	// into) the selection into DELETED (or ADDED); no scenario needs it.
	if ev.Type == watch.Bookmark || in.matches(ev.Object) {
		w.Action(ev.Type, ev.Object)
	}
	return true
}

// hasWatch reports whether a watch is open.
func (lw *scriptedLW) hasWatch() bool {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.watcher != nil && !lw.watcher.IsStopped()
}

// closeWatch ends the current watch, as a server does when it times out.
func (lw *scriptedLW) closeWatch() {
	lw.mu.Lock()
	w := lw.watcher
	lw.watcher = nil
	lw.mu.Unlock()
	if w != nil {
		w.Stop()
	}
}

// --- object notation ---------------------------------------------------------
//
// Scenarios write objects in the notation of workshop/scenario/notation:
// ns/a@5 labels=app:web. This chapter's objects may be ConfigMaps, which
// have no node, so node=n is the label node:n here (byNode indexes it),
// and is written back as one.

// newObject builds one object of the given kind from the notation.
func newObject(kind, line string) (runtime.Object, error) {
	o, err := notation.Parse(line)
	if err != nil {
		return nil, err
	}
	om := o.Meta()
	if o.Node != "" {
		if om.Labels == nil {
			om.Labels = map[string]string{}
		}
		om.Labels["node"] = o.Node
	}
	if kind == "configmaps" {
		return &v1.ConfigMap{ObjectMeta: om}, nil
	}
	return &v1.Pod{ObjectMeta: om}, nil
}

// formatObject writes an object back in the notation; a tombstone is
// tombstone(key, last state).
func formatObject(im impl, obj any) string {
	if key, last, ok := im.Tombstone(obj); ok {
		if last == nil {
			return fmt.Sprintf("tombstone(%s)", key)
		}
		return fmt.Sprintf("tombstone(%s, %s)", key, formatObject(im, last))
	}
	return notation.Format(obj)
}

// formatSet writes objects sorted: the cache returns them in map order.
func formatSet(im impl, objs []any) string {
	lines := make([]string, len(objs))
	for i, obj := range objs {
		lines[i] = formatObject(im, obj)
	}
	sort.Strings(lines)
	return strings.Join(notation.OrNone(lines), "\n")
}

// byNode indexes an object under its "node" label.
func byNode(obj any) ([]string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	if n := m.GetLabels()["node"]; n != "" {
		return []string{n}, nil
	}
	return nil, nil
}

// --- the recording handler ---------------------------------------------------

// recorder is a handler that writes down every call, in the order it got
// them. A blocking recorder stops in its callback until unblocked.
type recorder struct {
	im   impl
	name string

	events notation.Trace // not yet reported

	mu      sync.Mutex
	calls   int
	block   bool
	release chan struct{} // closed by unblock
	// panicOn, when set, is the key ("ns/b") of the objects whose calls
	// panic, with a handlerPanic, once written down.
	panicOn string
}

func newRecorder(im impl, name string, block bool) *recorder {
	return &recorder{im: im, name: name, block: block, release: make(chan struct{})}
}

func (r *recorder) record(ev string, obj any) {
	r.mu.Lock()
	r.events.Append(ev)
	r.calls++
	block := r.block
	r.mu.Unlock()
	if m, err := meta.Accessor(obj); err == nil && r.panicOn != "" && notation.Key(m) == r.panicOn {
		panic(handlerPanic{handler: r.name, call: ev})
	}
	if block {
		<-r.release
	}
}

func (r *recorder) OnAdd(obj any, isInInitialList bool) {
	r.record(fmt.Sprintf("ADD %s init=%t", formatObject(r.im, obj), isInInitialList), obj)
}

func (r *recorder) OnUpdate(oldObj, newObj any) {
	r.record(fmt.Sprintf("UPDATE %s -> %s", formatObject(r.im, oldObj), formatObject(r.im, newObj)), newObj)
}

func (r *recorder) OnDelete(obj any) {
	r.record(fmt.Sprintf("DELETE %s", formatObject(r.im, obj)), obj)
}

func (r *recorder) unblock() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.block {
		r.block = false
		close(r.release)
	}
}

// take returns and forgets the events recorded since the last take.
func (r *recorder) take() []string { return r.events.Take() }
