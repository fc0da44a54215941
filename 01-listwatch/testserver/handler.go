package testserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ServeHTTP answers GET requests for the served resources' collections.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.OnRequest != nil {
		s.opts.OnRequest(Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query()})
	}
	if r.Method != http.MethodGet {
		writeStatus(w, http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed, "only GET is served here")
		return
	}
	coll, namespace, ok := s.route(r.URL.Path)
	if !ok {
		writeStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound, "the server could not find the requested resource")
		return
	}
	q := r.URL.Query()
	verb := "list"
	if q.Get("watch") == "true" || q.Get("watch") == "1" {
		verb = "watch"
	}
	if verb == "list" && q.Get("continue") != "" {
		verb = "continue"
	}
	if f, ok := s.takeFault(verb); ok || (verb == "continue" && s.hasFault("list")) {
		if !ok {
			f, _ = s.takeFault("list")
		}
		if f.Reset {
			resetConnection(w)
			return
		}
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		if f.Body != "" {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(int(f.Code))
			_, _ = w.Write([]byte(f.Body))
			return
		}
		writeStatus(w, int(f.Code), f.Reason, f.Message)
		return
	}
	if verb == "watch" {
		s.serveWatch(w, r, coll, namespace)
		return
	}
	s.serveList(w, r, coll, namespace)
}

// route finds the collection and namespace a path names.
func (s *Server) route(path string) (*collection, string, bool) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	var group, ver string
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		ver, parts = parts[1], parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		group, ver, parts = parts[1], parts[2], parts[3:]
	default:
		return nil, "", false
	}
	namespace := ""
	if len(parts) == 3 && parts[0] == "namespaces" {
		namespace, parts = parts[1], parts[2:]
	}
	if len(parts) != 1 {
		return nil, "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.resources[group+"/"+ver+"/"+parts[0]]
	if !ok || (namespace != "" && !c.res.Namespaced) {
		return nil, "", false
	}
	return c, namespace, true
}

func (s *Server) takeFault(verb string) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.takeFaultLocked(verb)
}

// takeFaultLocked is takeFault with s.mu held.
func (s *Server) takeFaultLocked(verb string) (Fault, bool) {
	for i, f := range s.faults {
		if f.Verb == verb {
			s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			return f, true
		}
	}
	return Fault{}, false
}

func (s *Server) hasFault(verb string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.Verb == verb {
			return true
		}
	}
	return false
}

// resetConnection ends a request with no answer, the way a connection
// reset by the peer does: the in-process transport fails the round trip
// with ECONNRESET, and a real socket is hijacked and closed with an RST.
func resetConnection(w http.ResponseWriter) {
	if pw, ok := w.(*pipeWriter); ok {
		pw.reset()
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0) // close with an RST, not a FIN
	}
	_ = conn.Close()
}

func writeStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(statusJSON(int32(code), reason, message))
}

// continueToken is what a continue string carries: the snapshot's
// resource version and the last key sent. It is opaque to clients.
//
// upstream: k8s.io/apiserver/pkg/storage/continue.go (continueToken)
type continueToken struct {
	APIVersion string `json:"v"`
	RV         int64  `json:"rv"`
	Start      string `json:"start"`
}

const expiredContinue = "The provided continue parameter is too old to display a consistent list result. " +
	"You can start a new list without the continue parameter, or use the continue value from this response."

