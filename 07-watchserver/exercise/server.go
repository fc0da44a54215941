// Your copy of ../server.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"context"
	"fmt"
	"golang.org/x/net/websocket"
	"io"
	"k8s.io/apimachinery/pkg/util/httpstream/wsstream"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"example.com/walkthrough/workshop/todo"
)

// Server is a small API server for the resources in served (resource.go),
// each described by a Resource value: ConfigMaps and Events under
// /api/v1, Deployments under /apis/apps/v1, Leases under
// /apis/coordination.k8s.io/v1. For each, with ROOT its group's root and R
// its name:
//
//	GET    ROOT/R                        list or watch, every namespace
//	GET    ROOT/namespaces/{ns}/R        list or watch (?watch=true)
//	POST   ROOT/namespaces/{ns}/R        create
//	GET    ROOT/namespaces/{ns}/R/{name} get
//	PUT    ROOT/namespaces/{ns}/R/{name} update
//	PATCH  ROOT/namespaces/{ns}/R/{name} patch (patch.go)
//	DELETE ROOT/namespaces/{ns}/R/{name} delete
//	GET, PUT, PATCH ROOT/namespaces/{ns}/R/{name}/status   the status alone (Deployments)
//	GET    /api, /apis, /api/v1, /apis/G, /apis/G/V   discovery (discovery.go)
//	*      /apis/apiextensions.k8s.io/v1/customresourcedefinitions[/NAME]   CRDs (crd.go)
//	*      /apis/G/V/[namespaces/{ns}/]R[/NAME[/status]]   custom resources (customresource.go)
//	GET    /openapi/v3, /openapi/v3/api/v1, /openapi/v3/apis/G/V   OpenAPI, for kubectl apply (openapi.go)
//
// Writes go to etcd (the resource's Storage); watches and LIST at
// resourceVersion=0 are served by the resource's watch cache; other lists
// read etcd. Every handler takes the Resource its route was made for.
//
// upstream: k8s.io/apiserver/pkg/endpoints/handlers/get.go (ListResource),
// create.go (createHandler), update.go (UpdateResource), delete.go
// (DeleteResource).
type Server struct {
	// Storage and Cache are the first resource's (the one NewServer is
	// given, ConfigMaps in the tests); every other resource's are made from
	// them on first use (storageFor, cacheFor).
	Storage *Storage
	Cache   *Cache
	// MinRequestTimeout picks a watch's timeout when the client gives none
	// (kube-apiserver: --min-request-timeout, 1800s).
	MinRequestTimeout time.Duration
	mux               *http.ServeMux

	mu sync.Mutex
	// caches are the other resources' watch caches, each started by the
	// first request that needs it, and run until Close.
	caches map[*Resource]*Cache
	// custom is the custom resources served, from their CRDs (crd.go).
	custom  customRegistry
	ctx     context.Context
	cancel  context.CancelFunc
	running sync.WaitGroup
}

