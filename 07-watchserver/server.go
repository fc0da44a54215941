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
	// exercise:begin 1
	protobuf, _ := wantsProtobuf(r)
	enc, ct := jsonEncoder, mediaJSON
	if protobuf {
		enc, ct = protobufEncoder, mediaProtobuf
	}
	body, err := runtime.Encode(enc, obj)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(code)
	_, _ = w.Write(body)
	// exercise:end 1
}

// writeError answers with err as a metav1.Status. An error that is not
// an API status is a bare 500, as kube-apiserver answers it: no reason, no
// causes, the error's text as the message.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	// exercise:begin 1
	st := metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Message: err.Error()}
	if s, ok := err.(apierrors.APIStatus); ok {
		st = s.Status()
	}
	if st.Details != nil && st.Details.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(st.Details.RetryAfterSeconds)))
	}
	writeObject(w, r, int(st.Code), &st)
	// exercise:end 1
}

// readObject decodes a request body (JSON or protobuf) as an object of res.
func readObject(r *http.Request, res *Resource) (runtime.Object, error) {
	// exercise:begin 1
	body, err := io.ReadAll(io.LimitReader(r.Body, 3<<20))
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	obj, gvk, err := decoder.Decode(body, nil, res.NewObject())
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if gvk.Kind != res.Kind || gvk.Group != res.Group {
		return nil, apierrors.NewBadRequest("the body is not a " + res.Kind)
	}
	return obj, nil
	// exercise:end 1
}

// create writes a new object into the URL's namespace. A body that names
// another namespace is a 400; a name that is not a DNS subdomain (or no
// name) is a 422, as ObjectMeta's validation in kube-apiserver says.
func (s *Server) create(w http.ResponseWriter, r *http.Request, res *Resource) {
	// exercise:begin 1
	obj, err := readObject(r, res)
	if err == nil {
		ns, m := r.PathValue("ns"), accessor(obj)
		if m.GetNamespace() != "" && m.GetNamespace() != ns {
			err = apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
		} else {
			m.SetNamespace(ns)
			err = validateObject(res, obj)
		}
	}
	if err == nil {
		obj, err = s.storageFor(res).Create(r.Context(), obj)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusCreated, obj)
	// exercise:end 1
}

