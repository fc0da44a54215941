// Your copy of ../cache.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "example.com/walkthrough/01-listwatch"

	"example.com/walkthrough/workshop/todo"
)

// CacheOptions size the watch cache. The zero value gives kube-apiserver's
// numbers for a fresh cache.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cacher.go (Config), the
// cacher's settings, which has none of these numbers: kube-apiserver fixes
// them in code, as in watch_cache_history.go (defaultLowerBoundCapacity)
// and watch_cache.go (blockTimeout)
type CacheOptions struct {
	// History is how many recent events the ring buffer keeps at first,
	// and at its smallest (100); MaxHistory is the most it grows to
	// (102,400). The ring doubles while all it holds is younger than
	// EventFreshDuration (75 s), and halves when even its newest quarter
	// is older (eventRing).
	History            int
	MaxHistory         int
	EventFreshDuration time.Duration
	// WatcherBuffer, when set, is every watcher's input buffer; by
	// default each watcher gets about a second of the ring's window, 10 to
	// 100 events (eventRing.watchChanSize).
	WatcherBuffer int
	// DispatchBudget is the most the dispatcher may wait, in all, for
	// watchers whose buffer is full before it closes them (100ms). It
	// starts empty and refills at DispatchRefill a second (50ms): see
	// dispatchBudget.
	DispatchBudget time.Duration
	DispatchRefill time.Duration
	// BookmarkInterval is how long after one periodic bookmark a watcher
	// that allows them gets the next (1m); a watcher whose request has a
	// deadline gets one 2 s before it, if that is sooner. The dispatcher
	// looks for watchers due every second, or every BookmarkInterval if
	// that is shorter (bookmarkBuckets).
	BookmarkInterval time.Duration
	// FreshnessWait bounds how long a consistent read waits for the cache
	// to reach etcd's revision (3s).
	FreshnessWait time.Duration
	// Observer, when set, hears each change the cache applies (observe.go):
	// chapter 06's demo sets it, through StartObserved, to trace the server.
	Observer *Observer
}

func (o CacheOptions) withDefaults() CacheOptions {
	if o.History <= 0 {
		o.History = 100
	}
	if o.MaxHistory <= 0 {
		o.MaxHistory = 100 * 1024
	}
	if o.WatcherBuffer < 0 {
		o.WatcherBuffer = 0 // the ring's rule, as for zero
	}
	if o.EventFreshDuration <= 0 {
		o.EventFreshDuration = 75 * time.Second
	}
	if o.DispatchBudget <= 0 {
		o.DispatchBudget = 100 * time.Millisecond
	}
	if o.DispatchRefill <= 0 {
		o.DispatchRefill = 50 * time.Millisecond
	}
	if o.BookmarkInterval <= 0 {
		o.BookmarkInterval = time.Minute
	}
	if o.FreshnessWait <= 0 {
		o.FreshnessWait = 3 * time.Second
	}
	return o
}

// Cache is the watch cache of one resource: the current state of every
// object, the last
// History events, and the watchers, all fed by ONE etcd watch. However many
// clients watch, etcd sees one watcher; a LIST at resourceVersion=0 and a
// watch from a recent version are answered from memory.
//
// Two goroutines run it. Chapter 01's Reflector (started by Run) lists and
// watches etcd and applies each change, as the cache is its store; the
// dispatcher (dispatchLoop) is the only one that sends to a watcher's input
// or closes it, so events reach every watcher in etcd's order and no input
// is closed twice. A bounded queue (incoming) joins the two: a slow watcher
// delays the dispatcher, never the cache's state.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cacher.go (Cacher),
// watch_cache.go (watchCache), watch_cache_history.go (watchCacheHistory),
// the ring buffer.
type Cache struct {
	storage *Storage
	res     *Resource // storage's: what the cache holds
	client  *clientv3.Client
	opts    CacheOptions

	mu cacheLock
	// Guarded by mu:
	state map[string]runtime.Object // etcd key → object at rv
	rv    int64                     // the last revision applied to state
	// fresher is closed (and replaced) whenever rv moves: waiters wake.
	fresher chan struct{}
	// ring holds the last events, the window a watch can be replayed
	// from; listRV is the revision state was listed at, where the window
	// starts until an event falls out of the ring.
	ring     *eventRing
	listRV   int64
	ready    bool
	watchers map[*cacheWatcher]struct{}
	// bookmarks holds the watchers that allow bookmarks, by when their
	// next one is due.
	bookmarks *bookmarkBuckets
	// incoming is the dispatcher's queue (100 jobs, as kube-apiserver's).
	incoming chan dispatchJob
	// budget is the dispatcher's own: how long it may wait for full buffers.
	budget *dispatchBudget
	// etcdWatches counts the etcd watches this cache has opened (one per
	// watch of its Reflector): the fan-out test reads it.
	etcdWatches int
}