// serveList answers a LIST: one page of a snapshot.
func (s *Server) serveList(w http.ResponseWriter, r *http.Request, c *collection, namespace string) {
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	rvParam, rvm, cont := q.Get("resourceVersion"), q.Get("resourceVersionMatch"), q.Get("continue")

	s.mu.Lock()
	snapshot, start := s.rv, ""
	switch {
	case cont != "":
		tok, err := decodeContinue(cont)
		if err != nil || (rvParam != "" && rvParam != "0") || rvm != "" {
			s.mu.Unlock()
			writeStatus(w, http.StatusBadRequest, metav1.StatusReasonBadRequest, "invalid continue parameter or resourceVersion set with continue")
			return
		}
		if tok.RV < s.compacted {
			s.mu.Unlock()
			writeStatus(w, http.StatusGone, metav1.StatusReasonExpired, expiredContinue)
			return
		}
		snapshot, start = tok.RV, tok.Start
	case rvParam != "" && rvParam != "0":
		x, err := strconv.ParseInt(rvParam, 10, 64)
		if err != nil {
			s.mu.Unlock()
			writeStatus(w, http.StatusBadRequest, metav1.StatusReasonBadRequest, fmt.Sprintf("invalid resource version %q", rvParam))
			return
		}
		if x > s.rv {
			s.mu.Unlock()
			writeTooLarge(w, x, s.rv)
			return
		}
		// Exact, or the legacy form (a limit and no match), reads the
		// snapshot at x; NotOlderThan reads the newest state.
		if rvm == string(metav1.ResourceVersionMatchExact) || (rvm == "" && limit > 0) {
			if x < s.compacted {
				s.mu.Unlock()
				writeStatus(w, http.StatusGone, metav1.StatusReasonExpired, fmt.Sprintf("too old resource version: %d (%d)", x, s.compacted))
				return
			}
			snapshot = x
		}
	case rvm == string(metav1.ResourceVersionMatchExact):
		s.mu.Unlock()
		writeStatus(w, http.StatusBadRequest, metav1.StatusReasonBadRequest, "resourceVersionMatch Exact needs a resourceVersion")
		return
	}
	size := -1
	if limit > 0 {
		size = limit
		if s.opts.MaxPageSize > 0 {
			size = min(size, s.opts.MaxPageSize)
		}
	}
	page, rest := c.page(snapshot, namespace, start, size)
	s.mu.Unlock()

	var b bytes.Buffer
	b.Grow(64 + len(page)*512)
	fmt.Fprintf(&b, `{"kind":%q,"apiVersion":%q,"metadata":{"resourceVersion":"%d"`, c.res.Kind+"List", c.res.APIVersion(), snapshot)
	if rest > 0 {
		tok, _ := json.Marshal(continueToken{APIVersion: "meta.k8s.io/v1", RV: snapshot, Start: page[len(page)-1].key})
		fmt.Fprintf(&b, `,"continue":%q,"remainingItemCount":%d`, base64.RawURLEncoding.EncodeToString(tok), rest)
	}
	b.WriteString(`},"items":[`)
	for i, v := range page {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(v.raw)
	}
	b.WriteString("]}\n")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}

func decodeContinue(s string) (continueToken, error) {
	var tok continueToken
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return tok, err
	}
	err = json.Unmarshal(raw, &tok)
	return tok, err
}

// writeTooLarge is the 504 a server sends for a resource version it has
// not reached yet; client-go recognises it by its cause.
func writeTooLarge(w http.ResponseWriter, asked, current int64) {
	st := metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Code: http.StatusGatewayTimeout, Reason: metav1.StatusReasonTimeout,
		Message: fmt.Sprintf("Too large resource version: %d, current: %d", asked, current),
		Details: &metav1.StatusDetails{Causes: []metav1.StatusCause{{Type: metav1.CauseTypeResourceVersionTooLarge, Message: "Too large resource version"}}, RetryAfterSeconds: 1},
	}
	b, _ := json.Marshal(st)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusGatewayTimeout)
	_, _ = w.Write(b)
}

// aborter is implemented by the in-process transport's writer: it breaks
// the stream the way a dropped connection does.
type aborter interface{ abort() }

