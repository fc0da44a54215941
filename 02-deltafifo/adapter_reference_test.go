package deltafifo_test

import (
	ours "example.com/walkthrough/02-deltafifo"
	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/workshop/scenario"
)

// The adapter for our own package. `make exercises` derives two twins
// from this file, so keep everything inside init (a twin must not
// redeclare anything): the exercise adapter, pointed at the exercise/
// copy, and the client-go adapter, through which the goldens are
// recorded. Our queues and indexer have client-go's API, so renaming
// the packages (the directive below) is all the client-go one needs; the
// known objects are then client-go's own Indexer.
//
//exgen:clientgo k8s.io/client-go/tools/cache ours indexer
func init() {
	neutral := func(ds ours.Deltas) []delta {
		if ds == nil {
			return nil
		}
		out := make([]delta, len(ds))
		for i, d := range ds {
			var obj any = d.Object
			switch o := d.Object.(type) {
			case ours.DeletedFinalStateUnknown:
				obj = tombstone{Key: o.Key, Obj: o.Obj}
			case ours.ReplacedAllInfo:
				obj = replacedAll{RV: o.ResourceVersion, Objects: o.Objects}
			case ours.SyncAllInfo:
				obj = syncAll{}
			case ours.BookmarkInfo:
				obj = bookmarkInfo{RV: o.ResourceVersion}
			}
			out[i] = delta{Type: string(d.Type), Object: obj}
		}
		return out
	}
	knownObjects := func(known knownStore) ours.KeyListerGetter {
		if known == nil {
			return nil // not a typed nil: the queue must see "no known objects"
		}
		return known
	}
	type fifo interface {
		Add(any) error
		Update(any) error
		Delete(any) error
		Replace([]any, string) error
		Resync() error
		Pop(ours.PopProcessFunc) (any, error)
		HasSynced() bool
		Done() <-chan struct{}
		Close()
		IsClosed() bool
	}
	common := func(kind string, f fifo) queue {
		return queue{
			Kind: kind, Add: f.Add, Update: f.Update, Delete: f.Delete, Replace: f.Replace, Resync: f.Resync,
			Pop: func(process func([]delta, bool) error) ([]delta, error) {
				item, err := f.Pop(func(obj any, initial bool) error { return process(neutral(obj.(ours.Deltas)), initial) })
				ds, _ := item.(ours.Deltas)
				return neutral(ds), err
			},
			PopRaw: func() error {
				_, err := f.Pop(func(any, bool) error { return nil })
				return err
			},
			HasSynced: f.HasSynced, Done: f.Done, Close: f.Close, IsClosed: f.IsClosed,
		}
	}
	register(scenario.Reference, impl{
		NewKnown: func() knownStore {
			return indexer.NewIndexer(indexer.DeletionHandlingMetaNamespaceKeyFunc, indexer.Indexers{})
		},
		NewDeltaFIFO: func(known knownStore, emitReplaced bool) queue {
			f := ours.NewDeltaFIFOWithOptions(ours.DeltaFIFOOptions{KnownObjects: knownObjects(known), EmitDeltaTypeReplaced: emitReplaced})
			q := common("DeltaFIFO", f)
			q.KeyOf = f.KeyOf
			return q
		},
		NewRealFIFO: func(known knownStore, o realOptions) queue {
			f := ours.NewRealFIFOWithOptions(ours.RealFIFOOptions{
				KnownObjects: knownObjects(known), AtomicEvents: o.Atomic,
				UnlockWhileProcessing: o.Unlock, EmitDeltaTypeBookmark: o.Bookmarks,
			})
			q := common("RealFIFO", f)
			q.PopBatch = func(batch, single func([]delta, bool) error) error {
				return f.PopBatch(
					func(ds []ours.Delta, initial bool) error { return batch(neutral(ds), initial) },
					func(obj any, initial bool) error { return single(neutral(obj.(ours.Deltas)), initial) },
				)
			}
			q.Bookmark = f.Bookmark
			return q
		},
		Tombstone:   func(key string, obj any) any { return ours.DeletedFinalStateUnknown{Key: key, Obj: obj} },
		EmptyDeltas: func() any { return ours.Deltas{} },
	})
}
