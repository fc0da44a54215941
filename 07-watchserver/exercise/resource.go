// Your copy of ../resource.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Resource is what the server knows of one kind of object, as a value:
// its names (for URLs, discovery and the errors that name it), how to make
// an empty object and an empty list of it (for decoding), and where its
// objects live in etcd. Storage, the watch cache, the codec, selectors,
// PATCH and the routes all read it, and none names a type: serving another
// resource is one more value, not one more copy of the code.
//
// UnconditionalUpdate is the one rule of a resource's strategy kept here
// (AllowUnconditionalUpdate): a strategy's defaults and validation of the
// object's own fields are not (see docs/07's "How kube-apiserver differs").
// TTL is the registry's time to live (TTLFunc): an Event's key is written
// on an etcd lease, and etcd deletes it when the lease runs out (ttl.go).
//
// A built-in resource is namespaced: /registry/<resource>/<namespace>/<name>,
// as kube-apiserver keys them (without the group: a Lease is under
// /registry/leases/, not /registry/coordination.k8s.io/leases/, a
// Deployment under /registry/deployments/). A
// CustomResourceDefinition and the custom resources it defines are
// described by values made at run time (crd.go, customresource.go): their
// keys start with their group, /registry/<group>/<resource>/, and a
// cluster-scoped one has no namespace in its key.
//
// upstream: k8s.io/apiserver/pkg/registry/generic/registry/store.go
// (Store.NewFunc, Store.NewListFunc, Store.DefaultQualifiedResource,
// Store.SingularQualifiedResource, Store.KeyRootFunc, Store.KeyFunc,
// Store.UpdateStrategy, Store.TTLFunc), the fields of the generic registry
// that tell one resource from another.
type Resource struct {
	// Group and Version are the API group ("" for the core group) and
	// the version served and stored.
	Group, Version string
	// Name is the plural in URLs and errors (configmaps); Singular and
	// ShortNames are discovery's; Kind is the objects' kind.
	Name, Singular, Kind string
	ShortNames           []string
	// Categories group resources for kubectl (kubectl get all).
	Categories []string
	// NewObject and NewList return an empty object and an empty list.
	NewObject func() runtime.Object
	NewList   func() runtime.Object
	// UnconditionalUpdate allows an update with no resourceVersion,
	// which then overwrites whatever is stored; without it, such an
	// update is a 422 (a Lease's: its holder must know what it replaces).
	UnconditionalUpdate bool
	// TTL, when set, is how long an object outlives its last write: each
	// write puts its key on an etcd lease at least that long (Storage's
	// putOptions), and when the lease expires etcd deletes the key, which
	// every watch sees as a DELETED. Zero is forever.
	TTL time.Duration

	// KeyRoot, when set, is where the objects live in etcd instead of
	// /registry/<Name>/: /registry/<group>/<plural>/ for custom resources.
	KeyRoot string
	// ClusterScoped objects have no namespace: their key is
	// KeyRoot+name, their URLs have no /namespaces/{ns}/.
	ClusterScoped bool
	// ListKind is the kind of a list (RolloutList); only a resource
	// whose objects are unstructured needs it, a typed list knows its own.
	ListKind string
	// Subresources are served beside the resource: "status" for a
	// resource whose /status is its only writer of .status.
	Subresources []string
	// PrepareForCreate and PrepareForUpdate, when set, are the
	// resource's strategy for what a write may change: a custom
	// resource's or a Deployment's generation and status
	// (customresource.go, deployment.go). A ConfigMap's and a Lease's
	// have nothing to change. PrepareForStatusUpdate is the strategy of
	// /status, for a resource whose Subresources has "status" (statusOf).
	PrepareForCreate       func(obj runtime.Object)
	PrepareForUpdate       func(obj, old runtime.Object)
	PrepareForStatusUpdate func(obj, old runtime.Object)
}

