package watchserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/01-listwatch/testserver"
)

// faultProxy stands in front of our server and does, on cue, what a real
// server only does now and then: refuse the next request of a verb, drop
// every open watch, send an ERROR frame down every open watch, or one
// instead of a streaming list's closing bookmark. It also plays a server
// whose WatchList feature is off. It reports each request as 01's
// scripted server does.
type faultProxy struct {
	next             http.Handler
	http             *httptest.Server
	onRequest        func(testserver.Request)
	withoutWatchList atomic.Bool

	mu      sync.Mutex
	faults  []proxyFault
	watches map[*liveWatch]struct{}
}

type proxyFault struct {
	verb   string // "list", "watch" or "bookmark"
	status *metav1.Status
}

func newFaultProxy(t testing.TB, next http.Handler, onRequest func(testserver.Request)) *faultProxy {
	p := &faultProxy{next: next, onRequest: onRequest, watches: map[*liveWatch]struct{}{}}
	p.http = httptest.NewServer(p)
	t.Cleanup(p.http.Close)
	return p
}

func (p *faultProxy) failNext(verb string, status *metav1.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults = append(p.faults, proxyFault{verb, status})
}

func (p *faultProxy) takeFault(verb string) (*metav1.Status, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, f := range p.faults {
		if f.verb == verb {
			p.faults = append(p.faults[:i:i], p.faults[i+1:]...)
			return f.status, true
		}
	}
	return nil, false
}

// dropWatches breaks every open watch's connection, mid-stream.
func (p *faultProxy) dropWatches() {
	for _, lw := range p.open() {
		lw.end(nil)
	}
}

// sendError sends status as an ERROR frame down every open watch, which
// then ends.
func (p *faultProxy) sendError(status *metav1.Status) {
	for _, lw := range p.open() {
		lw.end(status)
	}
}

func (p *faultProxy) open() []*liveWatch {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*liveWatch
	for lw := range p.watches {
		out = append(out, lw)
	}
	return out
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	verb := "list"
	if q.Get("watch") == "true" || q.Get("watch") == "1" {
		verb = "watch"
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	lw := &liveWatch{w: w, cancel: cancel}
	if verb == "watch" {
		// Open before it is reported: a fault sent once the request is
		// seen must find it.
		p.mu.Lock()
		p.watches[lw] = struct{}{}
		p.mu.Unlock()
		defer func() {
			p.mu.Lock()
			delete(p.watches, lw)
			p.mu.Unlock()
		}()
	}
	p.onRequest(testserver.Request{Method: r.Method, Path: r.URL.Path, Query: q})
	if status, ok := p.takeFault(verb); ok {
		writeStatus(w, status)
		return
	}
	if verb == "watch" && q.Get("sendInitialEvents") == "true" {
		if status, ok := p.takeFault("bookmark"); ok {
			lw.cutAt = status
		}
	}
	if verb == "watch" && q.Get("sendInitialEvents") == "true" && p.withoutWatchList.Load() {
		writeStatus(w, &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusUnprocessableEntity,
			Reason: metav1.StatusReasonInvalid,
			Message: `ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: ` +
				`sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled`})
		return
	}
	if verb != "watch" {
		p.next.ServeHTTP(w, r)
		return
	}
	p.next.ServeHTTP(lw, r.WithContext(ctx))
	if lw.dropped() {
		panic(http.ErrAbortHandler) // no last chunk: the connection breaks
	}
}

func writeStatus(w http.ResponseWriter, status *metav1.Status) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(int(status.Code))
	_, _ = w.Write(statusJSON(status))
}

// statusJSON is status as the server writes it, kind and apiVersion set.
func statusJSON(status *metav1.Status) []byte {
	status.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	b, _ := json.Marshal(status)
	return b
}

// liveWatch is the response of one open watch. Our server writes through
// it, one frame per Write; the proxy can end it between two frames.
type liveWatch struct {
	w      http.ResponseWriter
	cancel context.CancelFunc

	mu      sync.Mutex
	started bool           // the server has sent the headers
	pending *metav1.Status // an ERROR frame to send once it has
	ended   bool
	drop    bool
	// cutAt, when set, is the ERROR frame sent instead of the bookmark
	// that ends a streaming list's initial events (fail verb=bookmark).
	cutAt *metav1.Status
}

var errWatchEnded = errors.New("the proxy ended this watch")

func (lw *liveWatch) Header() http.Header { return lw.w.Header() }

func (lw *liveWatch) WriteHeader(code int) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.w.WriteHeader(code)
	lw.started = true
}

func (lw *liveWatch) Write(b []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.ended {
		return 0, errWatchEnded
	}
	lw.started = true
	if lw.cutAt != nil && bytes.Contains(b, []byte(`"BOOKMARK"`)) && bytes.Contains(b, []byte(metav1.InitialEventsAnnotationKey)) {
		lw.writeError(lw.cutAt)
		lw.ended = true
		lw.cancel()
		return 0, errWatchEnded
	}
	return lw.w.Write(b)
}

func (lw *liveWatch) Flush() {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.pending != nil && lw.started {
		lw.writeError(lw.pending)
		lw.pending = nil
		lw.ended = true
		lw.cancel()
	}
	lw.w.(http.Flusher).Flush()
}

// end ends the watch: with an ERROR frame, or, for nil, by breaking the
// connection. An ERROR frame waits for the headers if need be.
func (lw *liveWatch) end(status *metav1.Status) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.ended {
		return
	}
	if status == nil {
		lw.ended, lw.drop = true, true
		lw.cancel()
		return
	}
	if !lw.started {
		lw.pending = status
		return
	}
	lw.writeError(status)
	lw.w.(http.Flusher).Flush()
	lw.ended = true
	lw.cancel()
}

func (lw *liveWatch) writeError(status *metav1.Status) {
	frame, _ := json.Marshal(struct {
		Type   string          `json:"type"`
		Object json.RawMessage `json:"object"`
	}{"ERROR", statusJSON(status)})
	_, _ = lw.w.Write(append(frame, '\n'))
}

func (lw *liveWatch) dropped() bool {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.drop
}
