package watchserver

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// InitialEventsEnd is the annotation on the bookmark that ends a watch's
// initial events: the client now has the whole state (WatchList).
const InitialEventsEnd = metav1.InitialEventsAnnotationKey

// WatchOptions are the parts of a watch request the cache acts on.
//
// upstream: k8s.io/apiserver/pkg/storage/interfaces.go (ListOptions)
type WatchOptions struct {
	Namespace         string // "" for every namespace
	ResourceVersion   string // "", "0" or a revision
	SendInitialEvents *bool  // nil: not given
	AllowBookmarks    bool
	Selector          Selector  // labelSelector and fieldSelector
	Deadline          time.Time // when the request times out; zero: never
}

// Watcher is one client's watch: events until the channel closes.
//
// upstream: k8s.io/apimachinery/pkg/watch/watch.go (Interface)
type Watcher interface {
	ResultChan() <-chan Event
	Stop()
}

// cacheWatcher is one client's view of the cache. The dispatcher fills
// input (bounded: WatcherBuffer); process replays the initial events, then
// forwards input to result, which the WatchServer drains. Whoever ends the
// watch, result is closed exactly once, by process.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go (cacheWatcher).
type cacheWatcher struct {
	input  chan Event
	result chan Event
	// done is closed by Stop: the client went away.
	done     chan struct{}
	stopOnce sync.Once
	cache    *Cache

	namespace      string
	selector       Selector
	allowBookmarks bool
	deadline       time.Time // the request's; zero: none (nextBookmark)
	// replay is the stretch of the ring still to send after initial, read
	// a chunk at a time (eventRing.read).
	replay interval
	// startRV: only events newer than this are forwarded; the initial
	// events (replay or snapshot) cover everything up to it.
	startRV int64
	initial []Event
	// closed: input is closed. Only the dispatcher reads or writes it: an
	// event queued before the watcher was closed must skip it.
	closed bool
}

func (w *cacheWatcher) ResultChan() <-chan Event { return w.result }

// Stop unregisters the watcher and ends process. The input channel stays
// open: only the dispatcher closes it, so it can never send on a closed one.
func (w *cacheWatcher) Stop() {
	// exercise:begin 7 A watcher's loop: initial events first, then only what is newer
	// exercise:hint Send every initial event; then replay: read the interval replayChunk events
	//   at a time from the ring (eventRing.read, under the cache's lock), and stop the watcher
	//   when the ring has overtaken it; then forward from input until it closes, dropping events
	//   not newer than startRV and events of other namespaces. Every send selects on done too.
	//   Close result when you return.
	// exercise:deeper A BOOKMARK is forwarded only when its RV is greater than startRV (a bookmark
	//   at the start version tells the client nothing), and only to a watcher that allowed
	//   bookmarks; it carries an empty object of the cache's resource (res.NewObject()) with just
	//   the resourceVersion. It also covers Stop
	//   (unregister, close done, once) and bookmarkObject.
	// exercise:track deep
	w.stopOnce.Do(func() {
		w.cache.mu.Lock()
		delete(w.cache.watchers, w)
		w.cache.mu.Unlock()
		close(w.done)
	})
	// exercise:end 7
}

// process is the watcher's goroutine.
func (w *cacheWatcher) process() {
	// exercise:begin 7
	defer close(w.result)
	send := func(ev Event) bool {
		select {
		case w.result <- ev:
			return true
		case <-w.done:
			return false
		}
	}
	for _, ev := range w.initial {
		if !send(ev) {
			return
		}
	}
	for w.replay.from < w.replay.to {
		w.cache.mu.Lock()
		chunk, ok := w.cache.ring.read(&w.replay, replayChunk)
		w.cache.mu.Unlock()
		if !ok {
			// The ring moved past what this watcher had still to replay.
			// It ends without an ERROR, as kube-apiserver's does: its
			// client watches again from the last version it saw, and
			// hears then whether that is still in the window.
			w.Stop()
			return
		}
		for _, ev := range chunk {
			if ev, ok := w.see(ev); ok && !send(ev) {
				return
			}
		}
	}
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.input:
			if !ok {
				return
			}
			if ev.RV <= w.startRV {
				continue
			}
			if ev.Type == watch.Bookmark {
				if !w.allowBookmarks {
					continue
				}
				ev.Object = bookmarkObject(w.cache.res, ev.RV, false)
			} else if ev, ok = w.see(ev); !ok {
				continue
			}
			if !send(ev) {
				return
			}
		}
	}
	// exercise:end 7
}