// cacheLock is the cache's mutex, with a hook for tests: released, if
// set before the cache runs, is called each time the lock is let go. A
// test lands an event there, in the gap a watch that let go of the lock
// between its snapshot and its registration would leave, which no
// scheduler does reliably (TestStress, start-holds-the-lock).
//
// upstream: none; kube-apiserver's watchCache holds a plain sync.RWMutex.
type cacheLock struct {
	sync.Mutex
	released func() // nil but in tests
}

// Unlock lets go of the lock, then calls released.
func (l *cacheLock) Unlock() {
	l.Mutex.Unlock()
	if l.released != nil {
		l.released()
	}
}

// NewCache returns a cache over storage; Run fills it.
func NewCache(storage *Storage, opts CacheOptions) *Cache {
	o := opts.withDefaults()
	return &Cache{
		storage:   storage,
		res:       storage.res,
		client:    storage.client,
		opts:      o,
		state:     map[string]runtime.Object{},
		fresher:   make(chan struct{}),
		ring:      newEventRing(o.History, o.MaxHistory, o.EventFreshDuration),
		watchers:  map[*cacheWatcher]struct{}{},
		bookmarks: newBookmarkBuckets(time.Now(), o.BookmarkInterval),
		incoming:  make(chan dispatchJob, 100),
		budget:    newDispatchBudget(o.DispatchBudget, o.DispatchRefill, time.Now()),
	}
}

