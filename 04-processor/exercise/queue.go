// Your copy of ../queue.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	deltafifo "example.com/walkthrough/02-deltafifo"
	indexer "example.com/walkthrough/03-indexer"
)

// This file says what the informer needs from the two chapters upstream of
// it, as small interfaces: a ListerWatcher and a Reflector (chapter 01)
// and a FIFO of deltas (chapter 02). pipeline.go provides them.

// ListerWatcher lists and watches one resource. It has client-go's method
// set, so one scripted ListerWatcher can feed both client-go's informer and
// ours.
//
// client-go: tools/cache/listwatch.go (ListerWatcher)
type ListerWatcher interface {
	List(options metav1.ListOptions) (runtime.Object, error)
	Watch(options metav1.ListOptions) (watch.Interface, error)
}

// ListerWatcherWithContext is a ListerWatcher that also takes the
// Reflector's context, so a LIST or WATCH in flight ends with the
// informer. The pipeline uses these methods when it finds them.
//
// client-go: tools/cache/listwatch.go (ListerWatcherWithContext)
type ListerWatcherWithContext interface {
	ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)
	WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)
}

// The deltas are chapter 02's, under this chapter's names: the same
// types, so what a FIFO pops reaches HandleDeltas without a conversion.
//
// client-go: tools/cache/delta_fifo.go (DeltaType, Delta, Deltas) and
// tools/cache/the_real_fifo.go (ReplacedAllInfo, SyncAllInfo, BookmarkInfo)
type (
	// DeltaType says what happened to an object.
	DeltaType = deltafifo.DeltaType
	// Delta is one change. Object is the object, a DeletedFinalStateUnknown
	// tombstone (for Deleted), or one of the Info types below.
	Delta = deltafifo.Delta
	// Deltas is what one Pop hands over: the changes to one object, oldest
	// first (one change at a time with a RealFIFO).
	Deltas = deltafifo.Deltas
	// ReplacedAllInfo is the Object of a ReplacedAll delta: a full relist.
	ReplacedAllInfo = deltafifo.ReplacedAllInfo
	// SyncAllInfo is the Object of a SyncAll delta: resync everything cached.
	SyncAllInfo = deltafifo.SyncAllInfo
	// BookmarkInfo is the Object of a Bookmark delta.
	BookmarkInfo = deltafifo.BookmarkInfo
)

const (
	Added    = deltafifo.Added
	Updated  = deltafifo.Updated
	Deleted  = deltafifo.Deleted
	Replaced = deltafifo.Replaced // the object was in a relist
	Sync     = deltafifo.Sync     // a periodic resync of a cached object
	// The atomic RealFIFO (client-go's default) turns a whole relist into
	// one ReplacedAll and a whole resync into one SyncAll, and passes
	// watch bookmarks on as Bookmark.
	ReplacedAll = deltafifo.ReplacedAll
	SyncAll     = deltafifo.SyncAll
	Bookmark    = deltafifo.Bookmark
)

// ErrFIFOClosed is what Pop returns once the queue is closed and empty.
var ErrFIFOClosed = deltafifo.ErrFIFOClosed

// PopProcessFunc handles what one Pop took. isInInitialList is true while
// the queue has not yet handed over all of its first list.
//
// client-go: tools/cache/fifo.go (PopProcessFunc)
type PopProcessFunc func(deltas Deltas, isInInitialList bool) error

// Queue is the consumer side of the FIFO between the Reflector and
// HandleDeltas.
//
// client-go: tools/cache/fifo.go (Queue)
type Queue interface {
	// Pop blocks until there is something to process, hands it to
	// process and returns process's error; ErrFIFOClosed once closed.
	Pop(process PopProcessFunc) error
	// WaitSynced blocks until the items of the first list have all been
	// popped and processed (stored, and handed to the handlers), and
	// reports true; or until ctx ends, and reports false.
	WaitSynced(ctx context.Context) bool
	// Close wakes Pop up for good.
	Close()
}

