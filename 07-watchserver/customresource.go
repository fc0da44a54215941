package watchserver

import (
	"maps"
	"net/http"
	"reflect"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A custom resource is served by the same code as a ConfigMap, over a
// Resource made from its CustomResourceDefinition: its objects are
// unstructured (a map of the JSON, since no Go type exists for them),
// stored as JSON under /registry/<group>/<plural>/, with the strategy of
// kube-apiserver's generic custom resource registry:
//
//   - a create sets metadata.generation to 1 and, when the status
//     subresource is declared, drops .status (only /status writes it);
//   - an update keeps the stored generation and adds 1 when anything but
//     metadata changed (status too, unless /status is its writer), and,
//     with the subresource, keeps the stored .status whatever the body says;
//   - an update of /status keeps everything the stored object has but
//     .status (labels included), and bumps no generation;
//   - fields the structural schema does not have are pruned on every
//     write (prune.go).
//
// upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresource/strategy.go
// (customResourceStrategy.PrepareForCreate, customResourceStrategy.PrepareForUpdate),
// status_strategy.go (statusStrategy.PrepareForUpdate), etcd.go
// (NewStorage),
// k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
// (crdHandler.getOrCreateServingInfoFor), which makes one store per CRD.
type customResource struct {
	// main is the resource itself; status the same objects written
	// through /status (nil without the subresource). Both have the same
	// keys: they are two strategies over one store.
	main, status *Resource
}

// customResourceFor is the resource a CRD's storage version describes,
// and its /status.
func customResourceFor(crd *unstructured.Unstructured) (*customResource, bool) {
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	names := map[string]string{}
	for _, n := range []string{"plural", "singular", "kind", "listKind"} {
		names[n], _, _ = unstructured.NestedString(crd.Object, "spec", "names", n)
	}
	shortNames, _, _ := unstructured.NestedStringSlice(crd.Object, "spec", "names", "shortNames")
	categories, _, _ := unstructured.NestedStringSlice(crd.Object, "spec", "names", "categories")
	scope, _, _ := unstructured.NestedString(crd.Object, "spec", "scope")
	version, ok := storageVersion(crd)
	if group == "" || names["plural"] == "" || names["kind"] == "" || !ok {
		return nil, false
	}
	name, _, _ := unstructured.NestedString(version, "name")
	schema, _, _ := unstructured.NestedMap(version, "schema", "openAPIV3Schema")
	_, hasStatus, _ := unstructured.NestedMap(version, "subresources", "status")
	kind, listKind := names["kind"], names["listKind"]
	if listKind == "" {
		listKind = kind + "List"
	}
	singular := names["singular"]
	if singular == "" {
		singular = strings.ToLower(kind)
	}
	apiVersion := group + "/" + name
	res := &Resource{
		Group: group, Version: name, Name: names["plural"], Singular: singular, Kind: kind, ShortNames: shortNames, Categories: categories,
		ListKind: listKind, KeyRoot: "/registry/" + group + "/" + names["plural"] + "/", ClusterScoped: scope == "Cluster",
		NewObject: newUnstructured(apiVersion, kind),
		NewList: func() runtime.Object {
			l := &unstructured.UnstructuredList{}
			l.SetAPIVersion(apiVersion)
			l.SetKind(listKind)
			return l
		},
	}
	cr := &customResource{main: res}
	res.PrepareForCreate = func(obj runtime.Object) {
		prepareCustomCreate(obj.(*unstructured.Unstructured), hasStatus, schema)
	}
	res.PrepareForUpdate = func(obj, old runtime.Object) {
		prepareCustomUpdate(obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured), hasStatus, schema)
	}
	if hasStatus {
		res.Subresources = []string{"status"}
		res.PrepareForStatusUpdate = func(obj, old runtime.Object) {
			prepareStatusUpdate(obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured), schema)
		}
		cr.status = statusOf(res)
	}
	return cr, true
}

// newUnstructured is NewObject for a resource served as unstructured
// objects: an empty one that already knows its apiVersion and kind, as
// the apiextensions server's NewFunc makes them. A typed object gets its
// kind from the scheme when it is encoded; an unstructured one writes
// only what it holds, so without these a BOOKMARK (an empty object with
// a resourceVersion) would go out with no kind, and a typed client's
// decoder refuses it ("Object 'Kind' is missing").
func newUnstructured(apiVersion, kind string) func() runtime.Object {
	return func() runtime.Object {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion(apiVersion)
		u.SetKind(kind)
		return u
	}
}

// statusOf is res written through /status: the same objects under the
// same keys, updated with res's PrepareForStatusUpdate (for a custom
// resource, every field but .status is the stored object's, labels too,
// and no generation is bumped). It is never created through, and has no
// /status of its own.
func statusOf(res *Resource) *Resource {
	status := *res
	status.Subresources = nil
	status.PrepareForCreate = nil
	status.PrepareForUpdate = res.PrepareForStatusUpdate
	status.PrepareForStatusUpdate = nil
	return &status
}