// nextBookmark is when w's next periodic bookmark is due, after one now:
// every later, or 2 s before its request's deadline if that is sooner, so
// that a client whose watch times out resumes from a recent version. ok is
// false for a watcher that did not allow bookmarks, or whose time for one
// has passed.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go
// (cacheWatcher.nextBookmarkTime)
func (w *cacheWatcher) nextBookmark(now time.Time, every time.Duration) (due time.Time, ok bool) {
	// exercise:begin 6
	if !w.allowBookmarks {
		return time.Time{}, false
	}
	due = now.Add(every)
	if w.deadline.IsZero() {
		return due, true
	}
	if beforeTimeout := w.deadline.Add(-2 * time.Second); beforeTimeout.Before(due) {
		due = beforeTimeout
	}
	return due, !due.Before(now)
	// exercise:end 6
}

// see is ev as this watcher sees it: not at all if its object is in
// another namespace, else as its selector makes it (Selector.See).
func (w *cacheWatcher) see(ev Event) (Event, bool) {
	// exercise:begin 7
	if w.namespace != "" && accessor(ev.Object).GetNamespace() != w.namespace {
		return Event{}, false
	}
	return w.selector.See(ev)
	// exercise:end 7
}

// bookmarkObject is what a BOOKMARK carries: an empty object of the
// resource's kind with only the resourceVersion (and, at the end of the
// initial events, the annotation that says so).
func bookmarkObject(res *Resource, rv int64, initialEventsEnd bool) runtime.Object {
	// exercise:begin 7
	obj := res.NewObject()
	m := accessor(obj)
	m.SetResourceVersion(formatRV(rv))
	if initialEventsEnd {
		m.SetAnnotations(map[string]string{InitialEventsEnd: "true"})
	}
	return obj
	// exercise:end 7
}

// errorWatcher yields one ERROR event and ends: how errors found after the
// request was accepted reach the client, inside a 200 stream.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cacher.go (errWatcher)
type errorWatcher struct{ ch chan Event }

// newErrorWatcher is a watch that sends one ERROR event for err and ends.
func newErrorWatcher(err error) *errorWatcher {
	// exercise:begin 8
	st := apierrors.NewInternalError(err).ErrStatus
	if s, ok := err.(apierrors.APIStatus); ok {
		st = s.Status()
	}
	ch := make(chan Event, 1)
	ch <- Event{Type: watch.Error, Status: &st}
	close(ch)
	return &errorWatcher{ch: ch}
	// exercise:end 8
}

func (e *errorWatcher) ResultChan() <-chan Event { return e.ch }
func (e *errorWatcher) Stop()                    {}

// tooOldResourceVersion is the 410 for a version older than the window.
func tooOldResourceVersion(requested, oldest int64) error {
	// exercise:begin 8
	return apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", requested, oldest))
	// exercise:end 8
}