// NewServer wires storage and cache into a handler, with the routes of
// every served resource.
func NewServer(storage *Storage, cache *Cache) *Server {
	s := &Server{Storage: storage, Cache: cache, MinRequestTimeout: 1800 * time.Second, mux: http.NewServeMux(),
		caches: map[*Resource]*Cache{}, custom: customRegistry{resources: map[string]*customResource{}}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	for _, res := range served {
		all, ns, one := res.path(false), res.path(true), res.path(true)+"/{name}"
		create, update := s.create, s.update
		if res.PrepareForCreate != nil {
			// A built-in with a strategy (a Deployment) is written by
			// the handlers that run a custom resource's: one copy of
			// "strategy, then checks, then Storage".
			create, update = s.createCustom, s.updateCustom
		}
		s.route("GET "+all, res, s.listOrWatch)
		s.route("GET "+ns, res, s.listOrWatch)
		s.route("POST "+ns, res, create)
		s.route("GET "+one, res, s.get)
		s.route("PUT "+one, res, update)
		s.route("PATCH "+one, res, s.patch)
		s.route("DELETE "+one, res, s.delete)
		if slices.Contains(res.Subresources, "status") {
			// The same objects, through the /status strategy: what a
			// custom resource's /status is (serveCustom).
			status := statusOf(res)
			s.route("GET "+one+"/status", status, s.get)
			s.route("PUT "+one+"/status", status, s.updateCustom)
			s.route("PATCH "+one+"/status", status, s.patch)
		}
	}
	// Everything else under /apis: CRDs, custom resources and their
	// discovery, routed as they come and go (customresource.go).
	s.mux.HandleFunc("/apis/{path...}", s.serveCustom)
	s.discovery()
	s.openAPI()
	return s
}

// route serves pattern with h for res.
func (s *Server) route(pattern string, res *Resource, h func(http.ResponseWriter, *http.Request, *Resource)) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) { h(w, r, res) })
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close stops the watch caches the server started itself and waits for
// them; Storage and Cache, which it was given, are the caller's.
func (s *Server) Close() {
	s.cancel()
	s.running.Wait()
}

// storageFor is res's Storage: the server's own for its first resource,
// else one on the same etcd.
func (s *Server) storageFor(res *Resource) *Storage {
	if res == s.Storage.res {
		return s.Storage
	}
	return s.Storage.For(res)
}

// cacheFor is res's watch cache, one per resource. The first resource's
// is the server's Cache; any other is made and started by the first
// request that needs it, which waits (at most the cache's FreshnessWait)
// for its first list, as kube-apiserver's requests wait for a cacher that
// is not ready yet. kube-apiserver starts every resource's cache when it
// starts; ours only those a client asks for.
//
// upstream: k8s.io/apiserver/pkg/registry/generic/registry/storage_factory.go
// (StorageWithCacher), one cacher per resource's store.
func (s *Server) cacheFor(ctx context.Context, res *Resource) *Cache {
	if res == s.Cache.res {
		return s.Cache
	}
	s.mu.Lock()
	c, ok := s.caches[res]
	if !ok {
		c = NewCache(s.storageFor(res), s.Cache.opts)
		s.caches[res] = c
		s.running.Add(1)
		go func() {
			defer s.running.Done()
			c.Run(s.ctx)
		}()
	}
	s.mu.Unlock()
	c.awaitReady(ctx)
	return c
}

// wantsProtobuf reads the Accept header: protobuf if asked for, JSON for
// JSON, */* or nothing; ok is false for anything else (406).
func wantsProtobuf(r *http.Request) (protobuf, ok bool) {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return false, true
	}
	for _, part := range strings.Split(accept, ",") {
		mt := strings.TrimSpace(strings.Split(part, ";")[0])
		switch mt {
		case mediaProtobuf:
			return true, true
		case mediaJSON, "*/*", "application/*":
			return false, true
		}
	}
	return false, false
}

// writeObject answers with obj in the negotiated format.
func writeObject(w http.ResponseWriter, r *http.Request, code int, obj runtime.Object) {
	// Exercise 1: writeObject answers with obj in the negotiated format.
	panic(todo.Exercise("07-watchserver", 1, "writeObject"))
}

// writeError answers with err as a metav1.Status. An error that is not
// an API status is a bare 500, as kube-apiserver answers it: no reason, no
// causes, the error's text as the message.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	// Exercise 1: writeError answers with err as a metav1.Status.
	panic(todo.Exercise("07-watchserver", 1, "writeError"))
}

// readObject decodes a request body (JSON or protobuf) as an object of res.
func readObject(r *http.Request, res *Resource) (runtime.Object, error) {
	// Exercise 1: readObject decodes a request body (JSON or protobuf) as an object of res.
	panic(todo.Exercise("07-watchserver", 1, "readObject"))
}

