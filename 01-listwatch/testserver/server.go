package testserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

// Resource names one kind of object the server serves.
type Resource struct {
	Group, Version string
	Resource       string // plural, as in the path: "pods"
	Kind           string // "Pod"; lists are Kind+"List"
	Namespaced     bool
}

// The resources most tests need.
var (
	Pods       = Resource{Version: "v1", Resource: "pods", Kind: "Pod", Namespaced: true}
	ConfigMaps = Resource{Version: "v1", Resource: "configmaps", Kind: "ConfigMap", Namespaced: true}
)

// APIVersion is the object's apiVersion: "v1" or "group/version".
func (r Resource) APIVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// Path is the collection path, across all namespaces when namespace is "".
func (r Resource) Path(namespace string) string {
	p := "/api/" + r.Version
	if r.Group != "" {
		p = "/apis/" + r.Group + "/" + r.Version
	}
	if namespace != "" {
		p += "/namespaces/" + namespace
	}
	return p + "/" + r.Resource
}

func (r Resource) id() string { return r.Group + "/" + r.Version + "/" + r.Resource }

// Options shape a server.
type Options struct {
	// MaxPageSize caps a page when the client asks for a limit, as a
	// server may ("the server may return fewer items"); 0 honours limit.
	MaxPageSize int
	// WithoutWatchList makes the server refuse sendInitialEvents with
	// 422 Invalid, like a server whose WatchList feature is off.
	WithoutWatchList bool
	// OnRequest sees every request as it arrives, before it is served.
	OnRequest func(Request)
}

// Request is one request the server received.
type Request struct {
	Method, Path string
	Query        url.Values
}

// String writes the request as "GET /path?k=v&..." with the query sorted.
// timeoutSeconds becomes "300..599" when it lies in the window client-go
// draws a watch timeout from ([300s, 600s)), and timeout likewise, so a
// recorded trace does not depend on the random draw.
func (r Request) String() string {
	q := url.Values{}
	for k, vs := range r.Query {
		q[k] = append([]string(nil), vs...)
	}
	if v, err := strconv.Atoi(q.Get("timeoutSeconds")); err == nil && v >= 300 && v < 600 {
		q.Set("timeoutSeconds", "300..599")
	}
	if q.Has("timeout") {
		q.Set("timeout", "(set)")
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		for _, v := range q[k] {
			parts = append(parts, k+"="+v)
		}
	}
	s := r.Method + " " + r.Path
	if len(parts) > 0 {
		s += "?" + strings.Join(parts, "&")
	}
	return s
}

// Server is a scripted API server. All methods are safe for concurrent
// use; it implements http.Handler.
type Server struct {
	opts Options

	mu        sync.Mutex
	rv        int64                  // the last resource version handed out
	compacted int64                  // history at or below this is gone (0: none)
	resources map[string]*collection // by Resource.id
	// log is what open watches play after their start: events, bookmarks,
	// raw bytes, drops. A watch remembers its position in it.
	log     []entry
	changed chan struct{} // closed and replaced whenever log grows
	faults  []Fault
}

// New makes an empty server.
func New(opts Options) *Server {
	return &Server{opts: opts, resources: map[string]*collection{}, changed: make(chan struct{})}
}

// Collection is one resource's objects on a server.
type Collection struct {
	s *Server
	c *collection
}

// Serve starts serving a resource and returns a handle to write its objects.
func (s *Server) Serve(r Resource) *Collection {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.resources[r.id()]
	if !ok {
		c = &collection{res: r, current: map[string]*version{}}
		s.resources[r.id()] = c
	}
	return &Collection{s: s, c: c}
}

// ResourceVersion is the server's latest resource version.
func (s *Server) ResourceVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strconv.FormatInt(s.rv, 10)
}

// Compact forgets the history up to the current resource version: a
// watch or an exact list from an older one, or a continue token issued
// before, now gets 410 Expired. It returns the compaction point.
func (s *Server) Compact() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compacted = s.rv
	return strconv.FormatInt(s.rv, 10)
}

// Bookmark sends every open watch that allows bookmarks a BOOKMARK at the
// current resource version.
func (s *Server) Bookmark() { s.appendLog(entry{kind: entryBookmark}) }

// SendRaw writes b, as is, into every open watch stream: malformed or
// truncated frames, unknown event types, anything.
func (s *Server) SendRaw(b []byte) { s.appendLog(entry{kind: entryRaw, raw: b}) }

// SendError writes an ERROR frame carrying a Status with this code,
// reason and message into every open watch, then ends it, as the API
// server does when a watch cannot go on.
func (s *Server) SendError(code int32, reason metav1.StatusReason, message string) {
	s.appendLog(entry{kind: entryError, raw: statusJSON(code, reason, message)})
}

