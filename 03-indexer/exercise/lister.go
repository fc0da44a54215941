// Your copy of ../lister.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 03`
// checks your work, and `go run ./workshop/cmd/workshop hint 03 N` gives
// exercise N's hint.

package indexer

import (
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"example.com/walkthrough/workshop/todo"
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
	l.namespace = namespace
	return l
}

// List returns the objects whose labels match selector, from the lister's
// namespace if it has one. labels.Everything() matches all and
// labels.Nothing() matches none. An object without metadata in the store
// is an error, returned with the objects listed before it, as client-go's
// listers do.
//
// client-go: tools/cache/listers.go (ListAll, ListAllByNamespace)
func (l Lister[T]) List(selector labels.Selector) ([]T, error) {
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
}

// candidates returns the objects List has to look at: the namespace's, by
// the namespace index when the indexer has one, else all of them.
func (l Lister[T]) candidates() []any {
	if l.namespace != "" {
		if objs, err := l.indexer.ByIndex(NamespaceIndex, l.namespace); err == nil {
			return objs
		}
	}
	return l.indexer.List()
}

// Get returns the object called name in the lister's namespace. A missing
// object is the API's own NotFound error, so callers can test it with
// errors.IsNotFound exactly as they would a failed GET.
//
// client-go: listers/generic_helpers.go (ResourceIndexer.Get)
func (l Lister[T]) Get(name string) (T, error) {
	// Exercise 7: Get returns the object called name in the lister's namespace.
	panic(todo.Exercise("03-indexer", 7, "Lister.Get"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = errors.NewNotFound
	_ = meta.Accessor
)
