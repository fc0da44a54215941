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
	// exercise:begin 8 Which version to list from, and in which pages
	// exercise:hint NewReflector stores its options, names itself, and records the expected type
	//   (and, for unstructured, the expected group/version/kind). relistResourceVersion is "0" for
	//   the first list (any version the server has cached), the last synced version after that, and
	//   "" (the newest: a consistent read, which kube-apiserver serves from its watch cache once
	//   that has caught up with etcd) once the last one proved unavailable. pageSize: the caller's,
	//   or 500 when the first list came back paged, none when listing from a specific version, 500
	//   otherwise.
	// exercise:deeper Guard lastSyncRV and rvUnavailable with the RWMutex: LastSyncResourceVersion
	//   is read from other goroutines. An expired version is a 410 Gone or the Expired reason. A
	//   version too large is a 504 Timeout with the ResourceVersionTooLarge cause (or the old
	//   message "Too large resource version"), and is treated like an expired one.
	// exercise:track deep
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
	// exercise:end 8
}

// NewStoreAndReflector makes a chapter 03 store keyed by namespace/name
// and a Reflector that fills it.
func NewStoreAndReflector(lw ListerWatcher, expectedType runtime.Object, opts ReflectorOptions) (indexer.Store, *Reflector) {
	// exercise:begin 8
	store := indexer.NewStore(indexer.MetaNamespaceKeyFunc)
	return store, NewReflector(lw, expectedType, store, opts)
	// exercise:end 8
}

// LastSyncResourceVersion is the resource version the store is synced to:
// the last list's, or the last event's or bookmark's since.
func (r *Reflector) LastSyncResourceVersion() string {
	// exercise:begin 8
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.lastSyncRV
	// exercise:end 8
}

// setLastSyncRV records the resource version the store is synced to.
func (r *Reflector) setLastSyncRV(rv string) {
	// exercise:begin 8
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastSyncRV = rv
	// exercise:end 8
}

// setRVUnavailable records whether the last resource version is too old
// to list from, so that the next list starts from the newest.
func (r *Reflector) setRVUnavailable(v bool) {
	// exercise:begin 8
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rvUnavailable = v
	// exercise:end 8
}

// Run calls ListAndWatch until ctx ends, waiting one backoff step after
// every cycle: the cycle ends only when something went wrong.
//
// client-go: tools/cache/reflector.go (Reflector.RunWithContext)
func (r *Reflector) Run(ctx context.Context) {
	// exercise:begin 9 The Reflector's loop: list and watch, back off, again
	// exercise:hint Run calls ListAndWatch until ctx ends, reporting its error through handleError
	//   (the WatchErrorHandler, or a log line) and waiting backoff.next() between rounds.
	//   ListAndWatch opens the initial list: a WatchList stream when enabled (falling back to a
	//   LIST if it fails), else a LIST; then it watches, with resync, until the watch ends.
	// exercise:deeper Wait on a timer and ctx together, and stop the timer when ctx wins. A
	//   WatchList that returns no watcher and no error means stop. A panic from the watch's
	//   goroutine (repanic) must reach Run's caller, not become a fallback. The wait happens after
	//   every round, successful or not: a watch that ends cleanly is reopened by ListAndWatch's own
	//   loop, not by Run.
	// exercise:track deep
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
	// exercise:end 9
}

// handleError passes a failed cycle's error to WatchErrorHandler, or logs
// it when there is none.
func (r *Reflector) handleError(ctx context.Context, err error) {
	// exercise:begin 9
	if r.WatchErrorHandler != nil {
		r.WatchErrorHandler(ctx, r, err)
		return
	}
	klog.FromContext(ctx).Info("Failed to watch", "reflector", r.name, "type", r.typeDescription, "err", err)
	// exercise:end 9
}

// ListAndWatch fills the store once and then watches until the watch
// cannot go on. With UseWatchList it first tries a streaming list, and
// falls back to LIST if the server cannot do one. It returns an error
// only when it never got to watch.
//
// client-go: tools/cache/reflector.go (Reflector.ListAndWatchWithContext)
func (r *Reflector) ListAndWatch(ctx context.Context) error {
	// exercise:begin 9
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
	// exercise:end 9
}

// relistResourceVersion is where a LIST starts: "0" the first time (any
// version will do, so the API server answers from its watch cache), the
// last synced version after that (nothing older than what the store has
// seen), or "" once that version is gone (the newest state, read from
// etcd).
func (r *Reflector) relistResourceVersion() string {
	// exercise:begin 8
	r.mu.RLock()
	defer r.mu.RUnlock()
	switch {
	case r.rvUnavailable:
		return ""
	case r.lastSyncRV == "":
		return "0"
	}
	return r.lastSyncRV
	// exercise:end 8
}

// list reads the whole collection and replaces the store with it.
func (r *Reflector) list(ctx context.Context) error {
	// exercise:begin 10 List, and list again when the version is gone
	// exercise:hint LIST from relistResourceVersion; if the server says that version expired (410)
	//   or is too new, mark it unavailable and list again at once from "".
	// exercise:deeper Page with r.pageSize(rv). Retry when isExpiredError or
	//   isTooLargeResourceVersionError; wrap a failure as fmt.Errorf("failed to list %v: %w",
	//   r.typeDescription, err). On success clear the flag, Replace the store with the items at the
	//   list's resource version, then set lastSyncRV.
	rv := r.relistResourceVersion()
	pageSize := r.pageSize(rv)
	list, paginated, err := ListAll(ctx, r.lw, metav1.ListOptions{ResourceVersion: rv}, pageSize)
	if isExpiredError(err) || isTooLargeResourceVersionError(err) {
		r.setRVUnavailable(true)
		list, paginated, err = ListAll(ctx, r.lw, metav1.ListOptions{ResourceVersion: r.relistResourceVersion()}, pageSize)
	}
	if ctx.Err() != nil {
		return nil // stopped while listing: leave the store alone
	}
	if err != nil {
		return fmt.Errorf("failed to list %v: %w", r.typeDescription, err)
	}
	if rv == "0" && paginated {
		r.paginated = true
	}
	r.setRVUnavailable(false)
	items := make([]any, len(list.Items))
	for i, obj := range list.Items {
		items[i] = obj
	}
	if err := r.store.Replace(items, list.ResourceVersion); err != nil {
		return fmt.Errorf("unable to sync list result: %v", err)
	}
	r.setLastSyncRV(list.ResourceVersion)
	return nil
	// exercise:end 10
}

// pageSize is the LIST limit: the caller's, or 500 once the server has
// shown it pages, or none for a list at a known version (so the API
// server can answer from its watch cache, which ignores limits), or 500.
func (r *Reflector) pageSize(rv string) int64 {
	// exercise:begin 8
	switch {
	case r.PageSize != 0:
		return r.PageSize
	case r.paginated:
		return DefaultPageSize
	case rv != "" && rv != "0":
		return 0
	}
	return DefaultPageSize
	// exercise:end 8
}

// isExpiredError: the resource version is older than the server keeps.
// Servers before 1.18 said Gone, later ones say Expired; both are 410.
func isExpiredError(err error) bool {
	// exercise:begin 8
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
	// exercise:end 8
}

// isTooLargeResourceVersionError: the resource version is newer than the
// server (its watch cache) has reached.
func isTooLargeResourceVersionError(err error) bool {
	// exercise:begin 8
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
	// exercise:end 8
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