// DropWatches breaks every open watch connection mid-stream: the client
// reads an unexpected EOF.
func (s *Server) DropWatches() { s.appendLog(entry{kind: entryDrop}) }

// EndWatches closes every open watch cleanly, as a server does when the
// watch's timeout runs out.
func (s *Server) EndWatches() { s.appendLog(entry{kind: entryEnd}) }

// Fault is an error response for the next request of a verb.
type Fault struct {
	// Verb is "list" (any LIST page), "continue" (only a LIST page
	// after the first, which carries a continue token), "watch", or
	// "bookmark": a streaming list (sendInitialEvents) sends its initial
	// events, then an ERROR frame with the Status instead of its bookmark.
	Verb    string
	Code    int32 // the HTTP status
	Reason  metav1.StatusReason
	Message string
	// Body, when set, is sent instead of a JSON Status: a proxy's HTML
	// error page, say.
	Body string
	// RetryAfter, when set, is sent as the Retry-After header: how many
	// seconds the client should wait before it asks again.
	RetryAfter string
	// Reset sends no answer at all: the connection is reset before the
	// response, as when the API server goes away mid-restart. Code and the
	// rest are ignored.
	Reset bool
}

// FailNext makes the next request of f.Verb fail with f. Faults queue up.
func (s *Server) FailNext(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f)
}

// Transport is an http.RoundTripper that serves requests in process,
// through an io.Pipe, with no socket: inside a testing/synctest bubble a
// client blocked reading a watch is durably blocked.
func (s *Server) Transport() http.RoundTripper { return &pipeTransport{h: s} }

// Host is the address in-process clients use; any host reaches the server
// through Transport.
const Host = "http://testserver.invalid"

// RESTConfig is a client-go configuration that reaches the server in
// process, with client-side rate limiting off.
func (s *Server) RESTConfig() *rest.Config {
	return &rest.Config{Host: Host, Transport: s.Transport(), QPS: -1}
}

// HTTPClient is a plain net/http client that reaches the server in process.
func (s *Server) HTTPClient() *http.Client { return &http.Client{Transport: s.Transport()} }

// Listen serves over a real loopback socket. Close the result when done.
func (s *Server) Listen() *httptest.Server { return httptest.NewServer(s) }

func (s *Server) appendLog(e entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.appendLogLocked(e)
}

func (s *Server) appendLogLocked(e entry) {
	s.log = append(s.log, e)
	close(s.changed)
	s.changed = make(chan struct{})
}

// --- objects ---------------------------------------------------------------

// version is one state of one object: what a write left behind.
type version struct {
	key, namespace string
	rv             int64
	raw            []byte // the object's JSON, resourceVersion included
	deleted        bool
}

// collection holds one resource's history and current state.
type collection struct {
	res     Resource
	history []*version          // every write, in resource-version order
	current map[string]*version // live objects by key
	sorted  []string            // keys of current in order; nil when stale
}

type entryKind int

const (
	entryEvent entryKind = iota
	entryBookmark
	entryRaw
	entryError
	entryDrop
	entryEnd
)

type entry struct {
	kind  entryKind
	coll  *collection // entryEvent
	event string      // ADDED, MODIFIED, DELETED
	v     *version
	raw   []byte
}

// Create adds an object (anything that marshals to an object with
// metadata.name) at the next resource version and returns that version.
func (c *Collection) Create(obj any) (string, error) { return c.write(obj, "ADDED") }

// Update replaces an existing object at the next resource version.
func (c *Collection) Update(obj any) (string, error) { return c.write(obj, "MODIFIED") }

// Delete removes an object; its DELETED event carries the last state at
// the deletion's resource version.
func (c *Collection) Delete(namespace, name string) (string, error) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	key := objectKey(namespace, name)
	old, ok := c.c.current[key]
	if !ok {
		return "", fmt.Errorf("%s %q not found", c.c.res.Resource, key)
	}
	s.rv++
	m := map[string]any{}
	if err := json.Unmarshal(old.raw, &m); err != nil {
		return "", err
	}
	raw, err := c.encode(m, s.rv)
	if err != nil {
		return "", err
	}
	v := &version{key: key, namespace: namespace, rv: s.rv, raw: raw, deleted: true}
	c.c.history = append(c.c.history, v)
	delete(c.c.current, key)
	c.c.sorted = nil
	s.appendLogLocked(entry{kind: entryEvent, coll: c.c, event: "DELETED", v: v})
	return strconv.FormatInt(s.rv, 10), nil
}

// Get returns the current JSON of an object.
func (c *Collection) Get(namespace, name string) ([]byte, bool) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	v, ok := c.c.current[objectKey(namespace, name)]
	if !ok {
		return nil, false
	}
	return v.raw, true
}

