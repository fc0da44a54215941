package deltafifo

import (
	"fmt"
	"slices"
)

// ReplacedAllInfo is the object of a ReplacedAll delta: the whole list of
// one Replace, and its resource version.
//
// client-go: tools/cache/the_real_fifo.go (ReplacedAllInfo)
type ReplacedAllInfo struct {
	ResourceVersion string
	Objects         []any
}

// SyncAllInfo is the object of a SyncAll delta: "resync everything you
// hold", with nothing else to say.
//
// client-go: tools/cache/the_real_fifo.go (SyncAllInfo)
type SyncAllInfo struct{}

// BookmarkInfo is the object of a Bookmark delta.
//
// client-go: tools/cache/the_real_fifo.go (BookmarkInfo)
type BookmarkInfo struct {
	ResourceVersion string
}

// Replace takes a full list. In atomic mode it appends one ReplacedAll
// delta; otherwise it reconciles the list against the log and the known
// objects (reconcileLocked). The first Replace makes the whole log, as it
// stands, the initial list.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.Replace)
func (f *RealFIFO) Replace(list []any, rv string) error {
	// exercise:begin 8 Relist, resync and bookmarks in the RealFIFO
	// exercise:hint In atomic mode Replace appends one ReplacedAll delta carrying the list and its
	//   resource version, and Resync one SyncAll; otherwise Replace reconciles and Resync appends a
	//   Sync for each known object whose key is nowhere in the log. Bookmark appends a Bookmark
	//   delta only when the queue emits them. ReplacedAll, SyncAll and Bookmark go straight onto
	//   the log, not through appendLocked, which refuses them (they have no key). Replace makes the
	//   log as it stands the first list.
	// exercise:deeper f.sync.firstList(len(f.items)) runs after the append, in both modes: the
	//   first list is everything in the log, not just the listed objects. A known key that has
	//   vanished by the time you ask (GetByKey says not exists) gets no Sync. Bookmark does not
	//   mark the queue populated, and it checks emitBookmarks before taking the lock.
	// exercise:track deep
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.atomic {
		f.items = append(f.items, Delta{Type: ReplacedAll, Object: ReplacedAllInfo{ResourceVersion: rv, Objects: list}})
		f.cond.Broadcast()
	} else if err := f.reconcileLocked(list); err != nil {
		return err
	}
	f.sync.firstList(len(f.items))
	return nil
	// exercise:end 8
}

// reconcileLocked is the non-atomic Replace. Deletions come first, so a
// consumer never sees an object come back from a list before it learns
// that another one is gone:
//
//  1. for each key in the log, in order of first appearance, that the list
//     dropped and whose last delta is not already a deletion: Deleted with
//     a tombstone holding that last delta's object;
//  2. for each key the known objects hold, that the list dropped and the
//     log never mentions: Deleted with a tombstone holding the known object
//     (nil when the lookup fails);
//  3. then each listed object, in list order, as Replaced.
//
// Every key is computed before anything is appended, so a list with an
// object that cannot be keyed changes nothing.
//
// client-go: tools/cache/the_real_fifo.go (reconcileReplacement)
func (f *RealFIFO) reconcileLocked(list []any) error {
	// exercise:begin 9 Reconcile a relist: tombstones first, then Replaced
	// exercise:hint You key the whole list first, and stop with a KeyError before appending
	//   anything. Then you walk the log: each key that the list dropped, and whose last delta is
	//   not Deleted, gets a tombstone. Then the known keys that the list dropped and the log never
	//   mentions get one. Then every listed object is appended as Replaced.
	// exercise:deeper A log key's tombstone holds the object of its last delta; a known key's holds
	//   KnownObjects.GetByKey's object, or nil. Wrap append errors as fmt.Errorf("couldn't enqueue
	//   object: %w", err).
	listed := make(map[string]bool, len(list))
	for _, obj := range list {
		key, err := f.keyOf(obj)
		if err != nil {
			return KeyError{Obj: obj, Err: err}
		}
		listed[key] = true
	}

	var order []string
	last := map[string]Delta{}
	for _, d := range f.items {
		key, err := f.keyOf(d.Object)
		if err != nil {
			return KeyError{Obj: d.Object, Err: err}
		}
		if _, seen := last[key]; !seen {
			order = append(order, key)
		}
		last[key] = d
	}

	for _, key := range order {
		if listed[key] || last[key].Type == Deleted {
			continue
		}
		if err := f.appendLocked(Deleted, DeletedFinalStateUnknown{Key: key, Obj: last[key].Object}); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	for _, key := range f.knownObjects.ListKeys() {
		if _, inLog := last[key]; listed[key] || inLog {
			continue
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			obj = nil
		}
		if err := f.appendLocked(Deleted, DeletedFinalStateUnknown{Key: key, Obj: obj}); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	// One growth for the whole list, not the dozen doublings that would
	// copy a 100k-item log over and over (a third of a relist's time).
	f.items = slices.Grow(f.items, len(list))
	for _, obj := range list {
		if err := f.appendLocked(Replaced, obj); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	return nil
	// exercise:end 9
}

// Resync in atomic mode appends one SyncAll: the consumer resyncs every
// object it holds when it gets there, after everything queued before.
// Otherwise it appends a Sync for every known object whose key appears
// nowhere in the log, for the same reason the DeltaFIFO skips queued keys.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.Resync)
func (f *RealFIFO) Resync() error {
	// exercise:begin 8
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.atomic {
		f.items = append(f.items, Delta{Type: SyncAll, Object: SyncAllInfo{}})
		f.cond.Broadcast()
		return nil
	}
	inLog := map[string]bool{}
	for _, d := range f.items {
		key, err := f.keyOf(d.Object)
		if err != nil {
			return KeyError{Obj: d, Err: err}
		}
		inLog[key] = true
	}
	for _, key := range f.knownObjects.ListKeys() {
		if inLog[key] {
			continue
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			continue
		}
		if err := f.appendLocked(Sync, obj); err != nil {
			return fmt.Errorf("couldn't queue object: %w", err)
		}
	}
	return nil
	// exercise:end 8
}

// Bookmark appends a Bookmark delta when the queue emits them, and does
// nothing otherwise. It does not count as a write for HasSynced.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.Bookmark)
func (f *RealFIFO) Bookmark(rv string) error {
	// exercise:begin 8
	if !f.emitBookmarks {
		return nil
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.items = append(f.items, Delta{Type: Bookmark, Object: BookmarkInfo{ResourceVersion: rv}})
	f.cond.Broadcast()
	return nil
	// exercise:end 8
}
