//go:build ours

package main

import (
	"fmt"
	"strings"
	"sync"

	watchserver "example.com/walkthrough/07-watchserver"

	"example.com/walkthrough/06-controller/viewer"
)

// The stages chapter 07's server adds before the reflector, in the order
// a change meets them: etcd stores the write, the watch cache applies it
// and queues it for its watchers, a WatchServer writes it as a frame.
const (
	StageEtcd        = "etcd"
	StageWatchCache  = "watchcache"
	StageWatchServer = "watchserver"
)

// serverStages are the stages this build's embedded server traces.
var serverStages = []string{StageEtcd, StageWatchCache, StageWatchServer}

// frameShown is how much of a frame the viewer shows: enough to see its
// shape (the event type, the kind), not the whole object.
const frameShown = 40

// serverTrace turns what chapter 07's Observer hears into trace lines,
// and keeps the server's side of the viewer's State: etcd's last writes
// and the last frames (the caches it reads from the server when asked).
type serverTrace struct {
	srv *watchserver.InProcess // set once the server has started

	mu sync.Mutex
	// trace is nil until the story starts: the CRD's writes before it
	// are not part of the story.
	trace        func(stage, key, msg string)
	etcd, frames []string
}

func (t *serverTrace) observer() *watchserver.Observer {
	return &watchserver.Observer{Stored: t.stored, Cached: t.cached, Framed: t.framed}
}

// start traces the server's side from now on.
func (t *serverTrace) start(trace func(stage, key, msg string)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.trace = trace
}

// note adds line to list (at most viewer.MaxServer, newest last) and
// returns the trace function to call, outside the lock: the trace takes a
// snapshot, which reads this state.
func (t *serverTrace) note(list *[]string, line string) func(stage, key, msg string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.trace == nil {
		return nil
	}
	*list = append(*list, line)
	if len(*list) > viewer.MaxServer {
		*list = (*list)[len(*list)-viewer.MaxServer:]
	}
	return t.trace
}

func (t *serverTrace) stored(s watchserver.Stored) {
	line := fmt.Sprintf("%s %s rev %d", s.Op, s.Key, s.Revision)
	if trace := t.note(&t.etcd, line); trace != nil {
		trace(StageEtcd, key(s.Namespace, s.Name), line)
	}
}

func (t *serverTrace) cached(c watchserver.Cached) {
	t.mu.Lock()
	trace := t.trace
	t.mu.Unlock()
	if trace == nil {
		return
	}
	n := len(c.Cache.Watchers)
	resource, _, _ := strings.Cut(c.Cache.Resource, ".")
	trace(StageWatchCache, key(c.Namespace, c.Name), fmt.Sprintf("%s %s rv %d: ring slot %d of %d, window %s, queued for %d %s",
		c.Type, resource, c.RV, c.Slot, c.Cache.Capacity, windowOf(c.Cache), n, plural(n, "watcher", "watchers")))
}

func (t *serverTrace) framed(f watchserver.Frame) {
	media := "JSON"
	shown := strings.TrimSpace(string(f.Bytes))
	if strings.Contains(f.MediaType, "protobuf") {
		media, shown = "protobuf", fmt.Sprintf("% x", f.Bytes[:min(len(f.Bytes), 14)])
	}
	if len(shown) > frameShown {
		shown = shown[:frameShown] + "…"
	}
	line := fmt.Sprintf("%s %s: %s (%d bytes)", f.Type, f.Path, shown, len(f.Bytes))
	if trace := t.note(&t.frames, line); trace != nil {
		rv := ""
		if f.RV != "" {
			rv = " rv " + f.RV
		}
		trace(StageWatchServer, key(f.Namespace, f.Name), fmt.Sprintf("frame %s%s, %d bytes of %s, on GET %s?watch", f.Type, rv, len(f.Bytes), media, f.Path))
	}
}

// state is the server's side of the viewer's State.
func (t *serverTrace) state() *viewer.APIServer {
	s := &viewer.APIServer{}
	for _, c := range t.srv.Caches() {
		wc := viewer.WatchCache{Resource: c.Resource, Window: windowOf(c) + fmt.Sprintf(": %d events in a ring of %d", len(c.Window), c.Capacity)}
		for _, e := range c.Window[max(len(c.Window)-viewer.MaxServer, 0):] {
			wc.Ring = append(wc.Ring, fmt.Sprintf("slot %d: %s %s rv %d", e.Slot, e.Type, key(e.Namespace, e.Name), e.RV))
		}
		for _, w := range c.Watchers {
			ns := "all namespaces"
			if w.Namespace != "" {
				ns = "namespace " + w.Namespace
			}
			wc.Watchers = append(wc.Watchers, fmt.Sprintf("%s from rv %d, %d/%d buffered", ns, w.StartRV, w.Buffered, w.Buffer))
		}
		s.Caches = append(s.Caches, wc)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s.Etcd = append([]string{}, t.etcd...)
	s.Frames = append([]string{}, t.frames...)
	return s
}

// windowOf is the revisions a cache's ring holds: "rv 4..12", or "empty".
func windowOf(c watchserver.CacheView) string {
	if len(c.Window) == 0 {
		return fmt.Sprintf("empty at rv %d", c.RV)
	}
	return fmt.Sprintf("rv %d..%d", c.Window[0].RV, c.Window[len(c.Window)-1].RV)
}

// key is an object's namespace/name, the key the rest of the trace uses.
func key(namespace, name string) string {
	if name == "" {
		return ""
	}
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}
