// Your copy of ../realfifo.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 02`
// checks your work, and `go run ./workshop/cmd/workshop hint 02 N` gives
// exercise N's hint.

package deltafifo

import (
	"sync"

	indexer "example.com/walkthrough/03-indexer"

	"example.com/walkthrough/workshop/todo"
)

// RealFIFOOptions configures a RealFIFO. The constructor refuses the
// combinations that cannot work (see NewRealFIFOWithOptions).
//
// client-go: tools/cache/the_real_fifo.go (RealFIFOOptions)
type RealFIFOOptions struct {
	// KeyFunction keys objects; MetaNamespaceKeyFunc when nil.
	KeyFunction KeyFunc
	// KnownObjects is the consumer's cache. Required when AtomicEvents is
	// off (Replace and Resync read it), forbidden when it is on.
	KnownObjects KeyListerGetter
	// AtomicEvents makes Replace queue one ReplacedAll delta and Resync one
	// SyncAll delta, instead of one delta per object.
	AtomicEvents bool
	// UnlockWhileProcessing lets producers write while Pop's process runs.
	// Only with AtomicEvents, and only with a single consumer.
	UnlockWhileProcessing bool
	// EmitDeltaTypeBookmark makes Bookmark queue a Bookmark delta. Only
	// with AtomicEvents.
	EmitDeltaTypeBookmark bool
}

// batchSize caps a PopBatch; twice it caps how long the log may grow
// before UnlockWhileProcessing stops letting producers in.
const batchSize = 1000

// RealFIFO is the queue informers use (the InOrderInformers feature: on by
// default since Kubernetes 1.33, locked on since 1.36): a plain log of
// deltas, one per call, popped one at a time in exactly the order they
// came in.
//
// Nothing is merged per key. An object updated three times is handed out
// three times; deltas of different objects keep their relative order; a
// deletion of an object nobody saw is still handed out. The consumer's
// cache therefore goes through the same sequence of states as the server
// did, which is what the DeltaFIFO could not promise.
//
// In atomic mode (the AtomicFIFO feature, on by default since 1.36) a
// relist is one ReplacedAll delta carrying the whole list, and a resync
// one SyncAll delta: the consumer applies them in one step, and the queue
// no longer needs to read the consumer's cache, so it can drop its lock
// while the consumer works.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO)
type RealFIFO struct {
	// lock guards everything below; cond wakes Pop and PopBatch when a
	// delta is appended or the queue is closed.
	lock sync.Mutex
	cond sync.Cond

	// items is the log, oldest first. Every delta in it is handed out
	// exactly once, in this order.
	items []Delta

	sync syncState

	keyFunc               KeyFunc
	knownObjects          KeyListerGetter // nil iff atomic
	atomic                bool
	unlockWhileProcessing bool // only when atomic
	emitBookmarks         bool // only when atomic

	closed bool
}

// NewRealFIFOWithOptions makes an empty RealFIFO. It panics with
// "coding error: ..." on options that contradict each other: the mistake
// is in the caller's code, not in its data.
//
// client-go: tools/cache/the_real_fifo.go (NewRealFIFOWithOptions)
func NewRealFIFOWithOptions(opts RealFIFOOptions) *RealFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = indexer.MetaNamespaceKeyFunc
	}
	switch {
	case opts.AtomicEvents && opts.KnownObjects != nil:
		panic("coding error: knownObjects must not be provided when AtomicEvents is true")
	case !opts.AtomicEvents && opts.UnlockWhileProcessing:
		panic("coding error: UnlockWhileProcessing must be false when AtomicEvents is false")
	case !opts.AtomicEvents && opts.KnownObjects == nil:
		panic("coding error: knownObjects must be provided when AtomicEvents is false")
	case !opts.AtomicEvents && opts.EmitDeltaTypeBookmark:
		panic("coding error: EmitDeltaTypeBookmark must be false when AtomicEvents is false")
	}
	f := &RealFIFO{
		sync:                  newSyncState(),
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		atomic:                opts.AtomicEvents,
		unlockWhileProcessing: opts.UnlockWhileProcessing,
		emitBookmarks:         opts.EmitDeltaTypeBookmark,
	}
	f.cond.L = &f.lock
	return f
}

// keyOf keys an object, a Deltas (by its newest), a Delta, or a tombstone.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.keyOf)
func (f *RealFIFO) keyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{Obj: obj, Err: ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(Delta); ok {
		obj = d.Object
	}
	if t, ok := obj.(DeletedFinalStateUnknown); ok {
		return t.Key, nil
	}
	return f.keyFunc(obj)
}

// Add appends an Added delta.
func (f *RealFIFO) Add(obj any) error { return f.write(Added, obj) }

// Update appends an Updated delta.
func (f *RealFIFO) Update(obj any) error { return f.write(Updated, obj) }

// Delete appends a Deleted delta, whether or not anyone has heard of the
// object: the consumer decides what a deletion of a stranger means.
func (f *RealFIFO) Delete(obj any) error { return f.write(Deleted, obj) }

// write appends one delta of type t under the lock, marking the queue
// populated.
func (f *RealFIFO) write(t DeltaType, obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated()
	return f.appendLocked(t, obj)
}

// appendLocked appends one delta after checking that its object has a key:
// a delta nobody can key would break Replace and PopBatch later.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.addToItems_locked)
func (f *RealFIFO) appendLocked(t DeltaType, obj any) error {
	if _, err := f.keyOf(obj); err != nil {
		return KeyError{Obj: obj, Err: err}
	}
	f.items = append(f.items, Delta{Type: t, Object: obj})
	f.cond.Broadcast()
	return nil
}

// Pop waits for a delta, takes the oldest, and hands it to process as a
// Deltas of one. The pop counts against the first list only after process
// returns, so HasSynced cannot turn true while the last initial delta is
// still being handled.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.Pop)
func (f *RealFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if err := f.waitLocked(); err != nil {
		return nil, err
	}
	inInitialList := !f.sync.syncedClosed
	d := f.items[0]
	f.items[0] = Delta{} // let the collector have the object
	f.items = f.items[1:]
	defer f.sync.popped(1)
	item := Deltas{d}
	return item, f.processLocked(func() error { return process(item, inInitialList) })
}

// waitLocked waits until the log has a delta, or returns ErrFIFOClosed
// once it is closed and empty.
func (f *RealFIFO) waitLocked() error {
	for len(f.items) == 0 {
		if f.closed {
			return ErrFIFOClosed
		}
		f.cond.Wait()
	}
	return nil
}

// processLocked runs the consumer's function, dropping the lock around it
// when UnlockWhileProcessing allows and the log is short enough that
// letting producers in cannot make it grow without bound.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.whileProcessing_locked)
func (f *RealFIFO) processLocked(process func() error) error {
	if f.unlockWhileProcessing && len(f.items) < 2*batchSize {
		f.lock.Unlock()
		defer f.lock.Lock()
	}
	return process()
}

// Close wakes every waiting Pop. Queued deltas can still be popped.
func (f *RealFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *RealFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// HasSynced reports whether the first list has been handed out and
// processed.
func (f *RealFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.sync.syncedClosed
}

// HasSyncedChecker is HasSynced as a channel.
func (f *RealFIFO) HasSyncedChecker() DoneChecker { return f }

// Name names the queue for whoever waits on it.
func (f *RealFIFO) Name() string { return "RealFIFO" }

// Done is closed once HasSynced is true.
func (f *RealFIFO) Done() <-chan struct{} { return f.sync.synced }

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = indexer.MetaNamespaceKeyFunc
)
