// Your copy of ../informer.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	klog "k8s.io/klog/v2"

	indexer "example.com/walkthrough/03-indexer"

	"example.com/walkthrough/workshop/todo"
)

// minimumResyncPeriod is the shortest resync period a handler can get.
const minimumResyncPeriod = time.Second

// SharedIndexInformer is one cache of one resource, shared by any number
// of handlers. Run starts the pipeline
//
//	Reflector → Queue → HandleDeltas → Indexer, then sharedProcessor → listeners
//
// and the Indexer (chapter 03) is what every lister reads. Handlers can be
// added before or after Run; one added after gets the cache replayed to
// it as adds, so every handler sees a consistent story.
//
// Locking: startedLock guards the lifecycle flags and the settings that
// can only change before Run; blockDeltas is held while one popped item is
// handled, and by a late AddEventHandler or a RemoveEventHandler, so a
// handler joins or leaves between two items, never in the middle of one.
//
// client-go: tools/cache/shared_informer.go (sharedIndexInformer)
type SharedIndexInformer struct {
	indexer   indexer.Indexer
	processor *sharedProcessor
	// synced is closed once the queue has handed over and we have handled
	// the whole first list.
	synced chan struct{}

	listerWatcher ListerWatcher
	objectType    runtime.Object
	fifo          FIFOKind
	path          Path
	newPipeline   NewPipelineFunc
	tracer        *Tracer

	// resyncCheckPeriod is how often the Reflector asks shouldResync. It
	// starts at the informer's default and goes down to the smallest
	// handler period added before Run.
	resyncCheckPeriod               time.Duration
	defaultEventHandlerResyncPeriod time.Duration

	startedLock       sync.Mutex
	started, stopped  bool
	reflector         Reflector // set by Run
	transform         TransformFunc
	watchErrorHandler WatchErrorHandler

	blockDeltas sync.Mutex
}

// SharedIndexInformerOptions configures NewSharedIndexInformerWithOptions.
//
// client-go: tools/cache/shared_informer.go (SharedIndexInformerOptions)
type SharedIndexInformerOptions struct {
	// ResyncPeriod is the default handler resync period and the initial
	// resync check period; 0 turns resync off for every handler.
	ResyncPeriod time.Duration
	Indexers     indexer.Indexers
	// Path chooses today's informer (the default) or the classic one;
	// the doc's "Two paths" table says what differs.
	Path Path
	// FIFO chooses the queue; DefaultFIFO is the path's own
	// (AtomicRealFIFO today, DeltaFIFO on the classic path).
	FIFO FIFOKind
	// NewPipeline builds the Reflector and Queue; nil means
	// NewWalkthroughPipeline (chapters 01 and 02).
	NewPipeline NewPipelineFunc
	// Tracer, when set, hears each stage of the pipeline.
	Tracer *Tracer
}

// NewSharedIndexInformer makes an informer for the objects lw lists, of
// exampleObject's type.
//
// client-go: tools/cache/shared_informer.go (NewSharedIndexInformer)
func NewSharedIndexInformer(lw ListerWatcher, exampleObject runtime.Object, defaultEventHandlerResyncPeriod time.Duration, indexers indexer.Indexers) *SharedIndexInformer {
	return NewSharedIndexInformerWithOptions(lw, exampleObject, SharedIndexInformerOptions{ResyncPeriod: defaultEventHandlerResyncPeriod, Indexers: indexers})
}

// NewSharedIndexInformerWithOptions makes an informer with options.
func NewSharedIndexInformerWithOptions(lw ListerWatcher, exampleObject runtime.Object, options SharedIndexInformerOptions) *SharedIndexInformer {
	if options.NewPipeline == nil {
		options.NewPipeline = NewWalkthroughPipeline
	}
	if options.Indexers == nil {
		options.Indexers = indexer.Indexers{}
	}
	if options.FIFO == DefaultFIFO {
		options.FIFO = AtomicRealFIFO
		if options.Path == ClassicPath {
			options.FIFO = DeltaFIFO
		}
	}
	return &SharedIndexInformer{
		indexer:                         indexer.NewIndexer(indexer.DeletionHandlingMetaNamespaceKeyFunc, options.Indexers),
		processor:                       newSharedProcessor(),
		synced:                          make(chan struct{}),
		listerWatcher:                   lw,
		objectType:                      exampleObject,
		fifo:                            options.FIFO,
		path:                            options.Path,
		newPipeline:                     options.NewPipeline,
		tracer:                          options.Tracer,
		resyncCheckPeriod:               options.ResyncPeriod,
		defaultEventHandlerResyncPeriod: options.ResyncPeriod,
	}
}

// GetIndexer returns the cache. Read it; never write it.
func (s *SharedIndexInformer) GetIndexer() indexer.Indexer { return s.indexer }

