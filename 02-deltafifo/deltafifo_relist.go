package deltafifo

import "fmt"

// Replace is what a Reflector calls with a full list: the first one, or a
// relist after its watch broke. It queues one delta per listed object
// (Replaced, or Sync when EmitDeltaTypeReplaced is off), then a tombstone
// for every object someone still believes in that the list no longer has:
// first the keys with queued deltas, then the keys the consumer's cache
// (KnownObjects) holds. A watch deletion that was missed while the watch
// was down shows up here, as a Deleted DeletedFinalStateUnknown.
//
// The resource version is not used. An object that cannot be keyed stops
// Replace where it is: what was queued before it stays queued.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.Replace)
func (f *DeltaFIFO) Replace(list []any, _ string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	// exercise:begin 5 Replace: queue the list, then tombstones for the missing
	// exercise:hint You queue each listed object (Replaced or Sync), remembering its key. Then
	//   every key that is queued, or known to KnownObjects without queued deltas, but not listed,
	//   gets Deleted with a DeletedFinalStateUnknown.
	// exercise:deeper A queued key's tombstone carries its newest queued object, unwrapped when
	//   that is itself a tombstone; a known key's carries KnownObjects.GetByKey's object, or nil.
	//   The first Replace sets the initial count: listed keys plus tombstones (f.sync.firstList).
	action := Sync
	if f.emitDeltaTypeReplaced {
		action = Replaced
	}
	listed := make(map[string]bool, len(list))
	for _, obj := range list {
		key, err := f.KeyOf(obj)
		if err != nil {
			return KeyError{Obj: obj, Err: err}
		}
		listed[key] = true
		if err := f.queueActionLocked(action, obj); err != nil {
			return fmt.Errorf("couldn't enqueue object: %v", err)
		}
	}

	tombstones := 0
	// Keys waiting in the queue that the list dropped. Their newest delta
	// is the best final state there is.
	for _, key := range f.queue {
		if listed[key] {
			continue
		}
		last := f.items[key].Newest().Object
		if t, ok := last.(DeletedFinalStateUnknown); ok {
			last = t.Obj
		}
		tombstones++
		if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{Key: key, Obj: last}); err != nil {
			return err
		}
	}
	// Keys only the consumer holds. Their state is whatever it holds.
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if listed[key] || len(f.items[key]) > 0 {
				continue
			}
			last, exists, err := f.knownObjects.GetByKey(key)
			if err != nil || !exists {
				last = nil
			}
			tombstones++
			if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{Key: key, Obj: last}); err != nil {
				return err
			}
		}
	}

	f.sync.firstList(len(listed) + tombstones)
	return nil
	// exercise:end 5
}

// Resync hands the consumer's objects out again as Sync deltas, so that
// handlers get a periodic second look. A key with deltas already queued is
// skipped: its object in KnownObjects is older than what is queued, and a
// Sync behind those deltas would take the consumer back in time. Without
// KnownObjects there is nothing to resync.
//
// client-go: tools/cache/delta_fifo.go (DeltaFIFO.Resync, DeltaFIFO.syncKeyLocked)
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	// exercise:begin 6 Resync the known objects that are not queued
	// exercise:hint For each key KnownObjects lists, you look the object up and queue it as Sync,
	//   unless its key already has queued deltas.
	// exercise:deeper Skip a key whose lookup fails or finds nothing. Take the key from the object
	//   you got (f.KeyOf), not from the list.
	if f.knownObjects == nil {
		return nil
	}
	for _, key := range f.knownObjects.ListKeys() {
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			continue
		}
		id, err := f.KeyOf(obj)
		if err != nil {
			return KeyError{Obj: obj, Err: err}
		}
		if len(f.items[id]) > 0 {
			continue
		}
		if err := f.queueActionLocked(Sync, obj); err != nil {
			return fmt.Errorf("couldn't queue object: %v", err)
		}
	}
	return nil
	// exercise:end 6
}
