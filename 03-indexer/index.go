package indexer

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
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
	// exercise:begin 4 Index values: what an index function says, and the namespace index
	// exercise:hint values runs the named index function on an object (a nil object has none) and
	//   panics with a clear message when it fails: a store that cannot index would serve wrong
	//   answers. MetaNamespaceIndexFunc indexes an object under its namespace.
	// exercise:deeper The panic's value is an error (fmt.Errorf), in client-go's words: unable to
	//   calculate an index entry for key %q on index %q: %v. MetaNamespaceIndexFunc wraps the
	//   meta.Accessor error as object has no meta: %v and returns [""] beside it.
	// exercise:track deep
	m, err := meta.Accessor(obj)
	if err != nil {
		return []string{""}, fmt.Errorf("object has no meta: %v", err)
	}
	return []string{m.GetNamespace()}, nil
	// exercise:end 4
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
	// exercise:begin 5 Move index entries when an object changes
	// exercise:hint Compute the values of oldObj and of newObj (nil means none). Take key out of
	//   every old value's set, removing sets that become empty, then put it into every new value's
	//   set.
	// exercise:deeper Use s.values(name, key, obj) for the values, and s.indices[name] for the
	//   index (create it if it is missing). When both sides are the same single value there is
	//   nothing to move.
	oldValues := s.values(name, key, oldObj)
	newValues := s.values(name, key, newObj)
	if len(oldValues) == 1 && len(newValues) == 1 && oldValues[0] == newValues[0] {
		return // the common case: an update that does not touch this index
	}
	idx := s.indices[name]
	if idx == nil {
		idx = Index{}
		s.indices[name] = idx
	}
	for _, v := range oldValues {
		delete(idx[v], key)
		if len(idx[v]) == 0 {
			delete(idx, v)
		}
	}
	for _, v := range newValues {
		if idx[v] == nil {
			idx[v] = keySet{}
		}
		idx[v][key] = struct{}{}
	}
	// exercise:end 5
}

// values runs the index function called name on obj. A nil obj has no
// values. An index function that fails leaves the store unable to keep
// its invariant, so, like client-go, this panics rather than index wrongly.
func (s *storeIndex) values(name, key string, obj any) []string {
	// exercise:begin 4
	if obj == nil {
		return nil
	}
	values, err := s.indexers[name](obj)
	if err != nil {
		panic(fmt.Errorf("unable to calculate an index entry for key %q on index %q: %v", key, name, err))
	}
	return values
	// exercise:end 4
}

// keysFor returns the set of keys indexed under value in the index called
// name, or an error if there is no such index.
//
// client-go: tools/cache/thread_safe_store.go (storeIndex.getKeysByIndex)
func (s *storeIndex) keysFor(name, value string) (keySet, error) {
	// exercise:begin 6 Query an index: by object, by value, and its values
	// exercise:hint Every query takes the read lock. ByIndex and IndexKeys look one value up; Index
	//   looks up every value the object itself has and returns the union; ListIndexFuncValues lists
	//   the values an index holds. Asking for an index that does not exist is an error, except for
	//   ListIndexFuncValues, which answers with nothing.
	// exercise:deeper The error is Index with name %s does not exist. keysMatching runs the index
	//   function on the object: one value is one set, several are a union without duplicates.
	//   IndexKeys returns the keys sorted (client-go's sets.List sorts them), never nil.
	// exercise:track deep
	if s.indexers[name] == nil {
		return nil, fmt.Errorf("Index with name %s does not exist", name)
	}
	return s.indices[name][value], nil
	// exercise:end 6
}

// keysMatching returns the keys that share any index value with obj: the
// union of keysFor over every value obj has.
//
// client-go: tools/cache/thread_safe_store.go (storeIndex.getKeysFromIndex)
func (s *storeIndex) keysMatching(name string, obj any) (keySet, error) {
	// exercise:begin 6
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
	// exercise:end 6
}
