package ours

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "example.com/walkthrough/01-listwatch"
	deltafifo "example.com/walkthrough/02-deltafifo"
	processor "example.com/walkthrough/04-processor"
)

// newPipeline builds chapter 04's informer pipeline from the workshop's
// own parts: chapter 01's Reflector writing into chapter 02's atomic
// RealFIFO (client-go's default queue), which chapter 04's informer pops
// into chapter 03's Indexer and its handlers.
//
// client-go: tools/cache/shared_informer.go (sharedIndexInformer.Run, the part that builds the controller)
func newPipeline(resource string, trace func(stage, key, message string)) processor.NewPipelineFunc {
	return func(cfg processor.PipelineConfig) (processor.Reflector, processor.Queue) {
		fifo := deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{
			AtomicEvents:          true,
			UnlockWhileProcessing: true,
			EmitDeltaTypeBookmark: true,
		})
		lw := cfg.ListerWatcher.(*lwBridge).lw
		store := &tracedStore{fifo: fifo, trace: trace, resource: resource}
		r := listwatch.NewReflector(lw, cfg.ObjectType, store, listwatch.ReflectorOptions{
			Name:         resource,
			ResyncPeriod: cfg.ResyncPeriod,
		})
		r.ShouldResync = cfg.ShouldResync
		if cfg.WatchErrorHandler != nil {
			r.WatchErrorHandler = func(ctx context.Context, _ *listwatch.Reflector, err error) { cfg.WatchErrorHandler(ctx, err) }
		}
		return r, &fifoQueue{fifo: fifo, trace: trace, resource: resource}
	}
}

// lwBridge lets chapter 04 carry chapter 01's ListerWatcher to newPipeline.
// Chapter 04's informer holds a ListerWatcher of client-go's shape
// (List/Watch without a context); ours has chapter 01's shape. Nothing in
// chapter 04 calls it: only the pipeline does, through lw.
type lwBridge struct {
	lw *clientListWatch
}

func (b *lwBridge) List(opts metav1.ListOptions) (runtime.Object, error) {
	return b.lw.list(context.Background(), opts)
}

func (b *lwBridge) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return b.lw.watch(context.Background(), opts)
}

// tracedStore is the Reflector's store: the FIFO, with each write traced.
type tracedStore struct {
	fifo     *deltafifo.RealFIFO
	trace    func(stage, key, message string)
	resource string
}

func (s *tracedStore) note(verb string, obj any) {
	if m, err := meta.Accessor(obj); err == nil {
		s.trace(StageFIFO, m.GetNamespace()+"/"+m.GetName(), fmt.Sprintf("queue %s %s", verb, s.resource))
	}
}

func (s *tracedStore) Add(obj any) error    { s.note("Added", obj); return s.fifo.Add(obj) }
func (s *tracedStore) Update(obj any) error { s.note("Updated", obj); return s.fifo.Update(obj) }
func (s *tracedStore) Delete(obj any) error { s.note("Deleted", obj); return s.fifo.Delete(obj) }
func (s *tracedStore) Replace(list []any, rv string) error {
	s.trace(StageFIFO, "", fmt.Sprintf("queue ReplacedAll %s: %d items", s.resource, len(list)))
	return s.fifo.Replace(list, rv)
}
func (s *tracedStore) Resync() error            { return s.fifo.Resync() }
func (s *tracedStore) Bookmark(rv string) error { return s.fifo.Bookmark(rv) }

// fifoQueue is chapter 02's RealFIFO seen as chapter 04's Queue.
type fifoQueue struct {
	fifo     *deltafifo.RealFIFO
	trace    func(stage, key, message string)
	resource string
}

func (q *fifoQueue) Pop(process processor.PopProcessFunc) error {
	_, err := q.fifo.Pop(func(obj any, isInInitialList bool) error {
		deltas := toProcessor(obj.(deltafifo.Deltas))
		for _, d := range deltas {
			if m, merr := meta.Accessor(d.Object); merr == nil {
				q.trace(StageIndexer, m.GetNamespace()+"/"+m.GetName(), fmt.Sprintf("pop %s %s: store it, notify handlers", d.Type, q.resource))
			} else if d.Type == processor.ReplacedAll {
				q.trace(StageIndexer, "", fmt.Sprintf("pop ReplacedAll %s: store the list, notify handlers", q.resource))
			}
		}
		return process(deltas, isInInitialList)
	})
	if errors.Is(err, deltafifo.ErrFIFOClosed) {
		return processor.ErrFIFOClosed
	}
	return err
}

// WaitSynced waits for the RealFIFO's synced channel, which it closes only
// after the last initial pop has been processed.
func (q *fifoQueue) WaitSynced(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-q.fifo.Done():
		return true
	}
}
func (q *fifoQueue) Close() { q.fifo.Close() }

// toProcessor converts chapter 02's deltas into chapter 04's: the same
// values, declared once in each chapter so each stands alone.
func toProcessor(in deltafifo.Deltas) processor.Deltas {
	out := make(processor.Deltas, len(in))
	for i, d := range in {
		obj := d.Object
		switch o := obj.(type) {
		case deltafifo.ReplacedAllInfo:
			obj = processor.ReplacedAllInfo{ResourceVersion: o.ResourceVersion, Objects: o.Objects}
		case deltafifo.SyncAllInfo:
			obj = processor.SyncAllInfo{}
		case deltafifo.BookmarkInfo:
			obj = processor.BookmarkInfo{ResourceVersion: o.ResourceVersion}
		}
		out[i] = processor.Delta{Type: processor.DeltaType(d.Type), Object: obj}
	}
	return out
}
