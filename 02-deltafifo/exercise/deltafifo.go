// Your copy of ../deltafifo.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 02`
// checks your work, and `go run ./workshop/cmd/workshop hint 02 N` gives
// exercise N's hint.

package deltafifo

import (
	"sync"

	indexer "example.com/walkthrough/03-indexer"

	"example.com/walkthrough/workshop/todo"
)

// DeltaFIFOOptions configures a DeltaFIFO. Every field is optional.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFOOptions)
type DeltaFIFOOptions struct {
	// KeyFunction keys objects; MetaNamespaceKeyFunc when nil.
	KeyFunction KeyFunc
	// KnownObjects is the consumer's cache. Without it the queue cannot
	// tell that a relist dropped an object the consumer holds, and Resync
	// does nothing.
	KnownObjects KeyListerGetter
	// EmitDeltaTypeReplaced makes Replace queue Replaced deltas. Off, it
	// queues Sync, as DeltaFIFOs did before Replaced existed.
	EmitDeltaTypeReplaced bool
}

// DeltaFIFO is the classic informer queue: a FIFO of keys, where each key
// carries every change (delta) that happened to its object since it was
// last popped.
//
// A Reflector produces into it (Add, Update, Delete from watch events,
// Replace from lists, Resync on a timer) and one consumer drains it with
// Pop, handing each object's Deltas to the informer, which applies them to
// its cache (the KnownObjects) and notifies handlers. Because deltas pile
// up per key, a consumer that falls behind sees an object once, with its
// whole recent history, not once per change; and the key keeps the place
// in line it got when it was first queued.
//
// Until Kubernetes 1.33 every informer used one. Since then they use the
// RealFIFO (realfifo.go), and since 1.36 there is no way back; the
// DeltaFIFO is still exported and still works.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO)
type DeltaFIFO struct {
	// lock guards everything below; cond wakes Pop when a key is queued
	// or the queue is closed.
	lock sync.Mutex
	cond sync.Cond

	// items maps a key to its pending deltas, never an empty list.
	// queue holds the keys in the order they are to be popped.
	// Invariant: a key is in queue exactly once iff it is in items.
	items map[string]Deltas
	queue []string

	sync syncState

	keyFunc               KeyFunc
	knownObjects          KeyListerGetter
	emitDeltaTypeReplaced bool

	// closed only changes what Pop does on an empty queue; writes after
	// Close still succeed.
	closed bool
}

// NewDeltaFIFOWithOptions makes an empty DeltaFIFO.
//
// client-go: tools/cache/delta_fifo.go (NewDeltaFIFOWithOptions)
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = indexer.MetaNamespaceKeyFunc
	}
	f := &DeltaFIFO{
		items:                 map[string]Deltas{},
		sync:                  newSyncState(),
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		emitDeltaTypeReplaced: opts.EmitDeltaTypeReplaced,
	}
	f.cond.L = &f.lock
	return f
}

// KeyOf is the key function, taught two more shapes: a Deltas is keyed by
// its newest object, and a tombstone by the key it carries (its object
// may be nil).
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.KeyOf)
func (f *DeltaFIFO) KeyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{Obj: obj, Err: ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if t, ok := obj.(DeletedFinalStateUnknown); ok {
		return t.Key, nil
	}
	return f.keyFunc(obj)
}

// Add queues an Added delta.
func (f *DeltaFIFO) Add(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated()
	return f.queueActionLocked(Added, obj)
}

// Update queues an Updated delta.
func (f *DeltaFIFO) Update(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated()
	return f.queueActionLocked(Updated, obj)
}

// Delete queues a Deleted delta, unless nobody has heard of the object:
// not queued here, and not in KnownObjects either. Then a relist has most
// likely reported the deletion already, and saying it twice would be
// wrong.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.Delete)
func (f *DeltaFIFO) Delete(obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return KeyError{Obj: obj, Err: err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated()
	if f.unheardOfLocked(key) {
		return nil
	}
	return f.queueActionLocked(Deleted, obj)
}

// unheardOfLocked reports whether a deletion of key can be dropped.
func (f *DeltaFIFO) unheardOfLocked(key string) bool {
	// Exercise 4: unheardOfLocked reports whether a deletion of key can be dropped.
	panic(todo.Exercise("02-deltafifo", 4, "DeltaFIFO.unheardOfLocked"))
}

// queueActionLocked appends one delta to its key's list. A key seen for the
// first time joins the back of the line; a key already waiting keeps its
// place, so a busy object cannot starve the others.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.queueActionLocked)
func (f *DeltaFIFO) queueActionLocked(t DeltaType, obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return KeyError{Obj: obj, Err: err}
	}
	deltas, queued := f.items[key]
	f.items[key] = dedupDeltas(append(deltas, Delta{Type: t, Object: obj}))
	if !queued {
		f.queue = append(f.queue, key)
	}
	f.cond.Broadcast()
	return nil
}

// dedupDeltas folds the two newest deltas into one when they report the
// same deletion twice, which happens when a watch event and a relist both
// report it. Only the last pair is looked at, because only a new delta
// can create a duplicate.
//
// client-go: tools/cache/delta_fifo.go (dedupDeltas, isDup)
func dedupDeltas(d Deltas) Deltas {
	n := len(d)
	if n < 2 {
		return d
	}
	if keep := isDeletionDup(&d[n-2], &d[n-1]); keep != nil {
		d[n-2] = *keep
		return d[:n-1]
	}
	return d
}

// isDeletionDup decides which of two consecutive deltas survives, or
// returns nil when both stay. client-go's names its parameters a and b:
// dedupDeltas passes the newest as a and the one before it as b, and
// keeps b, the older, unless b is a tombstone.
//
// client-go: tools/cache/delta_fifo.go (isDeletionDup)
func isDeletionDup(older, newer *Delta) *Delta {
	// Exercise 3: isDeletionDup decides which of two consecutive deltas survives, or returns nil when both stay.
	panic(todo.Exercise("02-deltafifo", 3, "isDeletionDup"))
}

// Pop waits for a key, takes it and its deltas out of the queue, and hands
// the Deltas to process, with the lock held so that process can update
// the known objects before any producer looks at them again. Whatever
// process returns, the deltas are gone: there is no requeue.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.Pop)
func (f *DeltaFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	// Exercise 2: Pop waits for a key, takes it and its deltas out of the queue, and hands the Deltas to process.
	panic(todo.Exercise("02-deltafifo", 2, "DeltaFIFO.Pop"))
}

// Close wakes every waiting Pop. Items already queued can still be popped,
// and writes still succeed: only an empty, closed queue refuses to Pop.
func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *DeltaFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// HasSynced reports whether the first list has been handed out: every
// key of the first Replace popped, or a write came before any Replace.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.HasSynced)
func (f *DeltaFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.sync.syncedClosed
}

// HasSyncedChecker is HasSynced as a channel.
func (f *DeltaFIFO) HasSyncedChecker() DoneChecker { return f }

// Name names the queue for whoever waits on it.
func (f *DeltaFIFO) Name() string { return "DeltaFIFO" }

// Done is closed once HasSynced is true.
func (f *DeltaFIFO) Done() <-chan struct{} { return f.sync.synced }

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
