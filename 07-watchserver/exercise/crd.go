// Your copy of ../crd.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"context"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"example.com/walkthrough/workshop/todo"
)

// CustomResourceDefinitions are served as unstructured objects, like the
// custom resources they define: no apiextensions types are needed to
// read the few fields the server acts on (group, names, scope, the storage
// version's schema and subresources). They are cluster-scoped, under
// /registry/apiextensions.k8s.io/customresourcedefinitions/<name>, as
// kube-apiserver keys them.
//
// upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition/etcd.go
// (NewREST), strategy.go (strategy.PrepareForCreate)
var CustomResourceDefinitions = &Resource{
	Group: "apiextensions.k8s.io", Version: "v1", Name: "customresourcedefinitions", Singular: "customresourcedefinition",
	Kind: "CustomResourceDefinition", ListKind: "CustomResourceDefinitionList", ShortNames: []string{"crd", "crds"},
	Categories: []string{"api-extensions"},
	KeyRoot:    "/registry/apiextensions.k8s.io/customresourcedefinitions/", ClusterScoped: true,
	Subresources: []string{"status"},
	NewObject:    newUnstructured("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
	NewList: func() runtime.Object {
		l := &unstructured.UnstructuredList{}
		l.SetAPIVersion("apiextensions.k8s.io/v1")
		l.SetKind("CustomResourceDefinitionList")
		return l
	},
	PrepareForCreate: func(obj runtime.Object) {
		u := obj.(*unstructured.Unstructured)
		defaultCRD(u)
		// A new CRD's status is empty but for the version it stores:
		// the names are accepted, and the CRD established, afterwards
		// (establish), as kube-apiserver's controllers do.
		var stored []any
		if v, ok := storageVersion(u); ok {
			stored = []any{v["name"]}
		}
		u.Object["status"] = map[string]any{
			"acceptedNames":  map[string]any{"kind": "", "plural": ""},
			"conditions":     nil,
			"storedVersions": stored,
		}
		u.SetGeneration(1)
	},
	PrepareForUpdate: func(obj, old runtime.Object) {
		u, o := obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured)
		defaultCRD(u)
		u.Object["status"] = o.Object["status"]
		u.SetGeneration(o.GetGeneration())
		if !reflect.DeepEqual(u.Object["spec"], o.Object["spec"]) {
			u.SetGeneration(o.GetGeneration() + 1)
		}
	},
	// A CRD's /status has no schema to prune by.
	PrepareForStatusUpdate: func(obj, old runtime.Object) {
		prepareStatusUpdate(obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured), nil)
	},
}

// crdResource is CustomResourceDefinitions and their /status, which
// writes their status only (an operator's, or a controller's).
var crdResource = &customResource{main: CustomResourceDefinitions, status: statusOf(CustomResourceDefinitions)}

// defaultCRD fills in what kube-apiserver defaults in a CRD's spec: the
// singular name and the list kind from the kind, and no conversion.
//
// upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/defaults.go
// (SetDefaults_CustomResourceDefinitionSpec)
func defaultCRD(u *unstructured.Unstructured) {
	names, _, _ := unstructured.NestedMap(u.Object, "spec", "names")
	if names == nil {
		return
	}
	kind, _ := names["kind"].(string)
	if s, _ := names["singular"].(string); s == "" && kind != "" {
		_ = unstructured.SetNestedField(u.Object, strings.ToLower(kind), "spec", "names", "singular")
	}
	if l, _ := names["listKind"].(string); l == "" && kind != "" {
		_ = unstructured.SetNestedField(u.Object, kind+"List", "spec", "names", "listKind")
	}
	if _, ok := u.Object["spec"].(map[string]any)["conversion"]; !ok {
		_ = unstructured.SetNestedField(u.Object, map[string]any{"strategy": "None"}, "spec", "conversion")
	}
}

// validateCRD is the part of kube-apiserver's CRD validation that keeps
// this server's own invariants: the name is <plural>.<group>, and exactly
// one version is stored. A fault is a 422 naming the CRD.
//
// upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go
// (ValidateCustomResourceDefinition)
func validateCRD(u *unstructured.Unstructured) error {
	// Exercise 1: validateCRD is the part of kube-apiserver's CRD validation that keeps this server's own invariants.
	panic(todo.Exercise("07-watchserver", 1, "validateCRD"))
}

// customRegistry is what the server serves besides its built-ins: every
// established CRD's resource, by group, version and plural. It is filled
// when a CRD is created, and from etcd when a request names a resource it
// does not know (a CRD another server created, or one created before a
// restart).
//
// upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
// (crdHandler.customStorage), whose entries are made from the CRD lister.
type customRegistry struct {
	mu        sync.Mutex
	resources map[string]*customResource // group/version/plural
}