// prepareCustomCreate is a custom resource's create strategy: generation
// 1, no status when /status is its writer, unknown fields pruned.
func prepareCustomCreate(u *unstructured.Unstructured, hasStatus bool, schema map[string]any) {
	// exercise:begin 1
	if hasStatus {
		delete(u.Object, "status")
	}
	u.SetGeneration(1)
	prune(u.Object, schema)
	// exercise:end 1
}

// prepareCustomUpdate is a custom resource's update strategy, u the
// body and o the stored object: the stored status kept when /status is
// its writer, unknown fields pruned, and the stored generation, plus 1
// when anything but metadata changed.
func prepareCustomUpdate(u, o *unstructured.Unstructured, hasStatus bool, schema map[string]any) {
	// exercise:begin 2
	if hasStatus {
		if status, ok := o.Object["status"]; ok {
			u.Object["status"] = status
		} else {
			delete(u.Object, "status")
		}
	}
	prune(u.Object, schema)
	u.SetGeneration(o.GetGeneration())
	if !reflect.DeepEqual(withoutMetadata(u.Object), withoutMetadata(o.Object)) {
		u.SetGeneration(o.GetGeneration() + 1)
	}
	// exercise:end 2
}

// prepareStatusUpdate is the strategy of /status, u the body and o the
// stored object: the stored object with the body's status (none if the
// body has none), pruned.
func prepareStatusUpdate(u, o *unstructured.Unstructured, schema map[string]any) {
	// exercise:begin 2
	newStatus, ok := u.Object["status"]
	// The client's resourceVersion is its precondition, which
	// Storage.update checks after this: it must survive the copy.
	rv := u.GetResourceVersion()
	u.Object = runtime.DeepCopyJSON(o.Object)
	u.SetResourceVersion(rv)
	if ok {
		u.Object["status"] = newStatus
	} else {
		delete(u.Object, "status")
	}
	prune(u.Object, schema)
	// exercise:end 2
}

// storageVersion is the CRD's version marked storage: true, the one this
// server serves and stores (kube-apiserver serves every served version and
// converts between them).
func storageVersion(crd *unstructured.Unstructured) (map[string]any, bool) {
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	for _, v := range versions {
		m, ok := v.(map[string]any)
		if ok && m["storage"] == true {
			return m, true
		}
	}
	return nil, false
}

// withoutMetadata is an object's content but metadata: what a change of
// bumps the generation.
func withoutMetadata(obj map[string]any) map[string]any {
	// exercise:begin 2
	c := maps.Clone(obj)
	delete(c, "metadata")
	return c
	// exercise:end 2
}

// serveCustom routes a request under /apis that no built-in route took:
// a CustomResourceDefinition's, a custom resource's, or the discovery of
// their groups. The paths are read here, not by the mux, because the
// resources come and go with their CRDs:
//
//	/apis/G                                         discovery of a group
//	/apis/G/V                                       discovery of a version
//	/apis/G/V/R                                     list or watch, every namespace; create (cluster-scoped)
//	/apis/G/V/namespaces/NS/R                       list, watch or create (namespaced)
//	/apis/G/V/[namespaces/NS/]R/NAME[/status]       get, update, patch, delete
//
// upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
// (crdHandler.ServeHTTP, crdHandler.serveResource, crdHandler.serveStatus)
func (s *Server) serveCustom(w http.ResponseWriter, r *http.Request) {
	// exercise:begin 2
	parts := strings.Split(strings.Trim(r.PathValue("path"), "/"), "/")
	if r.Method == http.MethodGet && len(parts) <= 2 {
		s.customDiscovery(w, r, parts)
		return
	}
	if len(parts) < 3 {
		http.NotFound(w, r)
		return
	}
	group, version, rest := parts[0], parts[1], parts[2:]
	ns := ""
	if rest[0] == "namespaces" && len(rest) >= 3 {
		ns, rest = rest[1], rest[2:]
	}
	var cr *customResource
	if group == CustomResourceDefinitions.Group && version == CustomResourceDefinitions.Version && rest[0] == CustomResourceDefinitions.Name {
		cr = crdResource
	} else if cr = s.lookupCustom(r.Context(), group, version, rest[0]); cr == nil {
		// No CRD serves the path: the mux's plain 404, as
		// kube-apiserver's for a group it does not serve.
		http.NotFound(w, r)
		return
	}
	res := cr.main
	// A namespaced resource's object is under its namespace; a
	// cluster-scoped one's never is.
	if len(rest) > 1 && (ns == "") != res.ClusterScoped || ns != "" && res.ClusterScoped || len(rest) > 3 {
		writeError(w, r, notFoundPath())
		return
	}
	r.SetPathValue("ns", ns)
	if len(rest) > 1 {
		r.SetPathValue("name", rest[1])
	}
	if len(rest) == 3 {
		if rest[2] != "status" || cr.status == nil {
			writeError(w, r, notFoundPath())
			return
		}
		res = cr.status
	}
	// No protobuf for these: a client that accepts JSON gets JSON.
	if protobuf, _ := wantsProtobuf(r); protobuf {
		r.Header.Set("Accept", mediaJSON)
	}
	switch {
	case len(rest) == 1 && r.Method == http.MethodGet:
		s.listOrWatch(w, r, res)
	case len(rest) == 1 && r.Method == http.MethodPost && (ns != "" || res.ClusterScoped):
		s.createCustom(w, r, res)
	case len(rest) > 1 && r.Method == http.MethodGet:
		s.get(w, r, res)
	case len(rest) > 1 && r.Method == http.MethodPut:
		s.updateCustom(w, r, res)
	case len(rest) > 1 && r.Method == http.MethodPatch:
		if pt, _ := patchTypeOf(r.Header.Get("Content-Type")); pt == types.StrategicMergePatchType {
			// Strategic merge needs a Go type's patch tags: a custom
			// resource has none.
			writeError(w, r, &apierrors.StatusError{ErrStatus: metav1.Status{
				Status: metav1.StatusFailure, Code: http.StatusUnsupportedMediaType, Reason: metav1.StatusReasonUnsupportedMediaType,
				Message: "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
			}})
			return
		}
		s.patch(w, r, res)
	case len(rest) == 2 && r.Method == http.MethodDelete && res == CustomResourceDefinitions:
		s.deleteCRD(w, r)
	case len(rest) == 2 && r.Method == http.MethodDelete:
		// A Success Status, as for a built-in.
		s.delete(w, r, res)
	default:
		writeError(w, r, &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusMethodNotAllowed, Reason: metav1.StatusReasonMethodNotAllowed,
			Message: "the server does not allow this method on the requested resource",
		}})
	}
	// exercise:end 2
}