// serveWatch answers a WATCH: the replay or initial events, then the log
// as it grows, until the client leaves, the timeout runs out, or a
// scripted fault ends it.
func (s *Server) serveWatch(w http.ResponseWriter, r *http.Request, c *collection, namespace string) {
	q := r.URL.Query()
	rvParam := q.Get("resourceVersion")
	bookmarks := q.Get("allowWatchBookmarks") == "true"
	initialEvents := q.Get("sendInitialEvents") == "true"
	if initialEvents {
		switch {
		case s.opts.WithoutWatchList:
			writeStatus(w, http.StatusUnprocessableEntity, metav1.StatusReasonInvalid,
				"ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled")
			return
		case q.Get("resourceVersionMatch") != string(metav1.ResourceVersionMatchNotOlderThan) || !bookmarks:
			writeStatus(w, http.StatusUnprocessableEntity, metav1.StatusReasonInvalid,
				"sendInitialEvents needs resourceVersionMatch=NotOlderThan and allowWatchBookmarks=true")
			return
		}
	}
	var timeout <-chan time.Time
	if secs, err := strconv.Atoi(q.Get("timeoutSeconds")); err == nil && secs > 0 {
		t := time.NewTimer(time.Duration(secs) * time.Second)
		defer t.Stop()
		timeout = t.C
	}
	inNS := func(v *version) bool { return namespace == "" || v.namespace == namespace }

	var first bytes.Buffer
	s.mu.Lock()
	switch {
	case initialEvents || rvParam == "" || rvParam == "0":
		for _, v := range c.stateAt(s.rv) {
			if inNS(v) {
				writeFrame(&first, "ADDED", v.raw)
			}
		}
		if initialEvents {
			if f, ok := s.takeFaultLocked("bookmark"); ok {
				// The stream breaks after the initial events, before
				// the bookmark that would have ended them: what the
				// client holds of them is half a list.
				writeFrame(&first, "ERROR", statusJSON(f.Code, f.Reason, f.Message))
				s.mu.Unlock()
				s.startStream(w)
				_, _ = w.Write(first.Bytes())
				return
			}
			writeFrame(&first, "BOOKMARK", bookmarkJSON(c.res, s.rv, true))
		}
	default:
		x, err := strconv.ParseInt(rvParam, 10, 64)
		if err != nil {
			s.mu.Unlock()
			writeStatus(w, http.StatusBadRequest, metav1.StatusReasonBadRequest, fmt.Sprintf("invalid resource version %q", rvParam))
			return
		}
		if x < s.compacted {
			writeFrame(&first, "ERROR", statusJSON(http.StatusGone, metav1.StatusReasonExpired,
				fmt.Sprintf("too old resource version: %d (%d)", x, s.compacted)))
			s.mu.Unlock()
			s.startStream(w)
			_, _ = w.Write(first.Bytes())
			return
		}
		for _, v := range c.history {
			if v.rv > x && inNS(v) {
				writeFrame(&first, eventType(c, v), v.raw)
			}
		}
	}
	pos := len(s.log)
	s.mu.Unlock()

	s.startStream(w)
	if _, err := w.Write(first.Bytes()); err != nil {
		return
	}
	flush(w)
	for {
		s.mu.Lock()
		entries, changed := s.log[pos:], s.changed
		pos = len(s.log)
		rv := s.rv
		s.mu.Unlock()
		var b bytes.Buffer
		for _, e := range entries {
			switch e.kind {
			case entryEvent:
				if e.coll == c && inNS(e.v) {
					writeFrame(&b, e.event, e.v.raw)
				}
			case entryBookmark:
				if bookmarks {
					writeFrame(&b, "BOOKMARK", bookmarkJSON(c.res, rv, false))
				}
			case entryRaw:
				b.Write(e.raw)
			case entryError:
				writeFrame(&b, "ERROR", e.raw)
				_, _ = w.Write(b.Bytes())
				return
			case entryDrop:
				_, _ = w.Write(b.Bytes())
				flush(w)
				if a, ok := w.(aborter); ok {
					a.abort()
					return
				}
				panic(http.ErrAbortHandler)
			case entryEnd:
				_, _ = w.Write(b.Bytes())
				return
			}
		}
		if b.Len() > 0 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return
			}
			flush(w)
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		case <-timeout:
			return
		}
	}
}

// eventType tells a replayed version's event: a deletion, a creation (no
// earlier live version), or a modification.
func eventType(c *collection, v *version) string {
	if v.deleted {
		return "DELETED"
	}
	for i := len(c.history) - 1; i >= 0; i-- {
		if h := c.history[i]; h.key == v.key && h.rv < v.rv {
			if h.deleted {
				return "ADDED"
			}
			return "MODIFIED"
		}
	}
	return "ADDED"
}

func (s *Server) startStream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
}

func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// writeFrame writes one watch event the way the API server does: a JSON
// object on its own line.
func writeFrame(b *bytes.Buffer, typ string, object []byte) {
	b.WriteString(`{"type":"`)
	b.WriteString(typ)
	b.WriteString(`","object":`)
	b.Write(object)
	b.WriteString("}\n")
}

// bookmarkJSON is a bookmark's object: only the kind and the resource
// version, plus the initial-events-end annotation that closes a WatchList.
func bookmarkJSON(r Resource, rv int64, initialEventsEnd bool) []byte {
	md := map[string]any{"resourceVersion": strconv.FormatInt(rv, 10)}
	if initialEventsEnd {
		md["annotations"] = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	}
	b, _ := json.Marshal(map[string]any{"kind": r.Kind, "apiVersion": r.APIVersion(), "metadata": md})
	return b
}