// get serves a GET of one object.
func (s *Server) get(w http.ResponseWriter, r *http.Request, res *Resource) {
	// exercise:begin 1
	obj, err := s.storageFor(res).Get(r.Context(), r.PathValue("ns"), r.PathValue("name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusOK, obj)
	// exercise:end 1
}

// update serves a PUT: replace an object, as of the resourceVersion it
// carries.
func (s *Server) update(w http.ResponseWriter, r *http.Request, res *Resource) {
	// exercise:begin 2 Update, delete and list: optimistic concurrency on ModRevision, and the checks a request must pass
	// exercise:hint Storage.update is the one read-modify-write (Update and PATCH call it): read
	//   the object, call tryUpdate, refuse a result whose resourceVersion is set and is not the one
	//   you read (409), Put with a Compare on the ModRevision you read, and retry from the read
	//   when the compare fails (Delete likewise); Update's tryUpdate returns the body. A LIST or
	//   WATCH is validated first (validate puts every fault in one 422); isWatch reads ?watch= as
	//   apimachinery reads a bool (only 0 and false, in any case, are false); a LIST at a version
	//   waits for etcd to reach it (awaitRevision), else the 504 of tooLargeResourceVersion.
	// exercise:deeper validate returns apierrors.NewInvalid(listOptionsKind, "", errs) with every
	//   fault. A list: on resourceVersionMatch, field.Forbidden "resourceVersionMatch is forbidden
	//   unless resourceVersion is provided", "resourceVersionMatch is forbidden when continue is
	//   provided", field.NotSupported(path, match, []string{"Exact", "NotOlderThan", ""}),
	//   `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`; on sendInitialEvents,
	//   "sendInitialEvents is forbidden for list". A watch: "sendInitialEvents requires setting
	//   resourceVersionMatch to NotOlderThan", and for any match "resourceVersionMatch is forbidden
	//   for watch unless sendInitialEvents is provided", field.NotSupported(path, match,
	//   []string{"NotOlderThan"}), the continue one. In list, decode a continue token first (its
	//   400), then refuse a resourceVersion beside it: "specifying resource version is not allowed
	//   when using continue"; a resourceVersion that is no number is fmt.Sprintf("invalid resource
	//   version: resourceVersion: Invalid value: %q: %v", rv, err); Exact, or limit with no match,
	//   at a version > 0 sets page.Revision. A bad limit, fmt.Sprintf("limit: %q is not a number",
	//   v). A LIST at a version > 0 first waits (awaitRevision) until CurrentRevision, a count-only
	//   Get of the prefix, reaches it, polling every 100ms for FreshnessWait at most, then returns
	//   tooLargeResourceVersion(rv, have): apierrors.NewTimeoutError(fmt.Sprintf("Too large
	//   resource version: %d, current: %d", requested, current), 1) with one cause,
	//   metav1.CauseTypeResourceVersionTooLarge, message "Too large resource version".
	// exercise:deeper The 409 is apierrors.NewConflict(s.res.GroupResource(), name,
	//   errors.New("the object has been modified; please apply your changes to the latest version
	//   and try again")). No resourceVersion where !s.res.UnconditionalUpdate (a Lease) is a 422:
	//   apierrors.NewInvalid(schema.GroupKind{Group: s.res.Group, Kind: s.res.Name}, name,
	//   field.ErrorList{field.Invalid(metadata.resourceVersion, want, "must be specified for an
	//   update")}). Update
	//   keeps uid and creationTimestamp from the stored object; update skips the write (same
	//   resourceVersion, no watch event) when the bytes would not change, and puts with
	//   s.putOptions(ctx) (an Event's lease, as Create does). A body naming another
	//   object is a 400, fmt.Sprintf("the name of the object (%s) does not match the name on the
	//   URL (%s)", body, url) (checkName); a resourceVersion that is no number fails
	//   strconv.ParseUint, a plain error (a bare 500). It also covers Storage.update, Delete and
	//   List (the list's version is the header revision), and the update/delete/list handlers with
	//   validate, checkName, isWatch and selectedNamespace (fieldSelector=metadata.namespace=B on
	//   every namespace reads B only, when B is a DNS label).
	// exercise:deeper A custom resource's requests reach serveCustom, which reads
	//   /apis/G/V/[namespaces/NS/]R[/NAME[/status]] itself (the resources come and go with their
	//   CRDs): http.NotFound when no CRD serves R, the path values set, JSON whatever the Accept,
	//   then the same handlers, but updateCustom for PUT, createCustom for POST and deleteCRD for a
	//   CRD's DELETE; a strategic merge patch is a 415. updateCustom is Update with
	//   res.PrepareForUpdate called in tryUpdate: prepareCustomUpdate keeps the stored .status when
	//   /status is its writer, prunes, and keeps the stored generation, plus 1 when anything but
	//   metadata changed (withoutMetadata, compared with reflect.DeepEqual); prepareStatusUpdate,
	//   the /status strategy, keeps everything stored but .status (labels too) and bumps nothing,
	//   but keeps the body's resourceVersion, the client's precondition.
	// exercise:deeper A Deployment is written by createCustom and updateCustom too (NewServer
	//   routes a built-in with a strategy there), its /status by updateCustom and patch over
	//   statusOf(Deployments). prepareDeploymentUpdate defaults the body (defaultDeployment),
	//   keeps the stored status and generation, plus 1 when the spec or the annotations differ
	//   (apiequality.Semantic.DeepEqual: a nil map and an empty one are equal);
	//   prepareDeploymentStatusUpdate keeps the stored spec, labels and generation.
	obj, err := readObject(r, res)
	if err == nil {
		err = checkName(accessor(obj), r.PathValue("ns"), r.PathValue("name"))
	}
	if err == nil {
		accessor(obj).SetNamespace(r.PathValue("ns"))
		obj, err = s.storageFor(res).Update(r.Context(), obj)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusOK, obj)
	// exercise:end 2
}

// checkName refuses (400) a body that names another object than the URL,
// or another namespace: an update never renames or moves an object.
func checkName(m metav1.Object, ns, name string) error {
	// exercise:begin 2
	if m.GetName() != name {
		return apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", m.GetName(), name))
	}
	if m.GetNamespace() != "" && m.GetNamespace() != ns {
		return apierrors.NewBadRequest(fmt.Sprintf("the namespace of the object (%s) does not match the namespace on the request (%s)", m.GetNamespace(), ns))
	}
	return nil
	// exercise:end 2
}

// validateObject checks a new object's metadata as kube-apiserver does for
// a ConfigMap or a Lease: a name that is a DNS subdomain, valid labels and
// annotations. Any fault is a 422 naming the object and its group and kind.
func validateObject(res *Resource, obj runtime.Object) error {
	// exercise:begin 1
	m := accessor(obj)
	errs := apivalidation.ValidateObjectMetaAccessor(m, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(schema.GroupKind{Group: res.Group, Kind: res.Kind}, m.GetName(), errs)
	// exercise:end 1
}

// delete answers as kube-apiserver does for a resource without graceful
// deletion: a Success Status naming what was deleted.
func (s *Server) delete(w http.ResponseWriter, r *http.Request, res *Resource) {
	// exercise:begin 2
	obj, err := s.storageFor(res).Delete(r.Context(), r.PathValue("ns"), r.PathValue("name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	m := accessor(obj)
	writeObject(w, r, http.StatusOK, &metav1.Status{
		Status:  metav1.StatusSuccess,
		Details: &metav1.StatusDetails{Name: m.GetName(), Group: res.Group, Kind: res.Name, UID: m.GetUID()},
	})
	// exercise:end 2
}

// isWatch is ?watch= with any value but "0" and "false" in any case (so
// ?watch= and ?watch=yes both watch and ?watch=False does not, as
// apimachinery reads a query's bool in kube-apiserver).
func isWatch(q map[string][]string) bool {
	// exercise:begin 2
	v, ok := q["watch"]
	if !ok {
		return false
	}
	s := strings.ToLower(v[0])
	return s != "0" && s != "false"
	// exercise:end 2
}

// listOptionsKind names the options in a 422, as kube-apiserver does.
var listOptionsKind = schema.GroupKind{Group: "meta.k8s.io", Kind: "ListOptions"}

// validate checks the option combinations kube-apiserver refuses, and
// collects every fault into one 422. A list's resourceVersionMatch needs a
// resourceVersion, no continue token, one of the two known values, and
// not Exact at "0" (any version is not an exact one); a watch's is
// NotOlderThan, and only beside sendInitialEvents.
func validate(watching bool, rv, rvMatch, cont string, sendInitial *bool) error {
	// exercise:begin 2
	var errs field.ErrorList
	match := field.NewPath("resourceVersionMatch")
	notOlder, exact := string(metav1.ResourceVersionMatchNotOlderThan), string(metav1.ResourceVersionMatchExact)
	if watching {
		if sendInitial != nil && rvMatch != notOlder {
			errs = append(errs, field.Forbidden(match, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"))
		}
		if rvMatch != "" {
			if sendInitial == nil {
				errs = append(errs, field.Forbidden(match, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
			}
			if rvMatch != notOlder {
				errs = append(errs, field.NotSupported(match, rvMatch, []string{notOlder}))
			}
			if cont != "" {
				errs = append(errs, field.Forbidden(match, "resourceVersionMatch is forbidden when continue is provided"))
			}
		}
	} else {
		if rvMatch != "" {
			if rv == "" {
				errs = append(errs, field.Forbidden(match, "resourceVersionMatch is forbidden unless resourceVersion is provided"))
			}
			if cont != "" {
				errs = append(errs, field.Forbidden(match, "resourceVersionMatch is forbidden when continue is provided"))
			}
			if rvMatch != exact && rvMatch != notOlder {
				errs = append(errs, field.NotSupported(match, rvMatch, []string{exact, notOlder, ""}))
			}
			if rvMatch == exact && rv == "0" {
				errs = append(errs, field.Forbidden(match, `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`))
			}
		}
		if sendInitial != nil {
			errs = append(errs, field.Forbidden(field.NewPath("sendInitialEvents"), "sendInitialEvents is forbidden for list"))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(listOptionsKind, "", errs)
	// exercise:end 2
}

// listOrWatch serves a GET of a collection: a LIST, or a WATCH with
// ?watch=true, after validating the options.
func (s *Server) listOrWatch(w http.ResponseWriter, r *http.Request, res *Resource) {
	// exercise:begin 2
	q := r.URL.Query()
	ns := r.PathValue("ns")
	rv, rvMatch := q.Get("resourceVersion"), q.Get("resourceVersionMatch")
	var sendInitial *bool
	if v := q.Get("sendInitialEvents"); v != "" {
		b := v == "true"
		sendInitial = &b
	}
	watching := isWatch(q)
	if err := validate(watching, rv, rvMatch, q.Get("continue"), sendInitial); err != nil {
		writeError(w, r, err)
		return
	}
	sel, err := ParseSelector(q)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if ns == "" {
		ns = selectedNamespace(sel)
	}
	if !watching {
		page := PageOptions{Continue: q.Get("continue"), Selector: sel}
		if v := q.Get("limit"); v != "" {
			if page.Limit, err = strconv.ParseInt(v, 10, 64); err != nil {
				writeError(w, r, apierrors.NewBadRequest(fmt.Sprintf("limit: %q is not a number", v)))
				return
			}
		}
		s.list(w, r, res, ns, rv, rvMatch, page)
		return
	}
	s.serveWatch(w, r, res, ns, rv, sendInitial, sel)
	// exercise:end 2
}

// selectedNamespace is the namespace a field selector
// metadata.namespace=NAME confines a request to ("" if none): a LIST or
// watch of every namespace then reads that namespace only, as
// kube-apiserver's registry narrows the key (a name that is not a valid
// namespace name narrows nothing).
func selectedNamespace(s Selector) string {
	// exercise:begin 2
	if s.Fields == nil {
		return ""
	}
	ns, ok := s.Fields.RequiresExactMatch("metadata.namespace")
	if !ok || len(validation.IsDNS1123Label(ns)) > 0 {
		return ""
	}
	return ns
	// exercise:end 2
}

// serveWatch opens a watch on the cache and streams it: media type, timeout,
// the cache's watcher, then the WatchServer.
func (s *Server) serveWatch(w http.ResponseWriter, r *http.Request, res *Resource, ns, rv string, sendInitial *bool, sel Selector) {
	// exercise:begin 10 Stream frames: headers first, flush when no event waits, end cleanly
	// exercise:hint Check the writer is an http.Flusher (else 500). Set Content-Type and
	//   Transfer-Encoding: chunked, write 200 and flush. Then loop: select on the request's
	//   context, a timer of s.Timeout, and the watcher's channel; write each frame, and flush when
	//   no further event waits in the channel (len of it is 0), so a burst leaves in a few writes.
	// exercise:deeper The 406's message is "only the following media types are accepted:
	//   application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch".
	// exercise:deeper Content-Type is "application/json" for JSON (no ;stream=watch) and
	//   "application/vnd.kubernetes.protobuf;stream=watch" for protobuf. A closed channel or a
	//   failed write ends the handler with a plain return: that is the clean end. Stop the watcher
	//   when you return (defer). It also covers serveWatch (406, timeout, Cache.Watch, then the
	//   WatchServer), watchTimeout and watchMediaType.
	// exercise:track deep
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
	// exercise:end 10
}

// list serves resourceVersion=0 from the cache and everything else from
// etcd (a consistent read, in pages when the client asks), keeping only
// what the selector selects. A continue token carries its own revision:
// it is read first, and a resourceVersion beside it is refused. A
// resourceVersion that is not a number is a 400. An Exact read, or a
// paged one at a past version with no match (the legacy rule), reads etcd
// at that revision.
func (s *Server) list(w http.ResponseWriter, r *http.Request, res *Resource, ns, rv, rvMatch string, page PageOptions) {
	// exercise:begin 2
	if page.Continue != "" {
		if _, _, err := decodeContinue(page.Continue, res.keyPrefix(ns)); err != nil {
			writeError(w, r, err)
			return
		}
		if rv != "" && rv != "0" {
			writeError(w, r, apierrors.NewBadRequest("specifying resource version is not allowed when using continue"))
			return
		}
	} else if rv != "" {
		n, err := strconv.ParseUint(rv, 10, 64)
		if err != nil {
			writeError(w, r, apierrors.NewBadRequest(fmt.Sprintf("invalid resource version: resourceVersion: Invalid value: %q: %v", rv, err)))
			return
		}
		if n > 0 {
			if err := s.awaitRevision(r.Context(), res, int64(n)); err != nil {
				writeError(w, r, err)
				return
			}
			if rvMatch == string(metav1.ResourceVersionMatchExact) || rvMatch == "" && page.Limit > 0 {
				page.Revision = int64(n)
			}
		}
	}
	var list runtime.Object
	var err error
	if rv == "0" && page.Continue == "" {
		list, err = s.cacheFor(r.Context(), res).List(ns)
		if err == nil {
			err = keepSelected(list, page.Selector)
		}
	} else {
		list, err = s.storageFor(res).List(r.Context(), ns, page)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusOK, list)
	// exercise:end 2
}

// awaitRevision waits, as a LIST at a resourceVersion does in
// kube-apiserver, until etcd has reached revision rv: at most the cache's
// FreshnessWait, then a 504 "Too large resource version" with the
// revision it had. kube-apiserver waits for its watch cache; here etcd
// answers, so a LIST needs no running cache (the cache trails etcd by
// moments, and a version a client has seen is one etcd has).
func (s *Server) awaitRevision(ctx context.Context, res *Resource, rv int64) error {
	// exercise:begin 2
	deadline := time.Now().Add(s.Cache.opts.FreshnessWait)
	for {
		have, err := s.storageFor(res).CurrentRevision(ctx)
		if err != nil || have >= rv {
			return err
		}
		if time.Now().After(deadline) {
			return tooLargeResourceVersion(rv, have)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	// exercise:end 2
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
