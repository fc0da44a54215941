// Your copy of ../reflector.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 01`
// checks your work, and `go run ./workshop/cmd/workshop hint 01 N` gives
// exercise N's hint.

package listwatch

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	klog "k8s.io/klog/v2"
	"k8s.io/utils/clock"

	indexer "example.com/walkthrough/03-indexer"

	"example.com/walkthrough/workshop/todo"
)

// ReflectorStore is what the Reflector writes into: chapter 03's Store
// (or an Indexer) fits, and so does a queue (chapter 02's DeltaFIFO).
//
// client-go: tools/cache/reflector.go (ReflectorStore)
type ReflectorStore interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Replace(list []any, resourceVersion string) error
	Resync() error
}

// BookmarkStore is a store that wants to hear bookmarks' resource
// versions; the Reflector tells it when it implements this.
//
// client-go: tools/cache/reflector.go (ReflectorBookmarkStore)
type BookmarkStore interface {
	Bookmark(resourceVersion string) error
}

var _ ReflectorStore = indexer.Store(nil)

// ReflectorOptions configure a Reflector.
//
// client-go: tools/cache/reflector.go (ReflectorOptions)
type ReflectorOptions struct {
	// Name appears in errors and logs.
	Name string
	// ResyncPeriod, when not zero, calls the store's Resync that often.
	ResyncPeriod time.Duration
	// UseWatchList starts each cycle with a streaming list (a watch with
	// sendInitialEvents=true) instead of a LIST. client-go takes this from
	// its WatchListClient feature gate, on by default since 1.35.
	UseWatchList bool
	// Clock, when set, is where the Reflector reads its time: the backoff
	// it waits out, the resync period, how long a watch lasted. Tests that
	// run it against a real server move it on at once instead of waiting
	// (chapter 07's suite); nil is the real clock.
	Clock clock.WithTicker
}

// Reflector keeps a store equal to one collection on the API server. It
// lists the collection, replaces the store with the list, and watches
// from the list's resource version, applying every event to the store.
// When the watch ends it watches again from the last resource version it
// saw; when that version is too old (410 Gone) it lists again. Failures
// wait out a backoff. It runs until its context ends.
//
// client-go: tools/cache/reflector.go (Reflector)
type Reflector struct {
	name string
	// typeDescription names the expected type in errors: "*v1.Pod".
	typeDescription string
	// expectedType, when set, is the only type the store accepts; other
	// objects on the watch are skipped.
	expectedType reflect.Type
	// expectedGVK, for an Unstructured expected type, is the kind it
	// must have.
	expectedGVK  *schema.GroupVersionKind
	store        ReflectorStore
	lw           ListerWatcher
	resync       time.Duration
	useWatchList bool
	backoff      *backoff
	clock        clock.WithTicker // nil: the real clock (see clk)

	// ShouldResync, when set, is asked before each periodic Resync.
	ShouldResync func() bool
	// PageSize, when set, is the limit of every LIST.
	PageSize int64
	// WatchErrorHandler hears every error that ends a ListAndWatch.
	WatchErrorHandler func(ctx context.Context, r *Reflector, err error)

	mu sync.RWMutex
	// lastSyncRV is the resource version of the last list, bookmark or
	// event the store has seen: where a new watch starts.
	lastSyncRV string
	// rvUnavailable is set when the server said lastSyncRV is too old (or
	// too new): the next list or streaming list asks for the newest state.
	rvUnavailable bool
	// paginated is set once a first LIST (at "0") came back in pages: the
	// server has no watch cache, so every later LIST is paged too.
	paginated bool
}

// NewReflector makes a Reflector that fills store from lw. expectedType
// is an example object (&v1.Pod{}), or nil to take anything.
func NewReflector(lw ListerWatcher, expectedType runtime.Object, store ReflectorStore, opts ReflectorOptions) *Reflector {
	r := &Reflector{
		name: opts.Name, store: store, lw: lw, resync: opts.ResyncPeriod,
		useWatchList: opts.UseWatchList, backoff: newBackoff(opts.Clock), clock: opts.Clock,
		typeDescription: "<unspecified>",
	}
	if r.name == "" {
		r.name = "reflector"
	}
	if expectedType != nil {
		r.expectedType = reflect.TypeOf(expectedType)
		r.typeDescription = r.expectedType.String()
		if u, ok := expectedType.(*unstructured.Unstructured); ok {
			if gvk := u.GroupVersionKind(); !gvk.Empty() {
				r.expectedGVK = &gvk
				r.typeDescription = gvk.String()
			}
		}
	}
	return r
}

// NewStoreAndReflector makes a chapter 03 store keyed by namespace/name
// and a Reflector that fills it.
func NewStoreAndReflector(lw ListerWatcher, expectedType runtime.Object, opts ReflectorOptions) (indexer.Store, *Reflector) {
	store := indexer.NewStore(indexer.MetaNamespaceKeyFunc)
	return store, NewReflector(lw, expectedType, store, opts)
}

