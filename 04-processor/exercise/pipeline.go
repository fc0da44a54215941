// Your copy of ../pipeline.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import (
	"context"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "example.com/walkthrough/01-listwatch"
	deltafifo "example.com/walkthrough/02-deltafifo"

	"example.com/walkthrough/workshop/todo"
)

// NewWalkthroughPipeline builds the informer's upstream from the
// workshop's own parts: chapter 01's Reflector (streaming its lists with
// WatchList when cfg asks and the ListerWatcher can) writing into chapter
// 02's RealFIFO (atomic or not) or DeltaFIFO. It is the default.
//
// Three small adapters join them:
//
//   - listerWatcher speaks chapter 01's ListerWatcher on top of a
//     client-go-shaped one (runtime.Object lists, watch.Interface), so the
//     informer keeps client-go's constructor and works with any
//     cache.ListWatch;
//   - reflectorStore applies the informer's transform between the
//     Reflector and the FIFO (client-go's FIFOs do it themselves), and
//     traces what it writes;
//   - fifoQueue is chapter 02's queue seen as this chapter's Queue.
//
// client-go: tools/cache/controller.go (newQueueFIFO, controller.RunWithContext)
func NewWalkthroughPipeline(cfg PipelineConfig) (Reflector, Queue) {
	var fifo interface {
		listwatch.ReflectorStore
		consumerFIFO
	}
	switch cfg.FIFO {
	case AtomicRealFIFO, DefaultFIFO:
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
	if cfg.Transform != nil || cfg.Tracer != nil {
		store = &reflectorStore{fifo: fifo, transform: cfg.Transform, tracer: cfg.Tracer}
	}
	lw := &listerWatcher{lw: cfg.ListerWatcher, tracer: cfg.Tracer}
	r := listwatch.NewReflector(lw, cfg.ObjectType, store, listwatch.ReflectorOptions{
		Name: fmt.Sprintf("%T", cfg.ObjectType), ResyncPeriod: cfg.ResyncPeriod,
		UseWatchList: cfg.WatchList && !watchListUnsupported(cfg.ListerWatcher),
	})
	r.ShouldResync = cfg.ShouldResync
	if cfg.WatchErrorHandler != nil {
		r.WatchErrorHandler = func(ctx context.Context, _ *listwatch.Reflector, err error) { cfg.WatchErrorHandler(ctx, err) }
	}
	if real, ok := fifo.(*deltafifo.RealFIFO); ok {
		return r, &realFIFOQueue{fifoQueue{fifo: fifo, tracer: cfg.Tracer}, real}
	}
	return r, &fifoQueue{fifo: fifo, tracer: cfg.Tracer}
}

// watchListUnsupported reports whether lw says it cannot serve a
// streaming list, as a ListerWatcher over a client or server without
// WatchList does.
//
// client-go: tools/cache/listwatch.go (ToListWatcherWithWatchListSemantics)
func watchListUnsupported(lw ListerWatcher) bool {
	u, ok := lw.(interface{ IsWatchListSemanticsUnSupported() bool })
	return ok && u.IsWatchListSemanticsUnSupported()
}

// consumerFIFO is the side of chapter 02's queues that HandleDeltas sees.
//
// client-go: tools/cache/fifo.go (Queue)
type consumerFIFO interface {
	Pop(process deltafifo.PopProcessFunc) (any, error)
	Close()
	HasSynced() bool
	HasSyncedChecker() deltafifo.DoneChecker
}

// fifoQueue is chapter 02's RealFIFO or DeltaFIFO as a Queue.
//
// client-go: none; an adapter: client-go's FIFOs are Queues themselves.
type fifoQueue struct {
	fifo   consumerFIFO
	tracer *Tracer
}

// Pop hands the next key's deltas to process, tracing the pop.
func (q *fifoQueue) Pop(process PopProcessFunc) error {
	_, err := q.fifo.Pop(func(obj any, isInInitialList bool) error {
		deltas := obj.(Deltas)
		q.tracer.popped(deltas, false)
		return process(deltas, isInInitialList)
	})
	return err
}

// realFIFOQueue is chapter 02's RealFIFO, which also pops in batches.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.PopBatch)
type realFIFOQueue struct {
	fifoQueue
	real *deltafifo.RealFIFO
}

// PopBatch hands a batch of deltas, or a lone one, to the matching
// process function, tracing the pop.
func (q *realFIFOQueue) PopBatch(processBatch, processSingle PopProcessFunc) error {
	return q.real.PopBatch(func(batch []Delta, isInInitialList bool) error {
		q.tracer.popped(batch, true)
		return processBatch(batch, isInInitialList)
	}, func(obj any, isInInitialList bool) error {
		deltas := obj.(Deltas)
		q.tracer.popped(deltas, false)
		return processSingle(deltas, isInInitialList)
	})
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

// reflectorStore is the FIFO as the Reflector writes it: each object
// transformed on its way in, as client-go's FIFOs do (once per object,
// before it is queued), and each write traced.
//
// client-go: tools/cache/the_real_fifo.go (RealFIFO.transformer)
type reflectorStore struct {
	fifo      listwatch.ReflectorStore
	transform TransformFunc
	tracer    *Tracer
}

// apply transforms one object. The Reflector only ever writes objects
// from the server, never tombstones, so there is nothing to skip.
func (s *reflectorStore) apply(obj any) (any, error) {
	if s.transform == nil {
		return obj, nil
	}
	return s.transform(obj)
}

func (s *reflectorStore) Add(obj any) error    { return s.write(Added, obj, s.fifo.Add) }
func (s *reflectorStore) Update(obj any) error { return s.write(Updated, obj, s.fifo.Update) }
func (s *reflectorStore) Delete(obj any) error { return s.write(Deleted, obj, s.fifo.Delete) }

// write transforms obj, traces the delta, and passes it to the FIFO
// through to.
func (s *reflectorStore) write(t DeltaType, obj any, to func(any) error) error {
	obj, err := s.apply(obj)
	if err != nil {
		return err
	}
	s.tracer.queued(Delta{Type: t, Object: obj})
	return to(obj)
}

// Replace transforms every listed object, traces the relist, and replaces
// the FIFO's contents with them.
func (s *reflectorStore) Replace(list []any, rv string) error {
	out := make([]any, len(list))
	for i, obj := range list {
		t, err := s.apply(obj)
		if err != nil {
			return err
		}
		out[i] = t
	}
	s.tracer.queued(Delta{Type: ReplacedAll, Object: ReplacedAllInfo{ResourceVersion: rv, Objects: out}})
	return s.fifo.Replace(out, rv)
}

// Resync traces a resync and asks the FIFO for one.
func (s *reflectorStore) Resync() error {
	s.tracer.queued(Delta{Type: SyncAll, Object: SyncAllInfo{}})
	return s.fifo.Resync()
}

// Bookmark passes bookmarks on when the FIFO wants them.
func (s *reflectorStore) Bookmark(rv string) error {
	b, ok := s.fifo.(listwatch.BookmarkStore)
	if !ok {
		return nil
	}
	s.tracer.queued(Delta{Type: Bookmark, Object: BookmarkInfo{ResourceVersion: rv}})
	return b.Bookmark(rv)
}

// listerWatcher is a client-go-shaped ListerWatcher seen as chapter 01's.
// The Reflector's context reaches a ListerWatcher that takes one.
//
// client-go: tools/cache/listwatch.go (ListerWatcher, ListerWatcherWithContext)
type listerWatcher struct {
	lw     ListerWatcher
	tracer *Tracer
}

// List lists through client-go's ListerWatcher (with the context when it
// takes one) and returns the items and the list's resource version.
func (a *listerWatcher) List(ctx context.Context, opts metav1.ListOptions) (*listwatch.List, error) {
	var obj runtime.Object
	var err error
	if lw, ok := a.lw.(ListerWatcherWithContext); ok {
		obj, err = lw.ListWithContext(ctx, opts)
	} else {
		obj, err = a.lw.List(opts)
	}
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
	a.tracer.listed(items, lm.GetResourceVersion())
	return &listwatch.List{
		ResourceVersion: lm.GetResourceVersion(), Continue: lm.GetContinue(),
		RemainingItemCount: lm.GetRemainingItemCount(), Items: items,
	}, nil
}

// Watch opens a watch through client-go's ListerWatcher (with the context
// when it takes one) and relays its events as chapter 01's.
func (a *listerWatcher) Watch(ctx context.Context, opts metav1.ListOptions) (listwatch.Watcher, error) {
	var w watch.Interface
	var err error
	if lw, ok := a.lw.(ListerWatcherWithContext); ok {
		w, err = lw.WatchWithContext(ctx, opts)
	} else {
		w, err = a.lw.Watch(opts)
	}
	if err != nil {
		return nil, err
	}
	return newWatcher(w, a.tracer), nil
}

// watcher relays a watch.Interface's events as chapter 01's, on one
// goroutine that ends when the stream ends or Stop is called.
//
// client-go: none; an adapter from watch.Interface to chapter 01's Watcher.
type watcher struct {
	in     watch.Interface
	out    chan listwatch.Event
	stop   chan struct{}
	once   sync.Once
	tracer *Tracer
}

// newWatcher starts relaying in's events, traced, until Stop.
func newWatcher(in watch.Interface, tracer *Tracer) *watcher {
	w := &watcher{in: in, out: make(chan listwatch.Event), stop: make(chan struct{}), tracer: tracer}
	go w.relay()
	return w
}

// relay passes each event on, an ERROR event as chapter 01's error, until
// Stop or until the watch ends, then closes the channel.
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
			w.tracer.watched(ev)
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

// Stop ends the relay and the watch under it, once.
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

// Tracer hears what passes each stage of the pipeline: chapter 06's live
// trace (make demo) is one. Every field may be nil; each is called on the
// goroutine of its stage, before the stage hands the thing on.
//
// client-go: none; it is how the demo shows a change going through.
type Tracer struct {
	// Listed: a LIST page came back with these items.
	Listed func(items []runtime.Object, resourceVersion string)
	// Watched: a watch event arrived (bookmarks and errors too).
	Watched func(ev watch.Event)
	// Queued: the Reflector writes into the FIFO. A relist is one
	// ReplacedAll (its Object a ReplacedAllInfo), whatever the FIFO makes
	// of it; a resync one SyncAll; a bookmark one Bookmark.
	Queued func(d Delta)
	// Popped: HandleDeltas is about to store and hand on what one pop
	// took; batch says it was a PopBatch of deltas for distinct keys.
	Popped func(deltas Deltas, batch bool)
}

func (t *Tracer) listed(items []runtime.Object, rv string) {
	if t != nil && t.Listed != nil {
		t.Listed(items, rv)
	}
}

func (t *Tracer) watched(ev watch.Event) {
	if t != nil && t.Watched != nil {
		t.Watched(ev)
	}
}

func (t *Tracer) queued(d Delta) {
	if t != nil && t.Queued != nil {
		t.Queued(d)
	}
}

func (t *Tracer) popped(deltas Deltas, batch bool) {
	if t != nil && t.Popped != nil {
		t.Popped(deltas, batch)
	}
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Sprintf
	_ = meta.ListAccessor
)
