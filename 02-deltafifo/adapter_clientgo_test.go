package deltafifo_test

import (
	"k8s.io/client-go/tools/cache"

	"example.com/walkthrough/workshop/scenario"
)

// The adapter for the real client-go: the goldens are recorded through it.
// It only translates types; the known objects are client-go's own Indexer.
func init() {
	neutral := func(ds cache.Deltas) []delta {
		if ds == nil {
			return nil
		}
		out := make([]delta, len(ds))
		for i, d := range ds {
			var obj any = d.Object
			switch o := d.Object.(type) {
			case cache.DeletedFinalStateUnknown:
				obj = tombstone{Key: o.Key, Obj: o.Obj}
			case cache.ReplacedAllInfo:
				obj = replacedAll{RV: o.ResourceVersion, Objects: o.Objects}
			case cache.SyncAllInfo:
				obj = syncAll{}
			case cache.BookmarkInfo:
				obj = bookmarkInfo{RV: o.ResourceVersion}
			}
			out[i] = delta{Type: string(d.Type), Object: obj}
		}
		return out
	}
	knownObjects := func(known knownStore) cache.KeyListerGetter {
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
		Pop(cache.PopProcessFunc) (any, error)
		HasSynced() bool
		Done() <-chan struct{}
		Close()
		IsClosed() bool
	}
	common := func(kind string, f fifo) queue {
		return queue{
			Kind: kind, Add: f.Add, Update: f.Update, Delete: f.Delete, Replace: f.Replace, Resync: f.Resync,
			Pop: func(process func([]delta, bool) error) ([]delta, error) {
				item, err := f.Pop(func(obj any, initial bool) error { return process(neutral(obj.(cache.Deltas)), initial) })
				ds, _ := item.(cache.Deltas)
				return neutral(ds), err
			},
			PopRaw: func() error {
				_, err := f.Pop(func(any, bool) error { return nil })
				return err
			},
			HasSynced: f.HasSynced, Done: f.Done, Close: f.Close, IsClosed: f.IsClosed,
		}
	}
	register(scenario.ClientGo, impl{
		NewKnown: func() knownStore {
			return cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{})
		},
		NewDeltaFIFO: func(known knownStore, emitReplaced bool) queue {
			f := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{KnownObjects: knownObjects(known), EmitDeltaTypeReplaced: emitReplaced})
			q := common("DeltaFIFO", f)
			q.KeyOf = f.KeyOf
			return q
		},
		NewRealFIFO: func(known knownStore, o realOptions) queue {
			f := cache.NewRealFIFOWithOptions(cache.RealFIFOOptions{
				KnownObjects: knownObjects(known), AtomicEvents: o.Atomic,
				UnlockWhileProcessing: o.Unlock, EmitDeltaTypeBookmark: o.Bookmarks,
			})
			q := common("RealFIFO", f)
			q.PopBatch = func(batch, single func([]delta, bool) error) error {
				return f.PopBatch(
					func(ds []cache.Delta, initial bool) error { return batch(neutral(ds), initial) },
					func(obj any, initial bool) error { return single(neutral(obj.(cache.Deltas)), initial) },
				)
			}
			q.Bookmark = f.Bookmark
			return q
		},
		Tombstone:   func(key string, obj any) any { return cache.DeletedFinalStateUnknown{Key: key, Obj: obj} },
		EmptyDeltas: func() any { return cache.Deltas{} },
	})
}
