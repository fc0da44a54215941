// Your copy of ../index.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 03`
// checks your work, and `go run ./workshop/cmd/workshop hint 03 N` gives
// exercise N's hint.

package indexer

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"

	"example.com/walkthrough/workshop/todo"
)

// IndexFunc computes the values an object is indexed under. An object may
// have none ("not on any node yet"), one ("namespace ns") or several ("each
// of its labels").
//
// client-go: tools/cache/index.go (IndexFunc)
type IndexFunc func(obj any) ([]string, error)

// Indexers names the index functions of a store: index name → function.
//
// client-go: tools/cache/index.go (Indexers)
type Indexers map[string]IndexFunc

// Index is one built index: indexed value → the set of keys of the objects
// that have that value.
//
// client-go: tools/cache/index.go (index)
type Index map[string]keySet

// Indices holds every built index: index name → Index.
//
// client-go: tools/cache/index.go (Indices)
type Indices map[string]Index

// keySet is a set of store keys.
//
// upstream: k8s.io/apimachinery/pkg/util/sets/set.go (Set)
type keySet map[string]struct{}

// NamespaceIndex is the name listers expect the namespace index to have.
const NamespaceIndex = "namespace"

// MetaNamespaceIndexFunc indexes an object by its namespace. Listers use
// it to answer "everything in namespace ns" without a full scan.
//
// client-go: tools/cache/index.go (MetaNamespaceIndexFunc)
func MetaNamespaceIndexFunc(obj any) ([]string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return []string{""}, fmt.Errorf("object has no meta: %v", err)
	}
	return []string{m.GetNamespace()}, nil
}

// storeIndex keeps the indexes of a store. It does no locking: the store
// that owns it holds its lock around every call.
//
// Invariant: for every index name, value and key, key is in
// indices[name][value] if and only if the item stored under key has value
// among indexers[name](item). No set is ever empty: a value whose last key
// leaves is removed, so ListIndexFuncValues only shows values in use.
//
// client-go: tools/cache/thread_safe_store.go (storeIndex)
type storeIndex struct {
	indexers Indexers
	indices  Indices
}

// update moves key from the values oldObj was indexed under to the values
// newObj is indexed under, in every index. Pass oldObj nil for an add and
// newObj nil for a delete.
//
// client-go: tools/cache/thread_safe_store.go (storeIndex.updateIndices)
func (s *storeIndex) update(key string, oldObj, newObj any) {
	for name := range s.indexers {
		s.updateOne(name, key, oldObj, newObj)
	}
}

// updateOne does update for the index called name.
//
// client-go: tools/cache/thread_safe_store.go (storeIndex.updateSingleIndex)
func (s *storeIndex) updateOne(name, key string, oldObj, newObj any) {
	// Exercise 5: updateOne does update for the index called name.
	panic(todo.Exercise("03-indexer", 5, "storeIndex.updateOne"))
}

// values runs the index function called name on obj. A nil obj has no
// values. An index function that fails leaves the store unable to keep
// its invariant, so, like client-go, this panics rather than index wrongly.
func (s *storeIndex) values(name, key string, obj any) []string {
	if obj == nil {
		return nil
	}
	values, err := s.indexers[name](obj)
	if err != nil {
		panic(fmt.Errorf("unable to calculate an index entry for key %q on index %q: %v", key, name, err))
	}
	return values
}

// keysFor returns the set of keys indexed under value in the index called
// name, or an error if there is no such index.
//
// client-go: tools/cache/thread_safe_store.go (storeIndex.getKeysByIndex)
func (s *storeIndex) keysFor(name, value string) (keySet, error) {
	if s.indexers[name] == nil {
		return nil, fmt.Errorf("Index with name %s does not exist", name)
	}
	return s.indices[name][value], nil
}

// keysMatching returns the keys that share any index value with obj: the
// union of keysFor over every value obj has.
//
// client-go: tools/cache/thread_safe_store.go (storeIndex.getKeysFromIndex)
func (s *storeIndex) keysMatching(name string, obj any) (keySet, error) {
	fn := s.indexers[name]
	if fn == nil {
		return nil, fmt.Errorf("Index with name %s does not exist", name)
	}
	values, err := fn(obj)
	if err != nil {
		return nil, err
	}
	if len(values) == 1 {
		return s.indices[name][values[0]], nil // no union to build
	}
	union := keySet{}
	for _, v := range values {
		for key := range s.indices[name][v] {
			union[key] = struct{}{}
		}
	}
	return union, nil
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
	_ = meta.Accessor
)
