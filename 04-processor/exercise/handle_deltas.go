// Your copy of ../handle_deltas.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import (
	"fmt"

	indexer "example.com/walkthrough/03-indexer"

	"example.com/walkthrough/workshop/todo"
)

// ProcessDeltas applies one popped item to the cache and tells handler
// about each change, in order. The rule that makes informers safe to use:
// the cache is written before the handler hears of the change, so a
// handler that looks the object up finds at least that version.
//
//   - Added, Updated, Replaced, Sync: if the key is cached, update it and
//     call OnUpdate(old, new); otherwise add it and call
//     OnAdd(new, isInInitialList). The delta type does not decide which:
//     the cache does.
//   - Deleted: delete it and call OnDelete with the object as it came (a
//     final state, or a tombstone).
//   - Bookmark: remember the resourceVersion; no notification.
//   - SyncAll: OnUpdate(obj, obj) for everything cached, then stop.
//   - ReplacedAll: see processReplacedAll.
//
// It is exported so that you can drive it on its own, with any handler
// and any cache; the informer calls it from HandleDeltas.
//
// client-go: tools/cache/controller.go (processDeltas)
func ProcessDeltas(handler ResourceEventHandler, clientState indexer.Indexer, deltas Deltas, isInInitialList bool) error {
	// Exercise 12: ProcessDeltas applies one popped item to the cache and tells handler about each change, in order.
	panic(todo.Exercise("04-processor", 12, "ProcessDeltas"))
}

// ProcessDeltaBatch applies a batch of deltas, each for a different key
// (Added, Updated, Replaced, Sync or Deleted; a queue batches nothing
// else): it writes them all to the cache, oldest first, and only then
// notifies handler of each, in the same order. So a handler of any
// object in the batch finds every object of the batch cached.
//
// client-go applies the writes as one transaction of its store, so a
// lister never sees half a batch; chapter 03's Indexer has no
// transactions, so a lister reading meanwhile can (see the chapter doc).
//
// client-go: tools/cache/controller.go (processDeltasInBatch)
func ProcessDeltaBatch(handler ResourceEventHandler, clientState indexer.Indexer, deltas Deltas, isInInitialList bool) error {
	notify := make([]func(), 0, len(deltas))
	// Whatever was written is told, even when a later write fails, so
	// no handler misses a change the cache holds.
	defer func() {
		for _, n := range notify {
			n()
		}
	}()
	for _, d := range deltas {
		obj := d.Object
		switch d.Type {
		case Added, Updated, Replaced, Sync:
			if old, exists, err := clientState.Get(obj); err == nil && exists {
				if err := clientState.Update(obj); err != nil {
					return err
				}
				notify = append(notify, func() { handler.OnUpdate(old, obj) })
			} else {
				if err := clientState.Add(obj); err != nil {
					return err
				}
				notify = append(notify, func() { handler.OnAdd(obj, isInInitialList) })
			}
		case Deleted:
			if err := clientState.Delete(obj); err != nil {
				return err
			}
			notify = append(notify, func() { handler.OnDelete(obj) })
		default:
			return fmt.Errorf("delta type %s cannot be processed in a batch", d.Type)
		}
	}
	return nil
}

// processReplacedAll applies a whole relist at once. It works out the
// notifications against the cache as it was, replaces the cache, and
// only then notifies: first a tombstone for every cached key the list no
// longer has, then, in list order, OnUpdate for objects that were cached
// and OnAdd for the rest.
//
// client-go: tools/cache/controller.go (processReplacedAllInfo)
func processReplacedAll(handler ResourceEventHandler, clientState indexer.Indexer, info ReplacedAllInfo, isInInitialList bool) error {
	cached := clientState.ListKeys()
	if len(cached) == 0 {
		// The first list, usually: nothing is gone and nothing is old,
		// so every object is an add and no key needs looking up.
		if err := clientState.Replace(info.Objects, info.ResourceVersion); err != nil {
			return err
		}
		for _, obj := range info.Objects {
			handler.OnAdd(obj, isInInitialList)
		}
		return nil
	}
	listed := make(map[string]bool, len(info.Objects))
	for _, obj := range info.Objects {
		key, err := indexer.DeletionHandlingMetaNamespaceKeyFunc(obj)
		if err != nil {
			return indexer.KeyError{Obj: obj, Err: err}
		}
		listed[key] = true
	}
	var gone []indexer.DeletedFinalStateUnknown
	for _, key := range cached {
		if listed[key] {
			continue
		}
		last, _, _ := clientState.GetByKey(key)
		gone = append(gone, indexer.DeletedFinalStateUnknown{Key: key, Obj: last})
	}
	olds := make([]any, len(info.Objects)) // nil where the object is new
	for i, obj := range info.Objects {
		if old, exists, err := clientState.Get(obj); err == nil && exists {
			olds[i] = old
		}
	}

	if err := clientState.Replace(info.Objects, info.ResourceVersion); err != nil {
		return err
	}
	for _, tombstone := range gone {
		handler.OnDelete(tombstone)
	}
	for i, obj := range info.Objects {
		if olds[i] != nil {
			handler.OnUpdate(olds[i], obj)
		} else {
			handler.OnAdd(obj, isInInitialList)
		}
	}
	return nil
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
)