// LastSyncResourceVersion is the resource version the store is synced to:
// the last list's, or the last event's or bookmark's since.
func (r *Reflector) LastSyncResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.lastSyncRV
}

// setLastSyncRV records the resource version the store is synced to.
func (r *Reflector) setLastSyncRV(rv string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastSyncRV = rv
}

// setRVUnavailable records whether the last resource version is too old
// to list from, so that the next list starts from the newest.
func (r *Reflector) setRVUnavailable(v bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rvUnavailable = v
}

// Run calls ListAndWatch until ctx ends, waiting one backoff step after
// every cycle: the cycle ends only when something went wrong.
//
// client-go: tools/cache/reflector.go (Reflector.RunWithContext)
func (r *Reflector) Run(ctx context.Context) {
	for {
		if ctx.Err() != nil {
			return
		}
		if err := r.ListAndWatch(ctx); err != nil {
			r.handleError(ctx, err)
		}
		t := r.clk().NewTimer(r.backoff.next())
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}

// handleError passes a failed cycle's error to WatchErrorHandler, or logs
// it when there is none.
func (r *Reflector) handleError(ctx context.Context, err error) {
	if r.WatchErrorHandler != nil {
		r.WatchErrorHandler(ctx, r, err)
		return
	}
	klog.FromContext(ctx).Info("Failed to watch", "reflector", r.name, "type", r.typeDescription, "err", err)
}

// ListAndWatch fills the store once and then watches until the watch
// cannot go on. With UseWatchList it first tries a streaming list, and
// falls back to LIST if the server cannot do one. It returns an error
// only when it never got to watch.
//
// client-go: tools/cache/reflector.go (Reflector.ListAndWatchWithContext)
func (r *Reflector) ListAndWatch(ctx context.Context) error {
	var w Watcher
	if r.useWatchList {
		var err error
		w, err = r.watchList(ctx)
		if w == nil && err == nil {
			return nil // stopped
		}
		repanic(err)
		if err != nil {
			klog.FromContext(ctx).V(4).Info("WatchList failed, falling back to LIST", "reflector", r.name, "err", err)
			w = nil
		}
	}
	if w == nil {
		if err := r.list(ctx); err != nil {
			return err
		}
	}
	return r.watchWithResync(ctx, w)
}

// relistResourceVersion is where a LIST starts: "0" the first time (any
// version will do, so the API server answers from its watch cache), the
// last synced version after that (nothing older than what the store has
// seen), or "" once that version is gone (the newest state, read from
// etcd).
func (r *Reflector) relistResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	switch {
	case r.rvUnavailable:
		return ""
	case r.lastSyncRV == "":
		return "0"
	}
	return r.lastSyncRV
}

// list reads the whole collection and replaces the store with it.
func (r *Reflector) list(ctx context.Context) error {
	// Exercise 10: list reads the whole collection and replaces the store with it.
	panic(todo.Exercise("01-listwatch", 10, "Reflector.list"))
}

// pageSize is the LIST limit: the caller's, or 500 once the server has
// shown it pages, or none for a list at a known version (so the API
// server can answer from its watch cache, which ignores limits), or 500.
func (r *Reflector) pageSize(rv string) int64 {
	switch {
	case r.PageSize != 0:
		return r.PageSize
	case r.paginated:
		return DefaultPageSize
	case rv != "" && rv != "0":
		return 0
	}
	return DefaultPageSize
}

// isExpiredError: the resource version is older than the server keeps.
// Servers before 1.18 said Gone, later ones say Expired; both are 410.
func isExpiredError(err error) bool {
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// isTooLargeResourceVersionError: the resource version is newer than the
// server (its watch cache) has reached.
func isTooLargeResourceVersionError(err error) bool {
	if apierrors.HasStatusCause(err, metav1.CauseTypeResourceVersionTooLarge) {
		return true
	}
	if !apierrors.IsTimeout(err) {
		return false
	}
	st, ok := err.(apierrors.APIStatus)
	if !ok || st == nil {
		return false
	}
	if d := st.Status().Details; d != nil {
		for _, c := range d.Causes {
			if c.Message == "Too large resource version" {
				return true
			}
		}
	}
	return strings.Contains(st.Status().Message, "Too large resource version")
}

// clk is the clock the Reflector reads its time from: the one its options
// gave, else the real one (a Reflector made without NewReflector has
// none).
//
// client-go: tools/cache/reflector.go (Reflector.clock)
func (r *Reflector) clk() clock.WithTicker {
	if r.clock == nil {
		return clock.RealClock{}
	}
	return r.clock
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
	_ = strings.Contains
	_ = apierrors.IsResourceExpired
	_ = metav1.CauseTypeResourceVersionTooLarge
	_ unstructured.Unstructured
	_ = klog.FromContext
)