// GetStore returns the cache as a plain Store.
func (s *SharedIndexInformer) GetStore() indexer.Store { return s.indexer }

// SetTransform sets the function applied to every object before it is
// queued. Only before Run.
func (s *SharedIndexInformer) SetTransform(transform TransformFunc) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.started {
		return fmt.Errorf("informer has already started")
	}
	s.transform = transform
	return nil
}

// SetWatchErrorHandler sets the function told about each failed
// list-and-watch. Only before Run.
func (s *SharedIndexInformer) SetWatchErrorHandler(handler WatchErrorHandler) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.started {
		return fmt.Errorf("informer has already started")
	}
	s.watchErrorHandler = handler
	return nil
}

// AddIndexers adds indexes to the cache, even while running, but not once
// stopped.
func (s *SharedIndexInformer) AddIndexers(indexers indexer.Indexers) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.stopped {
		return fmt.Errorf("indexer was not added because it has stopped already")
	}
	return s.indexer.AddIndexers(indexers)
}

// Run runs the informer until ctx ends, then stops every listener, and
// returns once all of its goroutines have.
//
// client-go: tools/cache/shared_informer.go (sharedIndexInformer.RunWithContext)
func (s *SharedIndexInformer) Run(ctx context.Context) {
	defer utilruntime.HandleCrashWithContext(ctx)
	ctrl, ok := s.start()
	if !ok {
		klog.FromContext(ctx).Info("Warning: the sharedIndexInformer has started, run more than once is not allowed")
		return
	}

	// The processor outlives the controller: it is stopped only after the
	// last delta has been handled, and Run waits for its goroutines.
	processorCtx, stopProcessor := context.WithCancel(context.WithoutCancel(ctx))
	var wg wait.Group
	defer wg.Wait()
	defer stopProcessor()
	wg.StartWithContext(processorCtx, s.processor.run)
	wg.Start(func() {
		if ctrl.queue.WaitSynced(ctx) {
			close(s.synced)
		}
	})
	defer func() {
		s.startedLock.Lock()
		defer s.startedLock.Unlock()
		s.stopped = true // no new handlers from now on
	}()
	ctrl.run(ctx)
}

// start builds the pipeline and marks the informer started, once.
func (s *SharedIndexInformer) start() (*controller, bool) {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.started {
		return nil, false
	}
	reflector, queue := s.newPipeline(PipelineConfig{
		ListerWatcher:     s.listerWatcher,
		ObjectType:        s.objectType,
		FIFO:              s.fifo,
		WatchList:         s.path == TodaysPath,
		KnownObjects:      s.indexer,
		Transform:         s.transform,
		ResyncPeriod:      s.resyncCheckPeriod,
		ShouldResync:      s.processor.shouldResync,
		WatchErrorHandler: s.watchErrorHandler,
		Tracer:            s.tracer,
	})
	s.reflector = reflector
	s.started = true
	ctrl := &controller{reflector: reflector, queue: queue, process: s.HandleDeltas}
	if s.path == TodaysPath {
		ctrl.processBatch = s.HandleBatchDeltas
	}
	return ctrl, true
}

// HasStarted reports whether Run has been called.
func (s *SharedIndexInformer) HasStarted() bool {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	return s.started
}

// IsStopped reports whether Run has returned (or is returning).
func (s *SharedIndexInformer) IsStopped() bool {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	return s.stopped
}

// HasSynced reports whether the first list has been handled: the cache
// holds it and every handler has been sent its notifications (not
// necessarily handled them: see the registration's HasSynced).
func (s *SharedIndexInformer) HasSynced() bool {
	select {
	case <-s.synced:
		return true
	default:
		return false
	}
}

// LastSyncResourceVersion is the resourceVersion the Reflector last saw.
func (s *SharedIndexInformer) LastSyncResourceVersion() string {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.reflector == nil {
		return ""
	}
	return s.reflector.LastSyncResourceVersion()
}

// HandlerOptions configures AddEventHandlerWithOptions.
//
// client-go: tools/cache/shared_informer.go (HandlerOptions)
type HandlerOptions struct {
	// ResyncPeriod is the handler's resync period; nil means the
	// informer's default, 0 means never.
	ResyncPeriod *time.Duration
}

// AddEventHandler registers a handler with the informer's default resync
// period.
func (s *SharedIndexInformer) AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{})
}

// AddEventHandlerWithResyncPeriod registers a handler with its own resync
// period (0: never).
func (s *SharedIndexInformer) AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{ResyncPeriod: &resyncPeriod})
}