// Reflector keeps a Queue filled from a ListerWatcher.
//
// client-go: tools/cache/reflector.go (Reflector)
type Reflector interface {
	// Run lists, watches, relists on failure, and resyncs, until ctx ends.
	Run(ctx context.Context)
	// LastSyncResourceVersion is the resourceVersion last seen.
	LastSyncResourceVersion() string
}

// BatchQueue is a Queue that can also hand over a run of deltas, each for
// a different key, in one call (chapter 02's RealFIFO).
//
// client-go: tools/cache/fifo.go (QueueWithBatch), which the controller looks for
type BatchQueue interface {
	Queue
	// PopBatch is Pop for a run: two or more deltas go to processBatch
	// in one call, a lone one to processSingle.
	PopBatch(processBatch, processSingle PopProcessFunc) error
}

// Path chooses how an informer fills and drains its queue.
//
// client-go: none; the feature gates WatchListClient and
// InOrderInformersBatchProcess choose between the same two paths.
type Path int

const (
	// TodaysPath is client-go v0.37's default: a streaming list
	// (WatchList) that falls back to list+watch when the server cannot
	// stream, an atomic RealFIFO, and pops in batches.
	TodaysPath Path = iota
	// ClassicPath is the informer as it was for a decade: list+watch,
	// a DeltaFIFO, one pop at a time.
	ClassicPath
)

// FIFOKind chooses the queue between the Reflector and HandleDeltas.
//
// client-go: tools/cache/controller.go (newQueueFIFO), which picks the FIFO
// by feature gate
type FIFOKind int

const (
	// DefaultFIFO is the path's own queue: an AtomicRealFIFO on today's
	// path, a DeltaFIFO on the classic one.
	DefaultFIFO FIFOKind = iota
	// AtomicRealFIFO is client-go's default: one delta per event, in
	// arrival order, with relists and resyncs as single atomic entries.
	AtomicRealFIFO FIFOKind = iota
	// RealFIFO is the non-atomic RealFIFO: a relist becomes one Deleted
	// per vanished key and one Replaced per listed object.
	RealFIFO
	// DeltaFIFO is the classic queue: deltas coalesced per key, in key
	// order of first arrival.
	DeltaFIFO
)

// TransformFunc rewrites each object before it is queued (to strip
// fields nobody reads, say). It runs once per object.
//
// client-go: tools/cache/delta_fifo.go (TransformFunc)
type TransformFunc func(obj any) (any, error)

// WatchErrorHandler is told each time the Reflector's list-and-watch
// fails, before it backs off and tries again.
//
// client-go: tools/cache/reflector.go (WatchErrorHandlerWithContext), without the *Reflector
type WatchErrorHandler func(ctx context.Context, err error)

// PipelineConfig is everything needed to build the Reflector and the
// Queue for one informer.
//
// client-go: tools/cache/controller.go (Config)
type PipelineConfig struct {
	ListerWatcher ListerWatcher
	ObjectType    runtime.Object
	FIFO          FIFOKind
	// WatchList starts each list with a streaming list, unless the
	// ListerWatcher says it cannot (IsWatchListSemanticsUnSupported).
	WatchList bool
	// KnownObjects is the informer's cache; the non-atomic FIFOs read it
	// to find deletions on a relist and the objects to resync.
	KnownObjects indexer.Indexer
	Transform    TransformFunc
	// ResyncPeriod is how often the Reflector calls ShouldResync; 0 never.
	ResyncPeriod      time.Duration
	ShouldResync      func() bool
	WatchErrorHandler WatchErrorHandler
	// Tracer, when set, hears each stage; see Tracer.
	Tracer *Tracer
}

// NewPipelineFunc builds the Reflector and Queue of one informer.
//
// client-go: none; it lets the tests and the demo build a pipeline of
// their own (the exercise copy's, or client-go's).
type NewPipelineFunc func(cfg PipelineConfig) (Reflector, Queue)
