// Your copy of ../observe.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"encoding/binary"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// Observer hears what the server does with each change, for chapter 06's
// step-through viewer (make demo, on our server): etcd's write as the watch
// cache's etcd watch delivers it, the cache's ring and watchers once the
// cache has applied it, and each frame a WatchServer writes. Nothing in
// the server's own code calls it: the cache's Store methods (Add, Update,
// Delete) and an HTTP wrapper around the handler do, so that the
// exercises stay free of tracing. Any func may be nil; each is called on
// the server's goroutines, and must return quickly.
//
// upstream: none; kube-apiserver traces requests (component-base/tracing),
// not each change on its way through the watch cache.
type Observer struct {
	Stored func(Stored)
	Cached func(Cached)
	Framed func(Frame)
}

// Stored is one write as etcd reported it to a watch cache: the key, the
// operation (PUT or DELETE) and the revision the write made.
//
// upstream: none (go.etcd.io/etcd/api/v3/mvccpb's Event, as the cache read it)
type Stored struct {
	Resource        string // deployments.apps
	Op              string // PUT or DELETE
	Key             string // the etcd key
	Namespace, Name string
	Revision        int64
}

// Cached is one event the cache has just applied: where it sits in the
// ring, and the cache as it is then, read under its lock again right
// after: its window, and its watchers, those the event was queued for
// (unless a watch registered in between, which starts from a state that
// already holds the event).
//
// upstream: none; it reads the cache for the viewer.
type Cached struct {
	Type            watch.EventType
	Namespace, Name string
	RV              int64
	// Slot is the event's place in the ring: slot Slot of Cache.Capacity.
	Slot  int
	Cache CacheView
}

// CacheView is a watch cache at one moment: its revision, the window of
// events a watch can be replayed from, and its watchers.
//
// upstream: none; it reads the cache for the viewer.
type CacheView struct {
	Resource string
	RV       int64
	// Capacity is the ring's size now; Window its events, oldest first.
	Capacity int
	Window   []RingEntry
	Watchers []WatcherView
}

// RingEntry is one event in the ring, and its slot.
//
// upstream: none (watch_cache.go's watchCacheEvent, as the viewer shows it)
type RingEntry struct {
	Slot            int
	Type            watch.EventType
	Namespace, Name string
	RV              int64
}

// WatcherView is one client's watcher: what it watches, where it
// started, and how full its input buffer is.
//
// upstream: none (cache_watcher.go's cacheWatcher, as the viewer shows it)
type WatcherView struct {
	Namespace        string // "" for every namespace
	StartRV          int64
	Buffered, Buffer int
}

// Frame is one frame a WatchServer wrote: the watch it belongs to, the
// event it carries, and the bytes as they went on the wire.
//
// upstream: none; the HTTP wrapper below sees it.
type Frame struct {
	Path            string // the watch's URL path
	MediaType       string
	Type            string
	Namespace, Name string
	RV              string
	Bytes           []byte
}

// observedApply is apply, told to the cache's Observer: etcd's write
// before, the cache's ring and watchers after.
func (c *Cache) observedApply(t watch.EventType, obj any) error {
	o := c.opts.Observer
	if o == nil {
		return c.apply(t, obj)
	}
	ro, isObject := obj.(runtime.Object)
	if !isObject {
		return c.apply(t, obj)
	}
	m := accessor(ro)
	rv := parseRV(m.GetResourceVersion())
	if o.Stored != nil {
		op := "PUT"
		if t == watch.Deleted {
			op = "DELETE"
		}
		o.Stored(Stored{Resource: c.res.GroupResource().String(), Op: op, Key: c.res.Key(m.GetNamespace(), m.GetName()),
			Namespace: m.GetNamespace(), Name: m.GetName(), Revision: rv})
	}
	err := c.apply(t, obj)
	if err == nil && o.Cached != nil {
		c.mu.Lock()
		view := c.viewLocked()
		slot := (c.ring.end - 1) % len(c.ring.slots)
		c.mu.Unlock()
		o.Cached(Cached{Type: t, Namespace: m.GetNamespace(), Name: m.GetName(), RV: rv, Slot: slot, Cache: view})
	}
	return err
}

// parseRV is a resourceVersion as a number; apply refuses any other.
func parseRV(s string) int64 {
	rv, _ := strconv.ParseInt(s, 10, 64)
	return rv
}

