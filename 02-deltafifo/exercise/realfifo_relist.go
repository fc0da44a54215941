// Your copy of ../realfifo_relist.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 02`
// checks your work, and `go run ./workshop/cmd/workshop hint 02 N` gives
// exercise N's hint.

package deltafifo

import (
	"fmt"
	"slices"

	"example.com/walkthrough/workshop/todo"
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
	// Exercise 9: reconcileLocked is the non-atomic Replace.
	panic(todo.Exercise("02-deltafifo", 9, "RealFIFO.reconcileLocked"))
}

// Resync in atomic mode appends one SyncAll: the consumer resyncs every
// object it holds when it gets there, after everything queued before.
// Otherwise it appends a Sync for every known object whose key appears
// nowhere in the log, for the same reason the DeltaFIFO skips queued keys.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.Resync)
func (f *RealFIFO) Resync() error {
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
}

// Bookmark appends a Bookmark delta when the queue emits them, and does
// nothing otherwise. It does not count as a write for HasSynced.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.Bookmark)
func (f *RealFIFO) Bookmark(rv string) error {
	if !f.emitBookmarks {
		return nil
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.items = append(f.items, Delta{Type: Bookmark, Object: BookmarkInfo{ResourceVersion: rv}})
	f.cond.Broadcast()
	return nil
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
	_ = slices.Grow[[]int, int]
)