func customKey(group, version, plural string) string { return group + "/" + version + "/" + plural }

// lookup finds a custom resource, reading the CRDs from etcd once when it
// is unknown.
func (s *Server) lookupCustom(ctx context.Context, group, version, plural string) *customResource {
	key := customKey(group, version, plural)
	s.custom.mu.Lock()
	cr := s.custom.resources[key]
	s.custom.mu.Unlock()
	if cr != nil {
		return cr
	}
	s.loadCRDs(ctx)
	s.custom.mu.Lock()
	defer s.custom.mu.Unlock()
	return s.custom.resources[key]
}

// loadCRDs serves every established CRD in etcd.
func (s *Server) loadCRDs(ctx context.Context) {
	list, err := s.storageFor(CustomResourceDefinitions).List(ctx, "", PageOptions{})
	if err != nil {
		return
	}
	for _, item := range list.(*unstructured.UnstructuredList).Items {
		if established(&item) {
			s.register(&item)
		}
	}
}

// register serves the resource crd defines; an entry already there is
// kept, so its watch cache (keyed by the *Resource) stays the one in use.
func (s *Server) register(crd *unstructured.Unstructured) {
	cr, ok := customResourceFor(crd)
	if !ok {
		return
	}
	key := customKey(cr.main.Group, cr.main.Version, cr.main.Name)
	s.custom.mu.Lock()
	defer s.custom.mu.Unlock()
	if s.custom.resources[key] == nil {
		s.custom.resources[key] = cr
	}
}

// unregister stops serving the resource crd defines.
func (s *Server) unregister(crd *unstructured.Unstructured) {
	if cr, ok := customResourceFor(crd); ok {
		s.custom.mu.Lock()
		delete(s.custom.resources, customKey(cr.main.Group, cr.main.Version, cr.main.Name))
		s.custom.mu.Unlock()
	}
}

// customResources is every custom resource served, in the order of their
// keys (discovery's order).
func (s *Server) customResources() []*customResource {
	s.custom.mu.Lock()
	defer s.custom.mu.Unlock()
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range s.custom.resources {
			if !yield(k) {
				return
			}
		}
	})
	out := make([]*customResource, 0, len(keys))
	for _, k := range keys {
		out = append(out, s.custom.resources[k])
	}
	return out
}

// established says the CRD's Established condition is True.
func established(crd *unstructured.Unstructured) bool {
	conditions, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conditions {
		if m, ok := c.(map[string]any); ok && m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// establish accepts a new CRD's names and marks it Established, in one
// write of its status, then serves its resource. kube-apiserver does it in
// two controllers, each its own write, moments after the create: the
// naming controller checks that no other CRD of the group uses the names
// (this server does not check), the establishing controller marks the
// CRD Established once every API server serves it.
//
// upstream: k8s.io/apiextensions-apiserver/pkg/controller/status/naming_controller.go
// (NamingConditionController.calculateNamesAndConditions),
// k8s.io/apiextensions-apiserver/pkg/controller/establish/establishing_controller.go
// (EstablishingController.sync)
func (s *Server) establish(ctx context.Context, crd *unstructured.Unstructured) error {
	// Exercise 1: establish accepts a new CRD's names and marks it Established, in one write of its status.
	panic(todo.Exercise("07-watchserver", 1, "Server.establish"))
}

// deleteCRD deletes a CRD and, first, every object of its resource, as
// kube-apiserver's finalizer does before it lets the CRD go; it answers
// with the CRD as it was, as kube-apiserver answers a delete that a
// finalizer finishes later (200, the object).
//
// upstream: k8s.io/apiextensions-apiserver/pkg/controller/finalizer/crd_finalizer.go
// (CRDFinalizer.sync, CRDFinalizer.deleteInstances)
func (s *Server) deleteCRD(w http.ResponseWriter, r *http.Request) {
	crdStorage := s.storageFor(CustomResourceDefinitions)
	obj, err := crdStorage.Get(r.Context(), "", r.PathValue("name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	crd := obj.(*unstructured.Unstructured)
	s.unregister(crd)
	if cr, ok := customResourceFor(crd); ok {
		if _, err := crdStorage.client.Delete(r.Context(), cr.main.Prefix(), clientv3.WithPrefix()); err != nil {
			writeError(w, r, apierrors.NewInternalError(err))
			return
		}
	}
	deleted, err := crdStorage.Delete(r.Context(), "", crd.GetName())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusOK, deleted)
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = time.Now
	_ schema.GroupKind
	_ = field.Invalid
)
