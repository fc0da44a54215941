package processor

import (
	"context"
	"errors"
	"sync"

	"k8s.io/client-go/tools/cache"

	indexer "example.com/walkthrough/03-indexer"
)

// The informer's default upstream is the workshop's own (pipeline.go:
// chapter 01's Reflector, chapter 02's FIFOs). This file offers the other
// one: client-go's own Reflector and FIFOs behind the same Reflector and
// Queue interfaces. It was the stand-in while chapters 01 and 02 were
// being written; it stays so that you can swap upstreams and see that
// everything downstream of the FIFO behaves the same
// (SharedIndexInformerOptions.NewPipeline).
//
// client-go's Reflector takes its watch error handler only through the
// low-level controller's Config, so this runs client-go's controller
// (Reflector + FIFO + a process loop) and relays each popped item to our
// own process loop, waiting for our HandleDeltas to finish before
// client-go's FIFO counts it as processed. So "synced" still means "the
// first list has been handled".

// NewClientGoPipeline builds client-go's Reflector and Queue.
func NewClientGoPipeline(cfg PipelineConfig) (Reflector, Queue) {
	var transform cache.TransformFunc
	if cfg.Transform != nil {
		transform = cache.TransformFunc(cfg.Transform)
	}
	var fifo cache.Queue
	switch cfg.FIFO {
	case AtomicRealFIFO:
		fifo = cache.NewRealFIFOWithOptions(cache.RealFIFOOptions{
			KeyFunction: cache.MetaNamespaceKeyFunc, Transformer: transform,
			AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true,
		})
	case RealFIFO:
		fifo = cache.NewRealFIFOWithOptions(cache.RealFIFOOptions{
			KeyFunction: cache.MetaNamespaceKeyFunc, Transformer: transform, KnownObjects: cfg.KnownObjects,
		})
	case DeltaFIFO:
		fifo = cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{
			KnownObjects: cfg.KnownObjects, EmitDeltaTypeReplaced: true, Transformer: transform,
		})
	}
	p := &clientGoPipeline{fifo: fifo, handoff: make(chan *handoff), closed: make(chan struct{})}
	ccfg := &cache.Config{
		Queue:            fifo,
		ListerWatcher:    cfg.ListerWatcher,
		ObjectType:       cfg.ObjectType,
		FullResyncPeriod: cfg.ResyncPeriod,
		ShouldResync:     cfg.ShouldResync,
		Process: func(obj any, isInInitialList bool) error {
			return p.relay(obj.(cache.Deltas), isInInitialList)
		},
		// client-go pops runs of deltas with distinct keys in one go
		// (InOrderInformersBatchProcess); they reach our Pop as one
		// Deltas, which ProcessDeltas handles in order.
		ProcessBatch: func(deltas []cache.Delta, isInInitialList bool) error {
			return p.relay(cache.Deltas(deltas), isInInitialList)
		},
	}
	if cfg.WatchErrorHandler != nil {
		ccfg.WatchErrorHandlerWithContext = func(ctx context.Context, _ *cache.Reflector, err error) {
			cfg.WatchErrorHandler(ctx, err)
		}
	}
	p.ctrl = cache.New(ccfg)
	return p, p
}

// clientGoPipeline is client-go's controller seen as our Reflector and
// Queue.
type clientGoPipeline struct {
	ctrl    cache.Controller
	fifo    cache.Queue
	handoff chan *handoff // client-go's process loop → our Pop
	closed  chan struct{} // closed by Close
	once    sync.Once
}

// handoff is one popped item on its way to our process loop.
type handoff struct {
	deltas          Deltas
	isInInitialList bool
	result          chan error // buffered: our Pop never waits to report
}

var errProcessPanicked = errors.New("processing panicked")

// relay is client-go's Process: it hands the item to our Pop and waits for
// our processing to end.
func (p *clientGoPipeline) relay(deltas cache.Deltas, isInInitialList bool) error {
	h := &handoff{deltas: fromClientGo(deltas), isInInitialList: isInInitialList, result: make(chan error, 1)}
	select {
	case p.handoff <- h:
	case <-p.closed:
		return nil
	}
	select {
	case err := <-h.result:
		return err
	case <-p.closed:
		return nil
	}
}

func (p *clientGoPipeline) Run(ctx context.Context) { p.ctrl.RunWithContext(ctx) }

func (p *clientGoPipeline) LastSyncResourceVersion() string { return p.ctrl.LastSyncResourceVersion() }

func (p *clientGoPipeline) Pop(process PopProcessFunc) error {
	select {
	case h := <-p.handoff:
		reported := false
		defer func() {
			if !reported { // process panicked: let client-go's loop move on
				h.result <- errProcessPanicked
			}
		}()
		err := process(h.deltas, h.isInInitialList)
		reported = true
		h.result <- err
		return err
	case <-p.closed:
		return ErrFIFOClosed
	}
}

func (p *clientGoPipeline) Synced() <-chan struct{} { return p.fifo.HasSyncedChecker().Done() }

func (p *clientGoPipeline) Close() { p.once.Do(func() { close(p.closed) }) }

// fromClientGo converts client-go's deltas to ours, and its tombstones to
// chapter 03's.
func fromClientGo(in cache.Deltas) Deltas {
	out := make(Deltas, len(in))
	for i, d := range in {
		obj := d.Object
		switch o := obj.(type) {
		case cache.DeletedFinalStateUnknown:
			obj = indexer.DeletedFinalStateUnknown{Key: o.Key, Obj: o.Obj}
		case cache.ReplacedAllInfo:
			obj = ReplacedAllInfo{ResourceVersion: o.ResourceVersion, Objects: o.Objects}
		case cache.SyncAllInfo:
			obj = SyncAllInfo{}
		case cache.BookmarkInfo:
			obj = BookmarkInfo{ResourceVersion: o.ResourceVersion}
		}
		out[i] = Delta{Type: DeltaType(d.Type), Object: obj}
	}
	return out
}
