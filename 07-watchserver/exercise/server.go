// Your copy of ../server.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=07` checks your work, and
// `go run ./workshop/cmd/workshop hint 07 N` gives exercise N's hint.

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
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"example.com/walkthrough/workshop/todo"
)

// Server is a small API server for one resource, ConfigMaps:
//
//	GET    /api/v1/configmaps                        list or watch, every namespace
//	GET    /api/v1/namespaces/{ns}/configmaps        list or watch (?watch=true)
//	POST   /api/v1/namespaces/{ns}/configmaps        create
//	GET    /api/v1/namespaces/{ns}/configmaps/{name} get
//	PUT    /api/v1/namespaces/{ns}/configmaps/{name} update
//	PATCH  /api/v1/namespaces/{ns}/configmaps/{name} patch (patch.go)
//	DELETE /api/v1/namespaces/{ns}/configmaps/{name} delete
//	GET    /api, /apis, /api/v1                      discovery (discovery.go)
//	GET    /openapi/v3, /openapi/v3/api/v1           OpenAPI, for kubectl apply (openapi.go)
//
// Writes go to etcd (Storage); watches and LIST at resourceVersion=0 are
// served by the watch cache; other lists read etcd.
//
// upstream: k8s.io/apiserver/pkg/endpoints/handlers/get.go (ListResource),
// create.go (createHandler), update.go (UpdateResource), delete.go
// (DeleteResource).
type Server struct {
	Storage *Storage
	Cache   *Cache
	// MinRequestTimeout picks a watch's timeout when the client gives none
	// (kube-apiserver: --min-request-timeout, 1800s).
	MinRequestTimeout time.Duration
	mux               *http.ServeMux
}

// NewServer wires storage and cache into a handler.
func NewServer(storage *Storage, cache *Cache) *Server {
	s := &Server{Storage: storage, Cache: cache, MinRequestTimeout: 1800 * time.Second, mux: http.NewServeMux()}
	s.mux.HandleFunc("GET /api/v1/configmaps", s.listOrWatch)
	s.mux.HandleFunc("GET /api/v1/namespaces/{ns}/configmaps", s.listOrWatch)
	s.mux.HandleFunc("POST /api/v1/namespaces/{ns}/configmaps", s.create)
	s.mux.HandleFunc("GET /api/v1/namespaces/{ns}/configmaps/{name}", s.get)
	s.mux.HandleFunc("PUT /api/v1/namespaces/{ns}/configmaps/{name}", s.update)
	s.mux.HandleFunc("PATCH /api/v1/namespaces/{ns}/configmaps/{name}", s.patch)
	s.mux.HandleFunc("DELETE /api/v1/namespaces/{ns}/configmaps/{name}", s.delete)
	s.discovery()
	s.openAPI()
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

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

// readConfigMap decodes a request body (JSON or protobuf).
func readConfigMap(r *http.Request) (*corev1.ConfigMap, error) {
	// Exercise 1: readConfigMap decodes a request body (JSON or protobuf).
	panic(todo.Exercise("07-watchserver", 1, "readConfigMap"))
}

// create writes a new object into the URL's namespace. A body that names
// another namespace is a 400; a name that is not a DNS subdomain (or no
// name) is a 422, as ObjectMeta's validation in kube-apiserver says.
func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	// Exercise 1: create writes a new object into the URL's namespace.
	panic(todo.Exercise("07-watchserver", 1, "Server.create"))
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	// Exercise 1: part of "Create and get: the stored encoding, the handlers, and a Txn that succeeds only if the key is absent".
	panic(todo.Exercise("07-watchserver", 1, "Server.get"))
}

func (s *Server) update(w http.ResponseWriter, r *http.Request) {
	// Exercise 2: part of "Update, delete and list: optimistic concurrency on ModRevision, and the checks a request must pass".
	panic(todo.Exercise("07-watchserver", 2, "Server.update"))
}

// checkName refuses (400) a body that names another object than the URL,
// or another namespace: an update never renames or moves an object.
func checkName(cm *corev1.ConfigMap, ns, name string) error {
	// Exercise 2: checkName refuses (400) a body that names another object than the URL, or another namespace.
	panic(todo.Exercise("07-watchserver", 2, "checkName"))
}

// validateObject checks a new object's metadata as kube-apiserver does for
// a ConfigMap: a name that is a DNS subdomain, valid labels and
// annotations. Any fault is a 422 naming the object.
func validateObject(cm *corev1.ConfigMap) error {
	// Exercise 1: validateObject checks a new object's metadata as kube-apiserver does for a ConfigMap.
	panic(todo.Exercise("07-watchserver", 1, "validateObject"))
}

// delete answers as kube-apiserver does for a resource without graceful
// deletion: a Success Status naming what was deleted.
func (s *Server) delete(w http.ResponseWriter, r *http.Request) {
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

func (s *Server) listOrWatch(w http.ResponseWriter, r *http.Request) {
	// Exercise 2: part of "Update, delete and list: optimistic concurrency on ModRevision, and the checks a request must pass".
	panic(todo.Exercise("07-watchserver", 2, "Server.listOrWatch"))
}

// selectedNamespace is the one namespace a field selector
// metadata.namespace=NAME confines a request to, "" if none: a LIST or
// watch of every namespace then reads that namespace only, as
// kube-apiserver's registry narrows the key (a name that is not a valid
// namespace name narrows nothing).
func selectedNamespace(s Selector) string {
	// Exercise 2: selectedNamespace is the one namespace a field selector metadata.namespace=NAME confines a request…
	panic(todo.Exercise("07-watchserver", 2, "selectedNamespace"))
}

// serveWatch opens a watch on the cache and streams it: media type, timeout,
// the cache's watcher, then the WatchServer.
func (s *Server) serveWatch(w http.ResponseWriter, r *http.Request, ns, rv string, sendInitial *bool, sel Selector) {
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
	watcher, err := s.Cache.Watch(r.Context(), WatchOptions{
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
func (s *Server) list(w http.ResponseWriter, r *http.Request, ns, rv, rvMatch string, page PageOptions) {
	// Exercise 2: list serves resourceVersion=0 from the cache and everything else from etcd.
	panic(todo.Exercise("07-watchserver", 2, "Server.list"))
}

// awaitRevision waits, as a LIST at a resourceVersion does in
// kube-apiserver, until etcd has reached revision rv: at most the cache's
// FreshnessWait, then a 504 "Too large resource version" with the
// revision it had. kube-apiserver waits for its watch cache; here etcd
// answers, so a LIST needs no running cache (the cache trails etcd by
// moments, and a version a client has seen is one etcd has).
func (s *Server) awaitRevision(ctx context.Context, rv int64) error {
	// Exercise 2: awaitRevision waits, as a LIST at a resourceVersion does in kube-apiserver.
	panic(todo.Exercise("07-watchserver", 2, "Server.awaitRevision"))
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
	_ = slices.DeleteFunc[[]int, int]
	_ = strconv.Itoa
	_ = apierrors.NewBadRequest
	_ = apivalidation.ValidateObjectMeta
	_ = metav1.StatusFailure
	_ = validation.IsDNS1123Label
	_ = field.NewPath
)