// Keys returns the current objects as "key@rv", sorted by key: what a
// client's cache should hold once it has caught up.
func (c *Collection) Keys() []string {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	var out []string
	for _, k := range c.c.keys() {
		out = append(out, fmt.Sprintf("%s@%d", k, c.c.current[k].rv))
	}
	return out
}

func (c *Collection) write(obj any, event string) (string, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return "", err
	}
	m := map[string]any{}
	if err := json.Unmarshal(data, &m); err != nil {
		return "", err
	}
	md, _ := m["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	namespace, _ := md["namespace"].(string)
	if name == "" {
		return "", fmt.Errorf("object has no metadata.name")
	}
	if c.c.res.Namespaced != (namespace != "") {
		return "", fmt.Errorf("%s %q: namespaced=%t but namespace=%q", c.c.res.Resource, name, c.c.res.Namespaced, namespace)
	}
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	key := objectKey(namespace, name)
	_, exists := c.c.current[key]
	switch {
	case event == "ADDED" && exists:
		return "", fmt.Errorf("%s %q already exists", c.c.res.Resource, key)
	case event == "MODIFIED" && !exists:
		return "", fmt.Errorf("%s %q not found", c.c.res.Resource, key)
	}
	s.rv++
	raw, err := c.encode(m, s.rv)
	if err != nil {
		return "", err
	}
	v := &version{key: key, namespace: namespace, rv: s.rv, raw: raw}
	c.c.history = append(c.c.history, v)
	c.c.current[key] = v
	if !exists {
		c.c.sorted = nil
	}
	s.appendLogLocked(entry{kind: entryEvent, coll: c.c, event: event, v: v})
	return strconv.FormatInt(s.rv, 10), nil
}

// encode sets apiVersion, kind and resourceVersion and marshals.
func (c *Collection) encode(m map[string]any, rv int64) ([]byte, error) {
	m["apiVersion"] = c.c.res.APIVersion()
	m["kind"] = c.c.res.Kind
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m["metadata"] = md
	}
	md["resourceVersion"] = strconv.FormatInt(rv, 10)
	return json.Marshal(m)
}

func objectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// keys returns the current keys in order (etcd lists in key order).
func (c *collection) keys() []string {
	if c.sorted == nil {
		c.sorted = make([]string, 0, len(c.current))
		for k := range c.current {
			c.sorted = append(c.sorted, k)
		}
		sort.Strings(c.sorted)
	}
	return c.sorted
}

// page returns up to size objects (all when size < 0) of the snapshot at
// rv, in key order, after the key start, in namespace ("" for all), and
// how many more there are.
func (c *collection) page(rv int64, namespace, start string, size int) (page []*version, rest int) {
	var all []*version
	if len(c.history) == 0 || c.history[len(c.history)-1].rv <= rv {
		// The current state: find the start in the sorted keys.
		keys := c.keys()
		i := sort.SearchStrings(keys, start)
		if i < len(keys) && keys[i] == start {
			i++
		}
		if namespace == "" {
			end := len(keys)
			if size >= 0 {
				end = min(end, i+size)
			}
			page = make([]*version, 0, end-i)
			for _, k := range keys[i:end] {
				page = append(page, c.current[k])
			}
			return page, len(keys) - end
		}
		for _, k := range keys[i:] {
			if v := c.current[k]; namespace == "" || v.namespace == namespace {
				if size >= 0 && len(page) == size {
					rest++
					continue
				}
				page = append(page, v)
			}
		}
		return page, rest
	}
	all = c.stateAt(rv)
	for _, v := range all {
		if v.key > start && (namespace == "" || v.namespace == namespace) {
			if size >= 0 && len(page) == size {
				rest++
				continue
			}
			page = append(page, v)
		}
	}
	return page, rest
}

// stateAt returns the objects as they were at rv, in key order.
func (c *collection) stateAt(rv int64) []*version {
	if len(c.history) == 0 || c.history[len(c.history)-1].rv <= rv {
		keys := c.keys()
		out := make([]*version, len(keys))
		for i, k := range keys {
			out[i] = c.current[k]
		}
		return out
	}
	state := map[string]*version{}
	for _, v := range c.history {
		if v.rv > rv {
			break
		}
		if v.deleted {
			delete(state, v.key)
		} else {
			state[v.key] = v
		}
	}
	keys := make([]string, 0, len(state))
	for k := range state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*version, len(keys))
	for i, k := range keys {
		out[i] = state[k]
	}
	return out
}

func statusJSON(code int32, reason metav1.StatusReason, message string) []byte {
	st := metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Message: message, Reason: reason, Code: code,
	}
	b, _ := json.Marshal(st)
	return b
}