// AddEventHandlerWithOptions registers a handler. Its resync period is
// adjusted: raised to one second at least; before Run, a period below the
// check period lowers the check period (and every listener's period is
// worked out again); after Run, it is raised to the check period; and an
// informer that never resyncs gives every handler 0.
//
// client-go: tools/cache/shared_informer.go (sharedIndexInformer.AddEventHandlerWithOptions)
func (s *SharedIndexInformer) AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error) {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.stopped {
		return nil, fmt.Errorf("handler %v was not added to shared informer because it has stopped already", handler)
	}

	resyncPeriod := s.defaultEventHandlerResyncPeriod
	if options.ResyncPeriod != nil {
		resyncPeriod = *options.ResyncPeriod
	}
	if resyncPeriod > 0 {
		resyncPeriod = max(resyncPeriod, minimumResyncPeriod)
		if resyncPeriod < s.resyncCheckPeriod {
			if s.started {
				resyncPeriod = s.resyncCheckPeriod
			} else {
				s.resyncCheckPeriod = resyncPeriod
				s.processor.resyncCheckPeriodChanged(resyncPeriod)
			}
		}
	}

	listener := newProcessorListener(handler, resyncPeriod, determineResyncPeriod(resyncPeriod, s.resyncCheckPeriod), time.Now(), initialBufferSize, s.synced)
	if !s.started {
		handle, _ := s.processor.addListener(listener)
		return handle, nil
	}
	return s.joinRunning(listener), nil
}

// joinRunning adds a listener to a running informer. The handler must
// hear about everything already cached, and then about every later
// change, with nothing missed or doubled in between.
func (s *SharedIndexInformer) joinRunning(listener *processorListener) ResourceEventHandlerRegistration {
	// Exercise 15: joinRunning adds a listener to a running informer.
	panic(todo.Exercise("04-processor", 15, "SharedIndexInformer.joinRunning"))
}

// RemoveEventHandler unregisters a handler. Notifications it has not been
// given yet are dropped. Removing twice, or after stop, is not an error.
func (s *SharedIndexInformer) RemoveEventHandler(handle ResourceEventHandlerRegistration) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return s.processor.removeListener(handle)
}

// HandleDeltas is the process function the controller pops into: it
// handles one item with every handler's membership held still.
//
// client-go: tools/cache/shared_informer.go (sharedIndexInformer.handleDeltas)
func (s *SharedIndexInformer) HandleDeltas(deltas Deltas, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return ProcessDeltas(s, s.indexer, deltas, isInInitialList)
}

// HandleBatchDeltas is HandleDeltas for a batch popped at once: deltas
// for distinct keys, all stored before any handler hears of them.
//
// client-go: tools/cache/shared_informer.go (sharedIndexInformer.handleBatchDeltas)
func (s *SharedIndexInformer) HandleBatchDeltas(deltas Deltas, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return ProcessDeltaBatch(s, s.indexer, deltas, isInInitialList)
}

// OnAdd, OnUpdate and OnDelete make the informer the handler that
// ProcessDeltas notifies: each turns a change into a notification for the
// processor.

// OnAdd hands an add to every listener.
func (s *SharedIndexInformer) OnAdd(obj any, isInInitialList bool) {
	s.processor.distribute(addNotification{newObj: obj, isInInitialList: isInInitialList}, false)
}

// OnUpdate marks an update whose resourceVersion did not change as a sync,
// which only the listeners due a resync receive.
func (s *SharedIndexInformer) OnUpdate(oldObj, newObj any) {
	isSync := false
	if n, err := meta.Accessor(newObj); err == nil {
		if o, err := meta.Accessor(oldObj); err == nil {
			isSync = n.GetResourceVersion() == o.GetResourceVersion()
		}
	}
	s.processor.distribute(updateNotification{oldObj: oldObj, newObj: newObj}, isSync)
}

// OnDelete hands a deletion to every listener.
func (s *SharedIndexInformer) OnDelete(obj any) {
	s.processor.distribute(deleteNotification{oldObj: obj}, false)
}

// determineResyncPeriod is the period a listener gets: 0 stays 0 (never),
// anything becomes 0 when the informer never checks, and nothing is
// shorter than the check period.
func determineResyncPeriod(desired, check time.Duration) time.Duration {
	switch {
	case desired == 0:
		return 0
	case check == 0:
		return 0
	case desired < check:
		return check
	}
	return desired
}

// WaitForCacheSync polls the functions every 100ms until all are true
// (true) or stop is closed (false). It checks once before waiting, so it
// can return true even with stop already closed.
//
// client-go: tools/cache/shared_informer.go (WaitForCacheSync)
func WaitForCacheSync(stop <-chan struct{}, cacheSyncs ...func() bool) bool {
	err := wait.PollImmediateUntil(100*time.Millisecond, func() (bool, error) {
		for _, synced := range cacheSyncs {
			if !synced() {
				return false, nil
			}
		}
		return true, nil
	}, stop)
	return err == nil
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
	_ = meta.Accessor
	_ = utilruntime.HandleCrashWithContext
	_ = wait.PollImmediateUntil
	_ = klog.FromContext
)