// Watch opens a client watch on the cache. What it replays depends on the
// options, as in kube-apiserver 1.37:
//
//   - resourceVersion "" or "0" with sendInitialEvents not given is a legacy
//     watch, which the server rewrites to sendInitialEvents=true;
//   - sendInitialEvents=true: an ADDED per object (after waiting until the
//     cache has caught up with etcd when a version is asked for, or with
//     etcd's current revision when none is), then, if the client allows
//     bookmarks, a BOOKMARK annotated k8s.io/initial-events-end;
//   - sendInitialEvents=false with no version: start at etcd's revision;
//   - sendInitialEvents=false at "0": start at the cache's version, now;
//   - a version N: replay the buffered events newer than N, or 410 if N is
//     older than the buffer's window; a version the cache has not reached
//     yet replays nothing and waits for the events after it (no 504: only
//     initial events wait for the cache).
//
// docs/07-watchserver.md, Walkthrough item 6, has the whole table, with the
// scenario recorded from kube-apiserver for each row.
//
// An unparsable version fails the request (a bare 500: storage's plain
// error); 429 while the cache is not ready; every later error (a 410, the
// 504 of a version the cache does not reach in time) is one ERROR event in
// the stream.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cacher.go (Cacher.Watch),
// watch_cache.go (watchCache.getAllEventsSinceLocked),
// watch_cache_history.go (watchCacheHistory.GetIntervalLocked).
func (c *Cache) Watch(ctx context.Context, opts WatchOptions) (Watcher, error) {
	// exercise:begin 8
	var requested int64
	if opts.ResourceVersion != "" {
		rv, err := strconv.ParseUint(opts.ResourceVersion, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("resourceVersion: Invalid value: %q: %v", opts.ResourceVersion, err)
		}
		requested = int64(rv)
	}
	sendInitial := opts.SendInitialEvents
	if sendInitial == nil && requested == 0 {
		t := true
		sendInitial = &t
	}
	c.mu.Lock()
	ready := c.ready
	c.mu.Unlock()
	if !ready {
		return nil, notReady()
	}
	// A consistent start: the version to reach is etcd's current revision.
	if opts.ResourceVersion == "" {
		rev, err := c.storage.CurrentRevision(ctx)
		if err != nil {
			return newErrorWatcher(err), nil
		}
		// Without initial events the watch starts at that revision at
		// once, without waiting for the cache to reach it: start replays
		// from the ring what the cache already holds past it, so an
		// event applied between reading the revision and registering is
		// not lost.
		requested = rev
	}
	if sendInitial != nil && *sendInitial && requested > 0 {
		if err := c.waitFresh(ctx, requested); err != nil {
			return newErrorWatcher(err), nil
		}
	}
	return c.start(opts, requested, sendInitial != nil && *sendInitial), nil
	// exercise:end 8
}

// start registers a watcher with its initial events: the snapshot, or the
// replay from the ring, or a single 410.
func (c *Cache) start(opts WatchOptions, requested int64, sendInitial bool) Watcher {
	// exercise:begin 8
	c.mu.Lock()
	defer c.mu.Unlock()
	var initial []Event
	var replay interval // read lazily by the watcher: see process
	start := requested
	if sendInitial {
		start = c.rv
		for _, obj := range c.sortedLocked(opts.Namespace) {
			if opts.Selector.Matches(obj) {
				initial = append(initial, Event{Type: watch.Added, Object: obj, RV: c.rv})
			}
		}
		if opts.AllowBookmarks {
			initial = append(initial, Event{Type: watch.Bookmark, Object: bookmarkObject(c.res, c.rv, true), RV: c.rv})
		}
	} else {
		if requested == 0 {
			// "0" without initial events: any starting point will do,
			// so the watch starts now, at the cache's version.
			requested = c.rv
		}
		start = requested
		oldest := c.listRV + 1
		if first, ok := c.ring.oldest(); ok && c.ring.dropped {
			oldest = first.RV
		}
		if requested < oldest-1 {
			return newErrorWatcher(tooOldResourceVersion(requested, oldest-1))
		}
		replay = c.ring.after(requested)
		if c.rv > start {
			start = c.rv
		}
	}
	return c.registerLocked(opts, start, initial, replay)
	// exercise:end 8
}

// registerLocked adds a watcher that starts after start with the given
// initial events, then replay. The caller holds c.mu.
func (c *Cache) registerLocked(opts WatchOptions, start int64, initial []Event, replay interval) *cacheWatcher {
	// exercise:begin 8
	buffer := c.opts.WatcherBuffer
	if buffer == 0 {
		buffer = c.ring.watchChanSize()
	}
	w := &cacheWatcher{
		input:          make(chan Event, buffer),
		result:         make(chan Event, buffer), // as deep as input: the WatchServer flushes when it is empty
		done:           make(chan struct{}),
		cache:          c,
		namespace:      opts.Namespace,
		selector:       opts.Selector,
		allowBookmarks: opts.AllowBookmarks,
		startRV:        start,
		initial:        initial,
		replay:         replay,
		deadline:       opts.Deadline,
	}
	c.watchers[w] = struct{}{}
	c.bookmarks.add(w, time.Now())
	go w.process()
	return w
	// exercise:end 8
}