// notFoundPath is kube-apiserver's 404 for a path nothing serves.
func notFoundPath() error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusNotFound, Reason: metav1.StatusReasonNotFound,
		Message: "the server could not find the requested resource", Details: &metav1.StatusDetails{},
	}}
}

// createCustom is create for a resource with a strategy (a CRD, a custom
// resource, a Deployment): the body in the URL's namespace (none for a
// cluster-scoped one), the resource's strategy (PrepareForCreate), the
// metadata's checks, then Storage.Create. A new CRD is then established,
// and its resource served.
//
// upstream: k8s.io/apiserver/pkg/registry/rest/create.go (BeforeCreate)
func (s *Server) createCustom(w http.ResponseWriter, r *http.Request, res *Resource) {
	// exercise:begin 1
	obj, err := readObject(r, res)
	if err == nil {
		ns, m := r.PathValue("ns"), accessor(obj)
		if m.GetNamespace() != "" && m.GetNamespace() != ns {
			err = apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
		} else {
			m.SetNamespace(ns)
			res.PrepareForCreate(obj)
			err = validateMeta(res, obj)
		}
	}
	if err == nil && res == CustomResourceDefinitions {
		err = validateCRD(obj.(*unstructured.Unstructured))
	}
	if err == nil {
		obj, err = s.storageFor(res).Create(r.Context(), obj)
	}
	if err == nil && res == CustomResourceDefinitions {
		err = s.establish(r.Context(), obj.(*unstructured.Unstructured))
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusCreated, obj)
	// exercise:end 1
}

// updateCustom is update with the resource's strategy (the resource's or
// its /status's: a custom resource's, a CRD's, a Deployment's) applied to
// the body against the stored object, inside Storage.update's
// read-modify-write.
//
// upstream: k8s.io/apiserver/pkg/registry/rest/update.go (BeforeUpdate)
func (s *Server) updateCustom(w http.ResponseWriter, r *http.Request, res *Resource) {
	// exercise:begin 2
	ns, name := r.PathValue("ns"), r.PathValue("name")
	obj, err := readObject(r, res)
	if err == nil {
		err = checkName(accessor(obj), ns, name)
	}
	if err == nil {
		accessor(obj).SetNamespace(ns)
		obj, err = s.storageFor(res).update(r.Context(), ns, name, func(cur runtime.Object) (runtime.Object, error) {
			next := obj.DeepCopyObject()
			n, c := accessor(next), accessor(cur)
			n.SetUID(c.GetUID())
			n.SetCreationTimestamp(c.GetCreationTimestamp())
			res.PrepareForUpdate(next, cur)
			return next, validateMeta(res, next)
		})
	}
	if err == nil && res == CustomResourceDefinitions {
		s.register(obj.(*unstructured.Unstructured))
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusOK, obj)
	// exercise:end 2
}

// validateMeta is validateObject for a resource that may be
// cluster-scoped: its objects have no namespace.
func validateMeta(res *Resource, obj runtime.Object) error {
	// exercise:begin 1
	m := accessor(obj)
	errs := apivalidation.ValidateObjectMetaAccessor(m, !res.ClusterScoped, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(schema.GroupKind{Group: res.Group, Kind: res.Kind}, m.GetName(), errs)
	// exercise:end 1
}