// create writes a new object into the URL's namespace. A body that names
// another namespace is a 400; a name that is not a DNS subdomain (or no
// name) is a 422, as ObjectMeta's validation in kube-apiserver says.
func (s *Server) create(w http.ResponseWriter, r *http.Request, res *Resource) {
	// Exercise 1: create writes a new object into the URL's namespace.
	panic(todo.Exercise("07-watchserver", 1, "Server.create"))
}

// get serves a GET of one object.
func (s *Server) get(w http.ResponseWriter, r *http.Request, res *Resource) {
	// Exercise 1: get serves a GET of one object.
	panic(todo.Exercise("07-watchserver", 1, "Server.get"))
}

// update serves a PUT: replace an object, as of the resourceVersion it
// carries.
func (s *Server) update(w http.ResponseWriter, r *http.Request, res *Resource) {
	// Exercise 2: update serves a PUT: replace an object, as of the resourceVersion it carries.
	panic(todo.Exercise("07-watchserver", 2, "Server.update"))
}

// checkName refuses (400) a body that names another object than the URL,
// or another namespace: an update never renames or moves an object.
func checkName(m metav1.Object, ns, name string) error {
	// Exercise 2: checkName refuses (400) a body that names another object than the URL, or another namespace.
	panic(todo.Exercise("07-watchserver", 2, "checkName"))
}

// validateObject checks a new object's metadata as kube-apiserver does for
// a ConfigMap or a Lease: a name that is a DNS subdomain, valid labels and
// annotations. Any fault is a 422 naming the object and its group and kind.
func validateObject(res *Resource, obj runtime.Object) error {
	// Exercise 1: validateObject checks a new object's metadata as kube-apiserver does for a ConfigMap or a Lease.
	panic(todo.Exercise("07-watchserver", 1, "validateObject"))
}

// delete answers as kube-apiserver does for a resource without graceful
// deletion: a Success Status naming what was deleted.
func (s *Server) delete(w http.ResponseWriter, r *http.Request, res *Resource) {
	// Exercise 2: delete answers as kube-apiserver does for a resource without graceful deletion.
	panic(todo.Exercise("07-watchserver", 2, "Server.delete"))
}

// isWatch is ?watch= with any value but "0" and "false" in any case (so
// ?watch= and ?watch=yes both watch and ?watch=False does not, as
// apimachinery reads a query's bool in kube-apiserver).
func isWatch(q map[string][]string) bool {
	// Exercise 2: isWatch is ?watch= with any value but "0" and "false" in any case.
	panic(todo.Exercise("07-watchserver", 2, "isWatch"))
}

// listOptionsKind names the options in a 422, as kube-apiserver does.
var listOptionsKind = schema.GroupKind{Group: "meta.k8s.io", Kind: "ListOptions"}

// validate checks the option combinations kube-apiserver refuses, and
// collects every fault into one 422. A list's resourceVersionMatch needs a
// resourceVersion, no continue token, one of the two known values, and
// not Exact at "0" (any version is not an exact one); a watch's is
// NotOlderThan, and only beside sendInitialEvents.
func validate(watching bool, rv, rvMatch, cont string, sendInitial *bool) error {
	// Exercise 2: validate checks the option combinations kube-apiserver refuses.
	panic(todo.Exercise("07-watchserver", 2, "validate"))
}

// listOrWatch serves a GET of a collection: a LIST, or a WATCH with
// ?watch=true, after validating the options.
func (s *Server) listOrWatch(w http.ResponseWriter, r *http.Request, res *Resource) {
	// Exercise 2: listOrWatch serves a GET of a collection.
	panic(todo.Exercise("07-watchserver", 2, "Server.listOrWatch"))
}

// selectedNamespace is the namespace a field selector
// metadata.namespace=NAME confines a request to ("" if none): a LIST or
// watch of every namespace then reads that namespace only, as
// kube-apiserver's registry narrows the key (a name that is not a valid
// namespace name narrows nothing).
func selectedNamespace(s Selector) string {
	// Exercise 2: selectedNamespace is the namespace a field selector metadata.namespace=NAME confines a request to.
	panic(todo.Exercise("07-watchserver", 2, "selectedNamespace"))
}

