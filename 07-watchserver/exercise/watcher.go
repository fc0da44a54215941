// Your copy of ../watcher.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

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

	"example.com/walkthrough/workshop/todo"
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
	w.stopOnce.Do(func() {
		w.cache.mu.Lock()
		delete(w.cache.watchers, w)
		w.cache.mu.Unlock()
		close(w.done)
	})
}

// process is the watcher's goroutine.
func (w *cacheWatcher) process() {
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
}

// see is ev as this watcher sees it: not at all if its object is in
// another namespace, else as its selector makes it (Selector.See).
func (w *cacheWatcher) see(ev Event) (Event, bool) {
	if w.namespace != "" && accessor(ev.Object).GetNamespace() != w.namespace {
		return Event{}, false
	}
	return w.selector.See(ev)
}

// bookmarkObject is what a BOOKMARK carries: an empty object of the
// resource's kind with only the resourceVersion (and, at the end of the
// initial events, the annotation that says so).
func bookmarkObject(res *Resource, rv int64, initialEventsEnd bool) runtime.Object {
	obj := res.NewObject()
	m := accessor(obj)
	m.SetResourceVersion(formatRV(rv))
	if initialEventsEnd {
		m.SetAnnotations(map[string]string{InitialEventsEnd: "true"})
	}
	return obj
}

// errorWatcher yields one ERROR event and ends: how errors found after the
// request was accepted reach the client, inside a 200 stream.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cacher.go (errWatcher)
type errorWatcher struct{ ch chan Event }

// newErrorWatcher is a watch that sends one ERROR event for err and ends.
func newErrorWatcher(err error) *errorWatcher {
	// Exercise 8: newErrorWatcher is a watch that sends one ERROR event for err and ends.
	panic(todo.Exercise("07-watchserver", 8, "newErrorWatcher"))
}

func (e *errorWatcher) ResultChan() <-chan Event { return e.ch }
func (e *errorWatcher) Stop()                    {}

// tooOldResourceVersion is the 410 for a version older than the window.
func tooOldResourceVersion(requested, oldest int64) error {
	// Exercise 8: tooOldResourceVersion is the 410 for a version older than the window.
	panic(todo.Exercise("07-watchserver", 8, "tooOldResourceVersion"))
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
	// Exercise 8: Watch opens a client watch on the cache.
	panic(todo.Exercise("07-watchserver", 8, "Cache.Watch"))
}

// start registers a watcher with its initial events: the snapshot, or the
// replay from the ring, or a single 410.
func (c *Cache) start(opts WatchOptions, requested int64, sendInitial bool) Watcher {
	// Exercise 8: start registers a watcher with its initial events.
	panic(todo.Exercise("07-watchserver", 8, "Cache.start"))
}

// registerLocked adds a watcher that starts after start with the given
// initial events, then replay. The caller holds c.mu.
func (c *Cache) registerLocked(opts WatchOptions, start int64, initial []Event, replay interval) *cacheWatcher {
	// Exercise 8: registerLocked adds a watcher that starts after start with the given initial events, then replay.
	panic(todo.Exercise("07-watchserver", 8, "Cache.registerLocked"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Sprintf
	_ = strconv.ParseUint
	_ = apierrors.NewInternalError
	_ = watch.Bookmark
)