// Run keeps the cache equal to etcd until ctx ends, the way kube-apiserver's
// cacher does: chapter 01's Reflector lists and watches etcd (through
// etcdListerWatcher) with the cache as its store, and one dispatcher
// goroutine hands what the store applies to the watchers. When etcd's watch
// ends cleanly the Reflector watches again from the last revision, and no
// client notices; when it fails (compaction past it, etcd gone),
// ListAndWatch returns, the cache is not ready, and a second later every
// watcher is closed and the Reflector lists again: clients re-watch and see
// the 410 if they are behind.
func (c *Cache) Run(ctx context.Context) {
	dispatched := make(chan struct{})
	go func() {
		defer close(dispatched)
		c.dispatchLoop()
	}()
	// Deferred, so that however Run ends, a panic included, no dispatcher
	// outlives it, ticking on with nobody to stop it.
	defer func() {
		close(c.incoming)
		<-dispatched
	}()
	r := listwatch.NewReflector(etcdListerWatcher{c}, c.res.NewObject(), c, listwatch.ReflectorOptions{Name: "watch cache of " + c.res.GroupResource().String()})
	for ctx.Err() == nil {
		c.terminateAll()
		_ = r.ListAndWatch(ctx) // an error is a failed list: try again in a second
		c.setNotReady()
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	c.terminateAll()
}

// Replace is the Reflector's list: it swaps the whole state for it and
// empties the ring, whose events led up to a state that is gone.
func (c *Cache) Replace(items []any, resourceVersion string) error {
	rv, err := strconv.ParseInt(resourceVersion, 10, 64)
	if err != nil {
		return fmt.Errorf("list at resource version %q: %w", resourceVersion, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state = make(map[string]runtime.Object, len(items))
	for _, item := range items {
		m := accessor(item.(runtime.Object))
		c.state[c.res.Key(m.GetNamespace(), m.GetName())] = item.(runtime.Object)
	}
	c.ring.reset()
	c.listRV = rv
	c.ready = true
	c.setRVLocked(rv)
	return nil
}

// Add, Update and Delete are the Reflector's watch events: each is applied
// to the state and the ring, and dispatched (and told to the Observer,
// when there is one: observe.go).
func (c *Cache) Add(obj any) error    { return c.observedApply(watch.Added, obj) }
func (c *Cache) Update(obj any) error { return c.observedApply(watch.Modified, obj) }
func (c *Cache) Delete(obj any) error { return c.observedApply(watch.Deleted, obj) }

// Resync does nothing: the Reflector calls it only with a resync period,
// and the cache has none.
func (c *Cache) Resync() error { return nil }

// Bookmark is etcd's progress notification: nothing of ours changed up to
// resourceVersion, so rv moves there with no change of state.
func (c *Cache) Bookmark(resourceVersion string) error {
	rv, err := strconv.ParseInt(resourceVersion, 10, 64)
	if err != nil {
		return fmt.Errorf("bookmark at resource version %q: %w", resourceVersion, err)
	}
	c.mu.Lock()
	c.setRVLocked(rv)
	c.mu.Unlock()
	// The dispatcher's bookmarks may move there too, once it has handled
	// every event queued before this.
	c.incoming <- dispatchJob{ev: Event{Type: watch.Bookmark, RV: rv}}
	return nil
}

// apply turns a Reflector's call into an Event at the object's revision.
func (c *Cache) apply(t watch.EventType, obj any) error {
	o, ok := obj.(runtime.Object)
	if !ok {
		return fmt.Errorf("the watch cache holds API objects, not %T", obj)
	}
	m := accessor(o)
	rv, err := strconv.ParseInt(m.GetResourceVersion(), 10, 64)
	if err != nil {
		return fmt.Errorf("%s %s/%s at resource version %q: %w", t, m.GetNamespace(), m.GetName(), m.GetResourceVersion(), err)
	}
	c.processEvent(Event{Type: t, Object: o, RV: rv})
	return nil
}

// setNotReady marks the cache not ready: its Reflector stopped watching,
// so what it holds may be behind etcd until the next list.
func (c *Cache) setNotReady() {
	c.mu.Lock()
	c.ready = false
	c.mu.Unlock()
}

// setRVLocked moves rv forward and wakes whoever waits for freshness.
func (c *Cache) setRVLocked(rv int64) {
	if rv < c.rv {
		return
	}
	c.rv = rv
	close(c.fresher)
	c.fresher = make(chan struct{})
}

// processEvent applies one etcd event to the state and the ring, then
// queues it for the dispatcher with the watchers registered at that moment.
// A watcher registered after the lock is released started from a state
// that already includes the event, so it must not get it again: hence the
// snapshot under the lock. The queue is bounded: when the dispatcher falls
// behind, the Reflector waits here, and etcd's watch with it.
func (c *Cache) processEvent(ev Event) {
	c.mu.Lock()
	m := accessor(ev.Object)
	key := c.res.Key(m.GetNamespace(), m.GetName())
	if ev.Type == watch.Modified {
		ev.Prev = c.state[key]
	}
	if ev.Type == watch.Deleted {
		delete(c.state, key)
	} else {
		c.state[key] = ev.Object
	}
	c.ring.add(ev, time.Now())
	c.setRVLocked(ev.RV)
	targets := make([]*cacheWatcher, 0, len(c.watchers))
	for w := range c.watchers {
		targets = append(targets, w)
	}
	c.mu.Unlock()
	c.incoming <- dispatchJob{ev: ev, targets: targets}
}

// dispatch offers ev to every watcher without blocking, then gives the ones
// whose buffer was full the dispatcher's budget, shared, to make room.
// Whoever still has no room when it is spent is closed: one slow client
// must not hold back every other client of the resource, nor make the
// cache buffer without bound. Its client sees a clean end of stream and
// watches again.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cacher.go
// (Cacher.dispatchEvent), cache_watcher.go (cacheWatcher.add)
func (c *Cache) dispatch(ev Event, targets []*cacheWatcher) {
	var blocked []*cacheWatcher
	for _, w := range targets {
		if w.closed {
			continue // closed after this event was queued
		}
		if !offer(w, ev) {
			blocked = append(blocked, w)
		}
	}
	if len(blocked) == 0 {
		return
	}
	start := time.Now()
	budget := c.budget.take(start)
	defer func() { c.budget.giveBack(budget - time.Since(start)) }()
	timer := time.NewTimer(budget)
	defer timer.Stop()
	expired := false
	for _, w := range blocked {
		// First without waiting: while the budget went to the watchers
		// before it, this one may have made room.
		if offer(w, ev) {
			continue
		}
		if !expired {
			select {
			case w.input <- ev:
				continue
			case <-w.done:
				continue
			case <-timer.C:
				expired = true
			}
		}
		c.terminate(w)
	}
}

// offer hands ev to w if its buffer has room, without waiting. A watcher
// its client has stopped needs nothing more, so it counts as served.
func offer(w *cacheWatcher, ev Event) (served bool) {
	select {
	case w.input <- ev:
		return true
	case <-w.done:
		return true
	default:
		return false
	}
}

// dispatchJob is one thing for the dispatcher to do: send ev to targets,
// or close every watcher in closeAll.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cacher.go (Cacher.incoming),
// whose jobs are events only
type dispatchJob struct {
	ev       Event
	targets  []*cacheWatcher
	closeAll []*cacheWatcher
}

// dispatchLoop is the dispatcher: the one goroutine that sends to
// watchers' inputs and closes them, so a watcher gets events in etcd's
// order and no input is closed twice. It also sends the periodic
// bookmarks, at the revision of the last event it handled: the cache's own
// may already include an event still queued, which the bookmark would
// overtake, and a client that reconnects from the bookmark would never see
// it. It returns when incoming is closed.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cacher.go (Cacher.dispatchEvents).
func (c *Cache) dispatchLoop() {
	tick := time.NewTicker(min(time.Second, c.opts.BookmarkInterval))
	defer tick.Stop()
	var handled int64 // the revision of the last event dispatched
	for {
		select {
		case job, ok := <-c.incoming:
			if !ok {
				return
			}
			for _, w := range job.closeAll {
				c.closeInput(w)
			}
			if len(job.targets) > 0 {
				c.dispatch(job.ev, job.targets)
			}
			handled = max(handled, job.ev.RV)
		case <-tick.C:
			c.sendBookmarks(handled)
		}
	}
}

// sendBookmarks offers a BOOKMARK at rv, the dispatcher's revision, to
// every watcher whose next bookmark is due, then schedules its next.
// Never blocking: a watcher too busy for a bookmark gets the next one,
// and is never closed for missing one.
func (c *Cache) sendBookmarks(rv int64) {
	c.mu.Lock()
	due := c.bookmarks.due(time.Now())
	c.mu.Unlock()
	for _, w := range due {
		if !w.closed {
			offer(w, Event{Type: watch.Bookmark, RV: rv}) // a full buffer gets the next one
		}
	}
	c.mu.Lock()
	now := time.Now()
	for _, w := range due {
		if _, registered := c.watchers[w]; registered {
			c.bookmarks.add(w, now)
		}
	}
	c.mu.Unlock()
}

// terminate closes one watcher's input, once, if it is still registered.
func (c *Cache) terminate(w *cacheWatcher) {
	c.mu.Lock()
	_, registered := c.watchers[w]
	delete(c.watchers, w)
	c.mu.Unlock()
	if registered {
		c.closeInput(w)
	}
}

// closeInput closes w's input once; on the dispatcher only.
func (c *Cache) closeInput(w *cacheWatcher) {
	if !w.closed {
		w.closed = true
		close(w.input)
	}
}

// terminateAll closes every watcher: the cache is relisting or stopping.
// The dispatcher does the closing, after whatever it still has to send.
func (c *Cache) terminateAll() {
	c.mu.Lock()
	all := make([]*cacheWatcher, 0, len(c.watchers))
	for w := range c.watchers {
		all = append(all, w)
	}
	c.watchers = map[*cacheWatcher]struct{}{}
	c.ready = false
	c.mu.Unlock()
	if len(all) > 0 {
		c.incoming <- dispatchJob{closeAll: all}
	}
}

// EtcdWatches is how many etcd watches the cache has opened so far.
func (c *Cache) EtcdWatches() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.etcdWatches
}

// Watchers is how many client watches are registered.
func (c *Cache) Watchers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.watchers)
}

