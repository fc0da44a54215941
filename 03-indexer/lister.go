package indexer

import (
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Lister gives typed, read-only access to an Indexer's objects of one
// resource: what a controller uses instead of asking the API server. It
// reads the cache, so its answers are as fresh as the informer's.
//
// client-go: listers/generic_helpers.go (ResourceIndexer), used by every
// generated lister such as listers/core/v1 (PodLister)
type Lister[T runtime.Object] struct {
	indexer   Indexer
	resource  schema.GroupResource
	namespace string // "" lists every namespace and gets cluster-scoped names
}

// NewLister returns a lister over indexer for the given resource, which is
// named in NotFound errors ("pods \"a\" not found").
func NewLister[T runtime.Object](indexer Indexer, resource schema.GroupResource) Lister[T] {
	return Lister[T]{indexer: indexer, resource: resource}
}

// Namespace narrows the lister to one namespace.
func (l Lister[T]) Namespace(namespace string) Lister[T] {
	// exercise:begin 8 List through a lister: namespace, selector and the index
	// exercise:hint List matches labels against the selector over the candidates: every object, or,
	//   for a namespaced lister with a namespace index, only that namespace's objects.
	//   labels.Nothing() matches none; an empty selector matches all.
	// exercise:deeper candidates uses indexer.ByIndex(NamespaceIndex, namespace) when the namespace
	//   is set and the index exists, and List() otherwise; List still checks the namespace, because
	//   without the index every object comes back. An object without metadata ends the listing with
	//   an error and what was listed so far.
	// exercise:track deep
	l.namespace = namespace
	return l
	// exercise:end 8
}

// List returns the objects whose labels match selector, from the lister's
// namespace if it has one. labels.Everything() matches all and
// labels.Nothing() matches none. An object without metadata in the store
// is an error, returned with the objects listed before it, as client-go's
// listers do.
//
// client-go: tools/cache/listers.go (ListAll, ListAllByNamespace)
func (l Lister[T]) List(selector labels.Selector) ([]T, error) {
	// exercise:begin 8
	var out []T
	if labels.MatchesNothing(selector) {
		return out, nil
	}
	for _, obj := range l.candidates() {
		m, err := meta.Accessor(obj)
		if err != nil {
			return out, err
		}
		if l.namespace != "" && m.GetNamespace() != l.namespace {
			continue
		}
		if selector.Empty() || selector.Matches(labels.Set(m.GetLabels())) {
			out = append(out, obj.(T))
		}
	}
	return out, nil
	// exercise:end 8
}

// candidates returns the objects List has to look at: the namespace's, by
// the namespace index when the indexer has one, else all of them.
func (l Lister[T]) candidates() []any {
	// exercise:begin 8
	if l.namespace != "" {
		if objs, err := l.indexer.ByIndex(NamespaceIndex, l.namespace); err == nil {
			return objs
		}
	}
	return l.indexer.List()
	// exercise:end 8
}

// Get returns the object called name in the lister's namespace. A missing
// object is the API's own NotFound error, so callers can test it with
// errors.IsNotFound exactly as they would a failed GET.
//
// client-go: listers/generic_helpers.go (ResourceIndexer.Get)
func (l Lister[T]) Get(name string) (T, error) {
	// exercise:begin 7 Get an object through a lister
	// exercise:hint The key is "namespace/name", or just "name" when the lister has no namespace.
	//   Look it up with GetByKey; when it is missing, return the API's NotFound error for
	//   l.resource and name.
	// exercise:deeper errors.NewNotFound(l.resource, name) is the error client-go's listers return.
	//   On success, convert with obj.(T).
	var zero T
	key := name
	if l.namespace != "" {
		key = l.namespace + "/" + name
	}
	obj, ok, err := l.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !ok {
		return zero, errors.NewNotFound(l.resource, name)
	}
	return obj.(T), nil
	// exercise:end 7
}
