// Your copy of ../customresource.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

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

	"example.com/walkthrough/workshop/todo"
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
	// Exercise 1: prepareCustomCreate is a custom resource's create strategy.
	panic(todo.Exercise("07-watchserver", 1, "prepareCustomCreate"))
}

// prepareCustomUpdate is a custom resource's update strategy, u the
// body and o the stored object: the stored status kept when /status is
// its writer, unknown fields pruned, and the stored generation, plus 1
// when anything but metadata changed.
func prepareCustomUpdate(u, o *unstructured.Unstructured, hasStatus bool, schema map[string]any) {
	// Exercise 2: prepareCustomUpdate is a custom resource's update strategy, u the body and o the stored object.
	panic(todo.Exercise("07-watchserver", 2, "prepareCustomUpdate"))
}

// prepareStatusUpdate is the strategy of /status, u the body and o the
// stored object: the stored object with the body's status (none if the
// body has none), pruned.
func prepareStatusUpdate(u, o *unstructured.Unstructured, schema map[string]any) {
	// Exercise 2: prepareStatusUpdate is the strategy of /status, u the body and o the stored object.
	panic(todo.Exercise("07-watchserver", 2, "prepareStatusUpdate"))
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
	// Exercise 2: withoutMetadata is an object's content but metadata: what a change of bumps the generation.
	panic(todo.Exercise("07-watchserver", 2, "withoutMetadata"))
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
	// Exercise 2: serveCustom routes a request under /apis that no built-in route took.
	panic(todo.Exercise("07-watchserver", 2, "Server.serveCustom"))
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
	// Exercise 1: createCustom is create for a resource with a strategy (a CRD, a custom resource, a Deployment).
	panic(todo.Exercise("07-watchserver", 1, "Server.createCustom"))
}

// updateCustom is update with the resource's strategy (the resource's or
// its /status's: a custom resource's, a CRD's, a Deployment's) applied to
// the body against the stored object, inside Storage.update's
// read-modify-write.
//
// upstream: k8s.io/apiserver/pkg/registry/rest/update.go (BeforeUpdate)
func (s *Server) updateCustom(w http.ResponseWriter, r *http.Request, res *Resource) {
	// Exercise 2: updateCustom is update with the resource's strategy.
	panic(todo.Exercise("07-watchserver", 2, "Server.updateCustom"))
}

// validateMeta is validateObject for a resource that may be
// cluster-scoped: its objects have no namespace.
func validateMeta(res *Resource, obj runtime.Object) error {
	// Exercise 1: validateMeta is validateObject for a resource that may be cluster-scoped.
	panic(todo.Exercise("07-watchserver", 1, "validateMeta"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = maps.Clone[map[int]int, int, int]
	_ = reflect.DeepEqual
	_ = apivalidation.ValidateObjectMetaAccessor
	_ schema.GroupKind
	_ = types.StrategicMergePatchType
	_ = field.NewPath
)
