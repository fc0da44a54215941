package deltafifo

// batchable are the delta types that may share a batch: each is about one
// object. ReplacedAll, SyncAll and Bookmark are about everything, so they
// always travel alone.
var batchable = map[DeltaType]bool{Added: true, Updated: true, Deleted: true, Replaced: true, Sync: true}

// PopBatch takes a run of deltas from the head of the log and hands it to
// processBatch in one call, or a lone delta to processSingle. A batch
// stays safe to apply in any order because it never holds two deltas for
// the same key. It ends before:
//
//   - the batch size (1000) is reached;
//   - the first delta that is not part of the initial list, while that list
//     is still being handed out, so HasSynced stays exact;
//   - a delta that cannot be batched (it is popped alone if it is first);
//   - a second delta for a key already in the batch;
//
// and right after a delta whose key cannot be computed: that delta is
// taken, so a broken delta cannot block the queue.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.PopBatch)
func (f *RealFIFO) PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	// exercise:begin 10 Pop a batch of deltas for distinct keys
	// exercise:hint You wait like Pop does, then take deltas from the head while they are
	//   batchable, for new keys, and within both the batch size and what is left of the initial
	//   list. A lone delta goes to processSingle as a Deltas of one; two or more go to
	//   processBatch.
	// exercise:deeper Read isInInitialList before taking anything. A non-batchable head is taken
	//   alone. A delta whose key fails is taken, then the batch ends. The batch counts against the
	//   first list after processing (defer f.sync.popped(n)), and processing goes through
	//   f.processLocked.
	if err := f.waitLocked(); err != nil {
		return err
	}
	inInitialList := !f.sync.syncedClosed
	var batch []Delta
	keys := map[string]bool{}
	for _, d := range f.items {
		if len(batch) == batchSize || (f.sync.initialCount > 0 && len(batch) >= f.sync.initialCount) {
			break
		}
		if !batchable[d.Type] {
			if len(batch) == 0 {
				batch = append(batch, d)
			}
			break
		}
		key, err := f.keyOf(d)
		if err != nil {
			batch = append(batch, d)
			break
		}
		if keys[key] {
			break
		}
		keys[key] = true
		batch = append(batch, d)
	}
	clear(f.items[:len(batch)]) // let the collector have the objects
	f.items = f.items[len(batch):]
	defer f.sync.popped(len(batch))

	if len(batch) == 1 {
		return f.processLocked(func() error { return processSingle(Deltas{batch[0]}, inInitialList) })
	}
	return f.processLocked(func() error { return processBatch(batch, inInitialList) })
	// exercise:end 10
}