// View is the cache as the viewer draws it, read under its lock.
func (c *Cache) View() CacheView {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.viewLocked()
}

func (c *Cache) viewLocked() CacheView {
	v := CacheView{Resource: c.res.GroupResource().String(), RV: c.rv, Capacity: len(c.ring.slots)}
	for i := c.ring.start; i < c.ring.end; i++ {
		slot := i % len(c.ring.slots)
		ev := c.ring.slots[slot]
		e := RingEntry{Slot: slot, Type: ev.Type, RV: ev.RV}
		if ev.Object != nil {
			m := accessor(ev.Object)
			e.Namespace, e.Name = m.GetNamespace(), m.GetName()
		}
		v.Window = append(v.Window, e)
	}
	for w := range c.watchers {
		v.Watchers = append(v.Watchers, WatcherView{Namespace: w.namespace, StartRV: w.startRV, Buffered: len(w.input), Buffer: cap(w.input)})
	}
	// The watchers are a map: sort them so that two looks agree.
	sort.Slice(v.Watchers, func(i, j int) bool {
		a, b := v.Watchers[i], v.Watchers[j]
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.StartRV < b.StartRV
	})
	return v
}

// Caches is every watch cache the server runs, by resource.
func (p *InProcess) Caches() []CacheView {
	caches := []*Cache{p.server.Cache}
	p.server.mu.Lock()
	for _, c := range p.server.caches {
		caches = append(caches, c)
	}
	p.server.mu.Unlock()
	views := make([]CacheView, 0, len(caches))
	for _, c := range caches {
		views = append(views, c.View())
	}
	sort.Slice(views, func(i, j int) bool { return views[i].Resource < views[j].Resource })
	return views
}

// observeFrames wraps the server's handler so that every frame a watch
// writes is told to obs.Framed: a WatchServer writes each frame in one
// Write. A WebSocket watch is left alone (its connection is hijacked).
// With no Framed to tell, h is served as it is.
func observeFrames(h http.Handler, obs *Observer) http.Handler {
	if obs == nil || obs.Framed == nil {
		return h
	}
	framed := obs.Framed
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		watching := r.URL.Query().Get("watch")
		if watching == "" || watching == "0" || strings.EqualFold(watching, "false") || r.Header.Get("Upgrade") != "" {
			h.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(&frameWriter{ResponseWriter: w, path: r.URL.Path, framed: framed}, r)
	})
}

// frameWriter is a watch's ResponseWriter, telling each Write as a frame.
//
// upstream: none
type frameWriter struct {
	http.ResponseWriter
	path   string
	framed func(Frame)
}

func (f *frameWriter) Write(b []byte) (int, error) {
	n, err := f.ResponseWriter.Write(b)
	if err == nil {
		mt := f.Header().Get("Content-Type")
		fr := Frame{Path: f.path, MediaType: mt, Bytes: append([]byte(nil), b...)}
		fr.Type, fr.Namespace, fr.Name, fr.RV = describeFrame(b, strings.HasPrefix(mt, mediaProtobuf))
		f.framed(fr)
	}
	return n, err
}

// Flush passes on: the WatchServer flushes after the last frame of a burst.
func (f *frameWriter) Flush() {
	if fl, ok := f.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

// describeFrame reads a frame's event type and its object's namespace,
// name and resourceVersion back, as a client would: a JSON object's
// metadata, or a protobuf one through the server's own decoder.
func describeFrame(b []byte, protobuf bool) (typ, namespace, name, rv string) {
	var we metav1.WatchEvent
	if protobuf {
		if len(b) < 4 || int(binary.BigEndian.Uint32(b)) != len(b)-4 || we.Unmarshal(b[4:]) != nil {
			return "", "", "", ""
		}
		obj, _, err := decoder.Decode(we.Object.Raw, nil, nil)
		m, merr := meta.Accessor(obj)
		if err != nil || merr != nil {
			return we.Type, "", "", ""
		}
		return we.Type, m.GetNamespace(), m.GetName(), m.GetResourceVersion()
	}
	if json.Unmarshal(b, &we) != nil {
		return "", "", "", ""
	}
	var obj struct{ Metadata metav1.ObjectMeta }
	_ = json.Unmarshal(we.Object.Raw, &obj)
	return we.Type, obj.Metadata.Namespace, obj.Metadata.Name, obj.Metadata.ResourceVersion
}
