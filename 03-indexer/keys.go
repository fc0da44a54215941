package indexer

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
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
	// exercise:begin 1 Build an object's key
	// exercise:hint An ExplicitKey is already a key. Anything else is read through meta.Accessor:
	//   "namespace/name", or just "name" when the namespace is empty.
	//   DeletionHandlingMetaNamespaceKeyFunc returns a tombstone's (DeletedFinalStateUnknown) key
	//   as it is and hands anything else to MetaNamespaceKeyFunc.
	// exercise:deeper meta.Accessor(obj) fails for values without metadata, such as a plain string;
	//   wrap its error as fmt.Errorf("object has no meta: %v", err).
	if key, ok := obj.(ExplicitKey); ok {
		return string(key), nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", fmt.Errorf("object has no meta: %v", err)
	}
	if ns := m.GetNamespace(); ns != "" {
		return ns + "/" + m.GetName(), nil
	}
	return m.GetName(), nil
	// exercise:end 1
}

// SplitMetaNamespaceKey undoes MetaNamespaceKeyFunc. A key with no slash
// is a cluster-scoped name; a key with more than one slash was not made by
// MetaNamespaceKeyFunc, and saying so beats guessing.
//
// client-go: tools/cache/store.go (SplitMetaNamespaceKey)
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	// exercise:begin 2 Split a key back into namespace and name
	// exercise:hint Split on every "/": one part is a cluster-scoped name, two parts are namespace
	//   and name, and anything else is an error.
	// exercise:deeper The error text is fmt.Errorf("unexpected key format: %q", key). Note that ""
	//   and "/x" are not errors.
	parts := strings.Split(key, "/")
	switch len(parts) {
	case 1:
		return "", parts[0], nil
	case 2:
		return parts[0], parts[1], nil
	}
	return "", "", fmt.Errorf("unexpected key format: %q", key)
	// exercise:end 2
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
	// exercise:begin 1
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return MetaNamespaceKeyFunc(obj)
	// exercise:end 1
}
