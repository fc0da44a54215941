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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Server is a small API server for one resource, ConfigMaps:
//
//	GET    /api/v1/configmaps                        list or watch, every namespace
//	GET    /api/v1/namespaces/{ns}/configmaps        list or watch (?watch=true)
//	POST   /api/v1/namespaces/{ns}/configmaps        create
//	GET    /api/v1/namespaces/{ns}/configmaps/{name} get
//	PUT    /api/v1/namespaces/{ns}/configmaps/{name} update
//	DELETE /api/v1/namespaces/{ns}/configmaps/{name} delete
//
// Writes go to etcd (Storage); watches and LIST at resourceVersion=0 are
// served by the watch cache; other lists read etcd.
//
// kube-apiserver: k8s.io/apiserver/pkg/endpoints/handlers (get.go:
// ListResource, create.go, update.go, delete.go).
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
	s.mux.HandleFunc("DELETE /api/v1/namespaces/{ns}/configmaps/{name}", s.delete)
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

// writeError answers with err as a metav1.Status.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	// exercise:begin 1
	st := apierrors.NewInternalError(err).ErrStatus
	if s, ok := err.(apierrors.APIStatus); ok {
		st = s.Status()
	}
	if st.Details != nil && st.Details.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(st.Details.RetryAfterSeconds)))
	}
	writeObject(w, r, int(st.Code), &st)
	// exercise:end 1
}