// The resources this server serves.
var (
	ConfigMaps = &Resource{
		Version: "v1", Name: "configmaps", Singular: "configmap", Kind: "ConfigMap", ShortNames: []string{"cm"},
		NewObject: func() runtime.Object { return &corev1.ConfigMap{} },
		NewList:   func() runtime.Object { return &corev1.ConfigMapList{} },

		UnconditionalUpdate: true,
	}
	// Deployments have a strategy (deployment.go) and a /status, and,
	// like ConfigMaps, take an update with no resourceVersion as an
	// overwrite (the deployment strategy's AllowUnconditionalUpdate).
	Deployments = &Resource{
		Group: "apps", Version: "v1", Name: "deployments", Singular: "deployment", Kind: "Deployment",
		ShortNames: []string{"deploy"}, Categories: []string{"all"},
		NewObject: func() runtime.Object { return &appsv1.Deployment{} },
		NewList:   func() runtime.Object { return &appsv1.DeploymentList{} },

		UnconditionalUpdate:    true,
		Subresources:           []string{"status"},
		PrepareForCreate:       prepareDeploymentCreate,
		PrepareForUpdate:       prepareDeploymentUpdate,
		PrepareForStatusUpdate: prepareDeploymentStatusUpdate,
	}
	// Events are what a controller's event recorder writes (core/v1,
	// kubectl get ev): written without a resourceVersion by the
	// broadcaster's repeat PATCH, and gone an hour after their last write,
	// kube-apiserver's --event-ttl default, so that a busy cluster's
	// etcd does not fill up with them.
	Events = &Resource{
		Version: "v1", Name: "events", Singular: "event", Kind: "Event", ShortNames: []string{"ev"},
		NewObject: func() runtime.Object { return &corev1.Event{} },
		NewList:   func() runtime.Object { return &corev1.EventList{} },

		UnconditionalUpdate: true,
		TTL:                 time.Hour,
	}
	Leases = &Resource{
		Group: "coordination.k8s.io", Version: "v1", Name: "leases", Singular: "lease", Kind: "Lease",
		NewObject: func() runtime.Object { return &coordinationv1.Lease{} },
		NewList:   func() runtime.Object { return &coordinationv1.LeaseList{} },
	}
	// served is every resource, in discovery's order: kube-apiserver
	// lists a version's resources by name (configmaps before events), and
	// apps before coordination.k8s.io.
	served = []*Resource{ConfigMaps, Events, Deployments, Leases}
)

// GroupResource is what a 404, a 409 or a 422 names: leases.coordination.k8s.io.
func (r *Resource) GroupResource() schema.GroupResource {
	return schema.GroupResource{Group: r.Group, Resource: r.Name}
}

// GroupVersion is the version objects are served and stored in.
func (r *Resource) GroupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: r.Group, Version: r.Version}
}

// Prefix is where the resource's objects live in etcd:
// /registry/<resource>/, or KeyRoot when set.
func (r *Resource) Prefix() string {
	if r.KeyRoot != "" {
		return r.KeyRoot
	}
	return "/registry/" + r.Name + "/"
}

// Key is the etcd key of one object: a cluster-scoped one's has no
// namespace.
func (r *Resource) Key(namespace, name string) string {
	if r.ClusterScoped {
		return r.Prefix() + name
	}
	return r.Prefix() + namespace + "/" + name
}

// keyPrefix is the range of keys a list or watch of namespace reads. The
// trailing "/" keeps namespace "a" from matching namespace "ab"; an empty
// namespace means every namespace.
func (r *Resource) keyPrefix(namespace string) string {
	if namespace == "" || r.ClusterScoped {
		return r.Prefix()
	}
	return r.Prefix() + namespace + "/"
}

// splitKey is the inverse of Key.
func (r *Resource) splitKey(key string) (namespace, name string, ok bool) {
	rest, found := strings.CutPrefix(key, r.Prefix())
	if !found {
		return "", "", false
	}
	if r.ClusterScoped {
		return "", rest, rest != "" && !strings.Contains(rest, "/")
	}
	namespace, name, ok = strings.Cut(rest, "/")
	return namespace, name, ok
}

// path is the collection's URL path under /api or /apis, with {ns} for
// the namespace: /api/v1/namespaces/{ns}/configmaps,
// /apis/coordination.k8s.io/v1/namespaces/{ns}/leases.
func (r *Resource) path(namespaced bool) string {
	root := "/api/" + r.Version
	if r.Group != "" {
		root = "/apis/" + r.Group + "/" + r.Version
	}
	if namespaced && !r.ClusterScoped {
		return root + "/namespaces/{ns}/" + r.Name
	}
	return root + "/" + r.Name
}

// accessor is an object's metadata. Every object a Resource makes has
// an ObjectMeta, so a failure is a coding error.
func accessor(obj runtime.Object) metav1.Object {
	m, err := meta.Accessor(obj)
	if err != nil {
		panic(fmt.Sprintf("coding error: %T has no metadata: %v", obj, err))
	}
	return m
}