// serveWatch opens a watch on the cache and streams it: media type, timeout,
// the cache's watcher, then the WatchServer.
func (s *Server) serveWatch(w http.ResponseWriter, r *http.Request, res *Resource, ns, rv string, sendInitial *bool, sel Selector) {
	q := r.URL.Query()
	protobuf, ok := wantsProtobuf(r)
	if !ok {
		writeError(w, r, &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusNotAcceptable, Reason: metav1.StatusReasonNotAcceptable,
			Message: "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch",
		}})
		return
	}
	timeoutSeconds, _ := strconv.ParseInt(q.Get("timeoutSeconds"), 10, 64)
	timeout := watchTimeout(timeoutSeconds, s.MinRequestTimeout)
	// The watch's start (a wait for freshness included) runs on the
	// client's context: the timeout counts the stream only, so a start that
	// fails after it still reaches the client as its ERROR event.
	watcher, err := s.cacheFor(r.Context(), res).Watch(r.Context(), WatchOptions{
		Namespace: ns, ResourceVersion: rv, SendInitialEvents: sendInitial,
		AllowBookmarks: q.Get("allowWatchBookmarks") == "true", Selector: sel,
		Deadline: time.Now().Add(timeout),
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	ws := &WatchServer{Watcher: watcher, Protobuf: protobuf, Timeout: timeout}
	if wsstream.IsWebSocketRequest(r) {
		w.Header().Set("Content-Type", watchMediaType(protobuf))
		websocket.Handler(ws.ServeWebSocket).ServeHTTP(w, r.WithContext(ctx))
		return
	}
	ws.ServeHTTP(w, r.WithContext(ctx))
}

// list serves resourceVersion=0 from the cache and everything else from
// etcd (a consistent read, in pages when the client asks), keeping only
// what the selector selects. A continue token carries its own revision:
// it is read first, and a resourceVersion beside it is refused. A
// resourceVersion that is not a number is a 400. An Exact read, or a
// paged one at a past version with no match (the legacy rule), reads etcd
// at that revision.
func (s *Server) list(w http.ResponseWriter, r *http.Request, res *Resource, ns, rv, rvMatch string, page PageOptions) {
	// Exercise 2: list serves resourceVersion=0 from the cache and everything else from etcd.
	panic(todo.Exercise("07-watchserver", 2, "Server.list"))
}

// awaitRevision waits, as a LIST at a resourceVersion does in
// kube-apiserver, until etcd has reached revision rv: at most the cache's
// FreshnessWait, then a 504 "Too large resource version" with the
// revision it had. kube-apiserver waits for its watch cache; here etcd
// answers, so a LIST needs no running cache (the cache trails etcd by
// moments, and a version a client has seen is one etcd has).
func (s *Server) awaitRevision(ctx context.Context, res *Resource, rv int64) error {
	// Exercise 2: awaitRevision waits, as a LIST at a resourceVersion does in kube-apiserver.
	panic(todo.Exercise("07-watchserver", 2, "Server.awaitRevision"))
}

// keepSelected drops from list the items sel does not select.
func keepSelected(list runtime.Object, sel Selector) error {
	items, err := meta.ExtractList(list)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	items = slices.DeleteFunc(items, func(obj runtime.Object) bool { return !sel.Matches(obj) })
	if err := meta.SetList(list, items); err != nil {
		return apierrors.NewInternalError(err)
	}
	return nil
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Sprintf
	_ websocket.Handler
	_ = io.ReadAll
	_ = wsstream.IsWebSocketRequest
	_ = strconv.Itoa
	_ = apivalidation.ValidateObjectMetaAccessor
	_ = validation.IsDNS1123Label
	_ = field.NewPath
)
