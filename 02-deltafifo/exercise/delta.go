// Your copy of ../delta.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 02`
// checks your work, and `go run ./workshop/cmd/workshop hint 02 N` gives
// exercise N's hint.

package deltafifo

import (
	"errors"

	indexer "example.com/walkthrough/03-indexer"

	"example.com/walkthrough/workshop/todo"
)

// DeltaType names what happened to an object. The first five are the
// classic vocabulary that both queues speak; the last three exist only in
// a RealFIFO in atomic mode, where one delta stands for a whole list.
//
// client-go: tools/cache/delta_fifo.go (DeltaType)
type DeltaType string

const (
	// Added, Updated and Deleted come straight from watch events.
	Added   DeltaType = "Added"
	Updated DeltaType = "Updated"
	Deleted DeltaType = "Deleted"

	// Replaced marks an object that arrived in a list (the first one, or a
	// relist after a broken watch). Nobody knows whether it changed.
	// A DeltaFIFO says Sync instead unless EmitDeltaTypeReplaced is set,
	// because older consumers only understood Sync.
	Replaced DeltaType = "Replaced"

	// Sync is a periodic resync: the object is handed out again unchanged.
	Sync DeltaType = "Sync"

	// ReplacedAll carries a whole list in one delta (a ReplacedAllInfo).
	ReplacedAll DeltaType = "ReplacedAll"
	// SyncAll asks the consumer to resync everything it holds (a SyncAllInfo).
	SyncAll DeltaType = "SyncAll"
	// Bookmark carries only a resource version (a BookmarkInfo).
	Bookmark DeltaType = "Bookmark"
)

// Delta is one change: its type and the object after the change. For a
// deletion it is the last state the queue saw, which may be a
// DeletedFinalStateUnknown when the deletion itself was never seen.
//
// client-go: tools/cache/delta_fifo.go (Delta)
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas is everything that happened to one object, oldest first. A
// DeltaFIFO hands one out per key; a RealFIFO hands out a Deltas of length
// one, so that consumers written for the DeltaFIFO keep working.
//
// client-go: tools/cache/delta_fifo.go (Deltas)
type Deltas []Delta

// Oldest is the first delta, or nil when there is none.
func (d Deltas) Oldest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[0]
}

// Newest is the last delta, or nil when there is none. Its object is the
// freshest state of the object, which is why keys are taken from it.
func (d Deltas) Newest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[len(d)-1]
}

// The key vocabulary is chapter 03's: the Indexer that plays KnownObjects
// here files objects with the same key functions, and its deletion-aware
// key function already understands tombstones. These aliases let this
// chapter's code say what client-go's says.
type (
	// KeyFunc turns an object into its key ("namespace/name").
	//
	// client-go: tools/cache/store.go (KeyFunc)
	KeyFunc = indexer.KeyFunc

	// KeyError is returned whenever a key function fails.
	//
	// client-go: tools/cache/store.go (KeyError)
	KeyError = indexer.KeyError

	// DeletedFinalStateUnknown is a tombstone: the queue learned that an
	// object is gone without seeing its deletion, usually because a relist
	// no longer contains it. Obj is the last state anyone knew, or nil.
	//
	// client-go: tools/cache/delta_fifo.go (DeletedFinalStateUnknown)
	DeletedFinalStateUnknown = indexer.DeletedFinalStateUnknown
)

// KeyListerGetter is what a queue needs from the consumer's cache: the
// keys it holds and the object under a key. These are the "known objects":
// the objects the consumer has already been told about. The queue asks
// them who is missing from a relist, and what to hand out on a resync.
//
// client-go: tools/cache/delta_fifo.go (KeyListerGetter)
type KeyListerGetter interface {
	ListKeys() []string
	GetByKey(key string) (value any, exists bool, err error)
}

// PopProcessFunc is what a consumer does with one popped item. The queue
// calls it with its lock held (unless told otherwise), so the consumer can
// update its cache before the next producer call sees it.
// isInInitialList is true while the first list has not been fully handed
// out.
//
// client-go: tools/cache/fifo.go (PopProcessFunc)
type PopProcessFunc func(obj any, isInInitialList bool) error

// ProcessBatchFunc handles several deltas, each for a different key, in
// one call.
//
// client-go: tools/cache/controller.go (ProcessBatchFunc)
type ProcessBatchFunc func(deltas []Delta, isInInitialList bool) error

// DoneChecker exposes "has synced" as a channel, so a waiter needs no lock.
//
// client-go: tools/cache/shared_informer.go (DoneChecker)
type DoneChecker interface {
	Name() string
	Done() <-chan struct{}
}

// ErrFIFOClosed is what Pop returns once the queue is closed and empty.
// Every queue in client-go returns this same error, DeltaFIFO in the text
// or not.
//
// client-go: tools/cache/fifo.go (ErrFIFOClosed)
var ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")

// ErrZeroLengthDeltasObject is the key error of an empty Deltas: it has no
// newest object to take a key from.
//
// client-go: tools/cache/delta_fifo.go (ErrZeroLengthDeltasObject)
var ErrZeroLengthDeltasObject = errors.New("0 length Deltas object; can't get key")

// syncState is the "has the first list been handed out?" bookkeeping that
// both queues share. It is guarded by the owning queue's lock.
//
// The first list is the one given to the first Replace, provided nothing
// was added, updated or deleted before it. Once it is known, the queue
// counts pops down to zero; then, and forever after, it has synced.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.populated,
// DeltaFIFO.initialPopulationCount, DeltaFIFO.checkSynced_locked)
type syncState struct {
	// populated: the first Replace happened, or an Add/Update/Delete came
	// first (and then there is no initial list at all).
	populated bool
	// initialCount is how many pops are left before the first list is
	// fully handed out. Only meaningful once populated.
	initialCount int
	// synced is closed exactly once, when populated && initialCount == 0.
	synced       chan struct{}
	syncedClosed bool
}

func newSyncState() syncState { return syncState{synced: make(chan struct{})} }

// markPopulated records a write that makes the queue populated without an
// initial list.
func (s *syncState) markPopulated() {
	s.populated = true
	s.check()
}

// firstList records the size of the first list, once.
func (s *syncState) firstList(count int) {
	if s.populated {
		return
	}
	s.populated = true
	s.initialCount = count
	s.check()
}

// popped counts n items of the first list as handed out.
func (s *syncState) popped(n int) {
	if s.initialCount > 0 {
		s.initialCount -= n
		s.check()
	}
}

// check closes synced once the queue is populated and every item of the
// first list has been popped; only once.
func (s *syncState) check() {
	if s.populated && s.initialCount <= 0 && !s.syncedClosed {
		s.syncedClosed = true
		close(s.synced)
	}
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