// Ready says whether the cache has listed and serves reads.
func (c *Cache) Ready() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ready
}

// RV is the last revision the cache applied.
func (c *Cache) RV() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rv
}

// notReady is what a client gets before the first list completes.
func notReady() error {
	return apierrors.NewTooManyRequests("storage is (re)initializing", 1)
}

// waitFresh blocks until the cache has applied revision rv, asking etcd
// for progress notifications meanwhile: with none of the resource's
// objects written, only a progress notification tells the cache that
// nothing happened up to rv. It asks on the resource's own stream
// (etcdStream), where the cache's watch is.
// It waits FreshnessWait whatever the watch's timeout (ctx ends only when
// the client leaves), then gives up with tooLargeResourceVersion.
func (c *Cache) waitFresh(ctx context.Context, rv int64) error {
	// Exercise 8: waitFresh blocks until the cache has applied revision rv.
	panic(todo.Exercise("07-watchserver", 8, "Cache.waitFresh"))
}

// tooLargeResourceVersion is the 504 for a version the cache has not
// reached in time: retry in a second, with the ResourceVersionTooLarge
// cause that tells a client (and kube-apiserver's own delegator) this
// timeout from any other.
func tooLargeResourceVersion(requested, current int64) error {
	// Exercise 2: tooLargeResourceVersion is the 504 for a version the cache has not reached in time.
	panic(todo.Exercise("07-watchserver", 2, "tooLargeResourceVersion"))
}

