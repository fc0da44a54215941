// Your copy of ../pipeline.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=04` checks your work.

package processor

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "example.com/walkthrough/01-listwatch"
	deltafifo "example.com/walkthrough/02-deltafifo"
)

// NewWalkthroughPipeline builds the informer's upstream from the
// workshop's own parts: chapter 01's Reflector writing into chapter 02's
// RealFIFO (atomic or not) or DeltaFIFO. It is the default.
//
// Three small adapters join them:
//
//   - listerWatcher speaks chapter 01's ListerWatcher on top of a
//     client-go-shaped one (runtime.Object lists, watch.Interface), so the
//     informer keeps client-go's constructor and works with any
//     cache.ListWatch;
//   - transformingStore applies the informer's transform between the
//     Reflector and the FIFO (client-go's FIFOs do it themselves);
//   - fifoQueue is chapter 02's queue seen as this chapter's Queue.
//
// client-go: tools/cache/controller.go (newQueueFIFO, controller.RunWithContext)
func NewWalkthroughPipeline(cfg PipelineConfig) (Reflector, Queue) {
	var fifo interface {
		listwatch.ReflectorStore
		consumerFIFO
	}
	switch cfg.FIFO {
	case AtomicRealFIFO:
		fifo = deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{
			AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true,
		})
	case RealFIFO:
		fifo = deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{KnownObjects: cfg.KnownObjects})
	case DeltaFIFO:
		fifo = deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
			KnownObjects: cfg.KnownObjects, EmitDeltaTypeReplaced: true,
		})
	}
	var store listwatch.ReflectorStore = fifo
	if cfg.Transform != nil {
		store = &transformingStore{ReflectorStore: fifo, transform: cfg.Transform}
	}
	r := listwatch.NewReflector(&listerWatcher{lw: cfg.ListerWatcher}, cfg.ObjectType, store, listwatch.ReflectorOptions{
		Name: fmt.Sprintf("%T", cfg.ObjectType), ResyncPeriod: cfg.ResyncPeriod,
	})
	r.ShouldResync = cfg.ShouldResync
	if cfg.WatchErrorHandler != nil {
		r.WatchErrorHandler = func(ctx context.Context, _ *listwatch.Reflector, err error) { cfg.WatchErrorHandler(ctx, err) }
	}
	return r, &fifoQueue{fifo: fifo}
}

// consumerFIFO is the side of chapter 02's queues that HandleDeltas sees.
type consumerFIFO interface {
	Pop(process deltafifo.PopProcessFunc) (any, error)
	Close()
	HasSynced() bool
	HasSyncedChecker() deltafifo.DoneChecker
}

// fifoQueue is chapter 02's RealFIFO or DeltaFIFO as a Queue.
type fifoQueue struct{ fifo consumerFIFO }

func (q *fifoQueue) Pop(process PopProcessFunc) error {
	_, err := q.fifo.Pop(func(obj any, isInInitialList bool) error {
		return process(fromDeltaFIFO(obj.(deltafifo.Deltas)), isInInitialList)
	})
	if errors.Is(err, deltafifo.ErrFIFOClosed) {
		return ErrFIFOClosed
	}
	return err
}

// WaitSynced waits for the FIFO's synced channel, then asks its locked
// HasSynced. The two FIFOs close that channel at different moments:
//
//   - the RealFIFO counts a pop only after process returns, so its channel
//     already means "popped and processed";
//   - the DeltaFIFO, like client-go's, counts the pop of the last initial
//     key before process runs, so its channel closes while that key is
//     still on its way into the cache and to the handlers.
//
// Both FIFOs hold their lock while process runs (the RealFIFO may drop
// it, but its channel is late enough already), so the locked HasSynced
// returns only once the pop that closed the channel has finished. That
// is the answer client-go's low-level controller gives: its HasSynced is
// the DeltaFIFO's locked one, never the channel.
func (q *fifoQueue) WaitSynced(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-q.fifo.HasSyncedChecker().Done():
		return q.fifo.HasSynced()
	}
}

func (q *fifoQueue) Close() { q.fifo.Close() }

