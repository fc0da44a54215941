// Your copy of ../keys.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 03`
// checks your work, and `go run ./workshop/cmd/workshop hint 03 N` gives
// exercise N's hint.

package indexer

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"

	"example.com/walkthrough/workshop/todo"
)

// KeyFunc turns an object into the string the store files it under. It
// must be deterministic: the same object always gets the same key, or a
// later Update or Delete would miss the entry an Add made.
//
// client-go: tools/cache/store.go (KeyFunc)
type KeyFunc func(obj any) (string, error)

// KeyError is returned by every store method whose key function failed. It
// keeps the object so the caller can see what could not be keyed.
//
// client-go: tools/cache/store.go (KeyError)
type KeyError struct {
	Obj any
	Err error
}

func (k KeyError) Error() string {
	return fmt.Sprintf("couldn't create key for object %+v: %v", k.Obj, k.Err)
}

func (k KeyError) Unwrap() error { return k.Err }

// ExplicitKey is a key you already have. MetaNamespaceKeyFunc returns it
// as it is, which lets code that knows only a key (a work queue item, say)
// look an object up or delete it.
//
// client-go: tools/cache/store.go (ExplicitKey)
type ExplicitKey string

// MetaNamespaceKeyFunc is the key function of nearly every informer:
// "namespace/name" for namespaced objects and "name" for cluster-scoped
// ones. Any API object works, typed or unstructured, because it reads the
// name through the object's metadata accessor.
//
// client-go: tools/cache/store.go (MetaNamespaceKeyFunc, ObjectToName)
func MetaNamespaceKeyFunc(obj any) (string, error) {
	// Exercise 1: MetaNamespaceKeyFunc is the key function of nearly every informer.
	panic(todo.Exercise("03-indexer", 1, "MetaNamespaceKeyFunc"))
}

// SplitMetaNamespaceKey undoes MetaNamespaceKeyFunc. A key with no slash
// is a cluster-scoped name; a key with more than one slash was not made by
// MetaNamespaceKeyFunc, and saying so beats guessing.
//
// client-go: tools/cache/store.go (SplitMetaNamespaceKey)
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	// Exercise 2: SplitMetaNamespaceKey undoes MetaNamespaceKeyFunc.
	panic(todo.Exercise("03-indexer", 2, "SplitMetaNamespaceKey"))
}

// DeletedFinalStateUnknown is a tombstone. When an informer learns that an
// object is gone without seeing its final state (a watch was down while it
// was deleted), it delivers this instead: the key, and the last state the
// cache knew, which may be stale.
//
// client-go: tools/cache/delta_fifo.go (DeletedFinalStateUnknown)
type DeletedFinalStateUnknown struct {
	Key string
	Obj any
}

// DeletionHandlingMetaNamespaceKeyFunc is MetaNamespaceKeyFunc that also
// accepts tombstones, returning their key as it is. Event handlers use it
// because a delete notification may carry either.
//
// client-go: tools/cache/controller.go (DeletionHandlingMetaNamespaceKeyFunc)
func DeletionHandlingMetaNamespaceKeyFunc(obj any) (string, error) {
	// Exercise 1: DeletionHandlingMetaNamespaceKeyFunc is MetaNamespaceKeyFunc that also accepts tombstones.
	panic(todo.Exercise("03-indexer", 1, "DeletionHandlingMetaNamespaceKeyFunc"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = strings.Split
	_ = meta.Accessor
)