// readConfigMap decodes a request body (JSON or protobuf).
func readConfigMap(r *http.Request) (*corev1.ConfigMap, error) {
	// exercise:begin 1
	body, err := io.ReadAll(io.LimitReader(r.Body, 3<<20))
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	obj, _, err := decoder.Decode(body, nil, &corev1.ConfigMap{})
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	cm, ok := obj.(*corev1.ConfigMap)
	if !ok {
		return nil, apierrors.NewBadRequest("the body is not a ConfigMap")
	}
	return cm, nil
	// exercise:end 1
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	// exercise:begin 1
	cm, err := readConfigMap(r)
	if err == nil {
		cm.Namespace = r.PathValue("ns")
		cm, err = s.Storage.Create(r.Context(), cm)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusCreated, cm)
	// exercise:end 1
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	// exercise:begin 1
	cm, err := s.Storage.Get(r.Context(), r.PathValue("ns"), r.PathValue("name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusOK, cm)
	// exercise:end 1
}

func (s *Server) update(w http.ResponseWriter, r *http.Request) {
	// exercise:begin 2 Update: optimistic concurrency on ModRevision
	// exercise:hint Read the current object; if the client's resourceVersion is set and differs, 409. Put with a Compare on the ModRevision you read, and retry from the read when the compare fails.
	// exercise:deeper validate returns apierrors.NewInvalid(listOptionsKind, "", errs), each a field.Forbidden: on sendInitialEvents, "sendInitialEvents is forbidden for list"; on resourceVersionMatch, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan" or "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided". A continue with a resourceVersion is a 400: "specifying resource version is not allowed when using continue"; a bad limit, fmt.Sprintf("limit: %q is not a number", v).
	// exercise:deeper The 409 is apierrors.NewConflict(configMaps, name, errors.New("the object has been modified; please apply your changes to the latest version and try again")). Keep uid and creationTimestamp from the stored object, and skip the write (same resourceVersion, no watch event) when the bytes would not change. It also covers Delete and List (the list's version is the header revision), and the update/delete/list handlers with validate and isWatch.
	cm, err := readConfigMap(r)
	if err == nil {
		cm.Namespace, cm.Name = r.PathValue("ns"), r.PathValue("name")
		cm, err = s.Storage.Update(r.Context(), cm)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusOK, cm)
	// exercise:end 2
}

// delete answers as kube-apiserver does for a resource without graceful
// deletion: a Success Status naming what was deleted.
func (s *Server) delete(w http.ResponseWriter, r *http.Request) {
	// exercise:begin 2
	cm, err := s.Storage.Delete(r.Context(), r.PathValue("ns"), r.PathValue("name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusOK, &metav1.Status{
		Status:  metav1.StatusSuccess,
		Details: &metav1.StatusDetails{Name: cm.Name, Kind: "configmaps", UID: cm.UID},
	})
	// exercise:end 2
}

// isWatch is ?watch= with any value but "0" and "false" (so ?watch= and
// ?watch=yes both watch, as in kube-apiserver).
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

// validate checks the option combinations kube-apiserver refuses.
func validate(watching bool, rv, rvMatch string, sendInitial *bool) error {
	// exercise:begin 2
	var errs field.ErrorList
	if sendInitial != nil {
		if !watching {
			errs = append(errs, field.Forbidden(field.NewPath("sendInitialEvents"), "sendInitialEvents is forbidden for list"))
		} else if rvMatch != string(metav1.ResourceVersionMatchNotOlderThan) {
			errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"))
		}
	} else if watching && rvMatch != "" {
		errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
	}
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(listOptionsKind, "", errs)
	// exercise:end 2
}

func (s *Server) listOrWatch(w http.ResponseWriter, r *http.Request) {
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
	if err := validate(watching, rv, rvMatch, sendInitial); err != nil {
		writeError(w, r, err)
		return
	}
	sel, err := ParseSelector(q)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if !watching {
		page := PageOptions{Continue: q.Get("continue"), Selector: sel}
		if v := q.Get("limit"); v != "" {
			if page.Limit, err = strconv.ParseInt(v, 10, 64); err != nil {
				writeError(w, r, apierrors.NewBadRequest(fmt.Sprintf("limit: %q is not a number", v)))
				return
			}
		}
		s.list(w, r, ns, rv, page)
		return
	}
	s.serveWatch(w, r, ns, rv, sendInitial, sel)
	// exercise:end 2
}

// serveWatch opens a watch on the cache and streams it: media type, timeout,
// the cache's watcher, then the WatchServer.
func (s *Server) serveWatch(w http.ResponseWriter, r *http.Request, ns, rv string, sendInitial *bool, sel Selector) {
	// exercise:begin 10 Stream frames: headers first, flush every event, end cleanly
	// exercise:hint Check the writer is an http.Flusher (else 500). Set Content-Type and Transfer-Encoding: chunked, write 200 and flush. Then loop: select on the request's context, a timer of s.Timeout, and the watcher's channel; write and flush each frame.
	// exercise:deeper The 406's message is "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch".
	// exercise:deeper Content-Type is "application/json" for JSON (no ;stream=watch) and "application/vnd.kubernetes.protobuf;stream=watch" for protobuf. A closed channel or a failed write ends the handler with a plain return: that is the clean end. Stop the watcher when you return (defer). It also covers serveWatch (406, timeout, Cache.Watch, then the WatchServer) and watchTimeout.
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
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	watcher, err := s.Cache.Watch(ctx, WatchOptions{
		Namespace: ns, ResourceVersion: rv, SendInitialEvents: sendInitial,
		AllowBookmarks: q.Get("allowWatchBookmarks") == "true", Selector: sel,
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
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
// what the selector selects. A continue token carries its own revision,
// so a resourceVersion beside it is refused.
func (s *Server) list(w http.ResponseWriter, r *http.Request, ns, rv string, page PageOptions) {
	// exercise:begin 2
	if page.Continue != "" && rv != "" && rv != "0" {
		writeError(w, r, apierrors.NewBadRequest("specifying resource version is not allowed when using continue"))
		return
	}
	var list *corev1.ConfigMapList
	var err error
	if rv == "0" && page.Continue == "" {
		list, err = s.Cache.List(ns)
		if err == nil {
			list.Items = slices.DeleteFunc(list.Items, func(cm corev1.ConfigMap) bool { return !page.Selector.Matches(&cm) })
		}
	} else {
		list, err = s.Storage.List(r.Context(), ns, page)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusOK, list)
	// exercise:end 2
}