// fromDeltaFIFO converts chapter 02's deltas to this chapter's. The
// tombstones are chapter 03's in both.
func fromDeltaFIFO(in deltafifo.Deltas) Deltas {
	out := make(Deltas, len(in))
	for i, d := range in {
		obj := d.Object
		switch o := obj.(type) {
		case deltafifo.ReplacedAllInfo:
			obj = ReplacedAllInfo{ResourceVersion: o.ResourceVersion, Objects: o.Objects}
		case deltafifo.SyncAllInfo:
			obj = SyncAllInfo{}
		case deltafifo.BookmarkInfo:
			obj = BookmarkInfo{ResourceVersion: o.ResourceVersion}
		}
		out[i] = Delta{Type: DeltaType(d.Type), Object: obj}
	}
	return out
}

// transformingStore applies a transform to every object on its way into
// the FIFO, as client-go's FIFOs do: once per object, before it is queued.
type transformingStore struct {
	listwatch.ReflectorStore
	transform TransformFunc
}

// apply transforms one object. The Reflector only ever writes objects
// from the server, never tombstones, so there is nothing to skip.
func (s *transformingStore) apply(obj any) (any, error) { return s.transform(obj) }

func (s *transformingStore) Add(obj any) error {
	obj, err := s.apply(obj)
	if err != nil {
		return err
	}
	return s.ReflectorStore.Add(obj)
}

func (s *transformingStore) Update(obj any) error {
	obj, err := s.apply(obj)
	if err != nil {
		return err
	}
	return s.ReflectorStore.Update(obj)
}

func (s *transformingStore) Delete(obj any) error {
	obj, err := s.apply(obj)
	if err != nil {
		return err
	}
	return s.ReflectorStore.Delete(obj)
}

func (s *transformingStore) Replace(list []any, rv string) error {
	out := make([]any, len(list))
	for i, obj := range list {
		t, err := s.apply(obj)
		if err != nil {
			return err
		}
		out[i] = t
	}
	return s.ReflectorStore.Replace(out, rv)
}

// Bookmark passes bookmarks on when the FIFO wants them.
func (s *transformingStore) Bookmark(rv string) error {
	if b, ok := s.ReflectorStore.(listwatch.BookmarkStore); ok {
		return b.Bookmark(rv)
	}
	return nil
}

// listerWatcher is a client-go-shaped ListerWatcher seen as chapter 01's.
type listerWatcher struct{ lw ListerWatcher }

func (a *listerWatcher) List(_ context.Context, opts metav1.ListOptions) (*listwatch.List, error) {
	obj, err := a.lw.List(opts)
	if err != nil {
		return nil, err
	}
	lm, err := meta.ListAccessor(obj)
	if err != nil {
		return nil, err
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		return nil, err
	}
	return &listwatch.List{
		ResourceVersion: lm.GetResourceVersion(), Continue: lm.GetContinue(),
		RemainingItemCount: lm.GetRemainingItemCount(), Items: items,
	}, nil
}

func (a *listerWatcher) Watch(_ context.Context, opts metav1.ListOptions) (listwatch.Watcher, error) {
	w, err := a.lw.Watch(opts)
	if err != nil {
		return nil, err
	}
	return newWatcher(w), nil
}

// watcher relays a watch.Interface's events as chapter 01's, on one
// goroutine that ends when the stream ends or Stop is called.
type watcher struct {
	in   watch.Interface
	out  chan listwatch.Event
	stop chan struct{}
	once sync.Once
}

func newWatcher(in watch.Interface) *watcher {
	w := &watcher{in: in, out: make(chan listwatch.Event), stop: make(chan struct{})}
	go w.relay()
	return w
}

func (w *watcher) relay() {
	defer close(w.out)
	for {
		select {
		case <-w.stop:
			return
		case ev, ok := <-w.in.ResultChan():
			if !ok {
				return
			}
			out := listwatch.Event{Type: listwatch.EventType(ev.Type), Object: ev.Object}
			if ev.Type == watch.Error {
				out.Object = nil
				out.Err = statusError(ev.Object)
			}
			select {
			case w.out <- out:
			case <-w.stop:
				return
			}
		}
	}
}

func (w *watcher) ResultChan() <-chan listwatch.Event { return w.out }

func (w *watcher) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.in.Stop()
	})
}

// statusError turns an ERROR event's object into chapter 01's error.
func statusError(obj runtime.Object) error {
	if s, ok := obj.(*metav1.Status); ok {
		return &listwatch.StatusError{ErrStatus: *s}
	}
	return fmt.Errorf("unexpected watch error object: %T", obj)
}
