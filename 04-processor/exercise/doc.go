// Your copy of ../doc.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

// Package processor is chapter 04 of the client-go walkthrough: the parts
// of chapters 01, 02 and 03 assembled into a SharedIndexInformer.
//
// A Reflector lists and watches the API server and writes what it sees
// into a FIFO. One goroutine pops the FIFO and hands each delta to
// HandleDeltas, which first brings the Indexer (chapter 03) up to date and
// then tells the shared processor. The processor fans each notification
// out to every registered handler. Each handler has its own listener: two
// goroutines and an unbounded buffer between them, so a slow handler never
// holds up the FIFO or the other handlers.
//
//	Reflector → FIFO → HandleDeltas → Indexer
//	                               └→ sharedProcessor → listener → handler
//	                                                  → listener → handler
//
// Read the files in this order:
//
//	handler.go        the handler interfaces and the three notifications
//	buffer.go         the growing ring buffer each listener keeps
//	synctrack.go      how one registration knows it has seen the initial list
//	listener.go       one handler's goroutine pair: pop() fills the buffer, run() calls the handler
//	processor.go      the listeners as a set: add, remove, distribute, resync bookkeeping
//	queue.go          what the informer needs from the FIFO and the Reflector
//	pipeline.go       chapter 01's Reflector and chapter 02's FIFO, joined for the informer
//	controller.go     the process loop that pops the FIFO
//	handle_deltas.go  turning deltas into cache writes, then notifications
//	informer.go       the SharedIndexInformer: handlers, lifecycle, late joiners
//	factory.go        one informer per type, however many callers ask
//	observe.go        PendingOf: what waits in the pipeline's FIFO, read-only, for chapter 06's viewer
//
// Everything here mirrors k8s.io/client-go/tools/cache; each type's
// comment names its counterpart. The chapter's scenarios
// (testdata/scenarios) were recorded from client-go v0.37.2's
// NewSharedIndexInformer on the same scripted ListerWatcher, and the same
// files check this code.
//
// Upstream of HandleDeltas the informer runs the workshop's own parts:
// chapter 01's Reflector and chapter 02's RealFIFO (atomic, as client-go
// does by default) or, as an option, the non-atomic RealFIFO or the
// classic DeltaFIFO. The pipeline is a seam (PipelineConfig,
// NewPipelineFunc): any Reflector and Queue with the same methods fit.
package processor