// List answers a LIST at resourceVersion=0 from memory: every object of
// namespace ("" for all) sorted by key, at the cache's revision.
func (c *Cache) List(namespace string) (runtime.Object, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ready {
		return nil, notReady()
	}
	return newList(c.res, c.sortedLocked(namespace), metav1.ListMeta{ResourceVersion: formatRV(c.rv)})
}

// sortedLocked is the state of namespace in key order.
func (c *Cache) sortedLocked(namespace string) []runtime.Object {
	prefix := c.res.keyPrefix(namespace)
	keys := make([]string, 0, len(c.state))
	for k := range c.state {
		if len(k) >= len(prefix) && k[:len(prefix)] == prefix {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := make([]runtime.Object, len(keys))
	for i, k := range keys {
		out[i] = c.state[k]
	}
	return out
}

// awaitReady waits until the cache has listed once, for FreshnessWait at
// most or until ctx ends: a cache started by the request that first needs
// it (Server.cacheFor) answers that request, not a 429.
func (c *Cache) awaitReady(ctx context.Context) {
	deadline := time.NewTimer(c.opts.FreshnessWait)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		ready, fresher := c.ready, c.fresher
		c.mu.Unlock()
		if ready {
			return
		}
		select {
		case <-fresher:
		case <-ctx.Done():
			return
		case <-deadline.C:
			return
		}
	}
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = sort.Strings
	_ = metav1.CauseTypeResourceVersionTooLarge
	_ = listwatch.NewReflector
)
