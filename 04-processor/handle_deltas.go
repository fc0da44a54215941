package processor

import (
	"fmt"

	indexer "example.com/walkthrough/03-indexer"
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
	// exercise:begin 12 Turn deltas into cache writes, then notifications
	// exercise:hint For each delta, oldest first, write the cache and only then call the handler.
	//   Whether an object is an add or an update depends on whether its key is already cached, not
	//   on the delta type.
	// exercise:deeper Use clientState.Get(obj) to find the old object. Deleted calls Delete then
	//   OnDelete(obj). Bookmark calls clientState.Bookmark with the BookmarkInfo's resourceVersion.
	//   SyncAll sends OnUpdate(o, o) for every clientState.List() object and returns. ReplacedAll
	//   goes to processReplacedAll. Return any cache error at once.
	for _, d := range deltas {
		switch d.Type {
		case Added, Updated, Replaced, Sync:
			if old, exists, err := clientState.Get(d.Object); err == nil && exists {
				if err := clientState.Update(d.Object); err != nil {
					return err
				}
				handler.OnUpdate(old, d.Object)
			} else {
				if err := clientState.Add(d.Object); err != nil {
					return err
				}
				handler.OnAdd(d.Object, isInInitialList)
			}
		case Deleted:
			if err := clientState.Delete(d.Object); err != nil {
				return err
			}
			handler.OnDelete(d.Object)
		case Bookmark:
			info, ok := d.Object.(BookmarkInfo)
			if !ok {
				return fmt.Errorf("bookmark delta did not contain BookmarkInfo: %T", d.Object)
			}
			clientState.Bookmark(info.ResourceVersion)
		case SyncAll:
			for _, obj := range clientState.List() {
				handler.OnUpdate(obj, obj)
			}
			return nil
		case ReplacedAll:
			info, ok := d.Object.(ReplacedAllInfo)
			if !ok {
				return fmt.Errorf("ReplacedAll did not contain ReplacedAllInfo: %T", d.Object)
			}
			if err := processReplacedAll(handler, clientState, info, isInInitialList); err != nil {
				return err
			}
		}
	}
	return nil
	// exercise:end 12
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
	// exercise:begin 13 Apply a batch, and a whole relist in one step
	// exercise:hint ProcessDeltaBatch applies a batch of deltas for distinct keys to the cache (an
	//   update when the key is cached, an add otherwise, a delete) and notifies after the writes,
	//   in order; a ReplacedAll, SyncAll or Bookmark never comes in a batch, so it is an error.
	//   processReplacedAll replaces the cache with the list, then notifies: a tombstone for each
	//   cached key the list dropped, then in list order an update for each object that was cached
	//   and an add for the rest.
	// exercise:deeper Notify in a defer: whatever was written is told even when a later write
	//   fails, so no handler misses a change the cache holds. Work out the tombstones and the old
	//   objects against the cache before Replace changes it. An empty cache (the first list,
	//   usually) is the fast path: Replace, then an add for each object.
	// exercise:track deep
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
	// exercise:end 13
}

// processReplacedAll applies a whole relist at once. It works out the
// notifications against the cache as it was, replaces the cache, and
// only then notifies: first a tombstone for every cached key the list no
// longer has, then, in list order, OnUpdate for objects that were cached
// and OnAdd for the rest.
//
// client-go: tools/cache/controller.go (processReplacedAllInfo)
func processReplacedAll(handler ResourceEventHandler, clientState indexer.Indexer, info ReplacedAllInfo, isInInitialList bool) error {
	// exercise:begin 13
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
	// exercise:end 13
}
