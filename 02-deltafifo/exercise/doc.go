// Your copy of ../doc.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 02`
// checks your work, and `go run ./workshop/cmd/workshop hint 02 N` gives
// exercise N's hint.

// Package deltafifo is chapter 02 of the client-go walkthrough: the queue
// between the Reflector, which lists and watches the API server, and the
// informer, which keeps the cache of chapter 03 and calls your handlers.
//
// The queue decouples the two: the Reflector writes as fast as events
// arrive, and the informer pops at its own pace. What the queue keeps while
// the consumer is busy, and in which order it hands it out, is what this
// chapter is about. It teaches two answers, in the order client-go gave
// them.
//
// Part 1, the DeltaFIFO (the classic). Changes pile up per object: each
// key holds the list of deltas that happened to it since it was last
// popped, and keys are popped in the order they first arrived. A relist
// turns objects that vanished into tombstones, using the consumer's cache
// (the "known objects") to know what it holds.
//
// Part 2, the RealFIFO (what informers use: by default since Kubernetes
// 1.33, and always since 1.36, where InOrderInformers is locked on). A plain
// log: one delta per call, popped one at a time, in arrival order, with no
// merging per key. In atomic mode a relist is a single ReplacedAll delta
// and a resync a single SyncAll delta.
//
// Read the files in this order:
//
//	delta.go              delta types, Deltas, tombstones, and the has-synced bookkeeping both queues share
//	deltafifo.go          the DeltaFIFO: deltas per key, deletion dedup, Pop
//	deltafifo_relist.go   the DeltaFIFO's Replace (tombstones) and Resync
//	realfifo.go           the RealFIFO: a log of deltas, its options and Pop
//	realfifo_relist.go    the RealFIFO's Replace and Resync, atomic or not, and Bookmark
//	popbatch.go           PopBatch: handing out several deltas in one call
//	observe.go            Pending: what waits in either queue, read-only, for chapter 06's viewer
//
// Everything here mirrors k8s.io/client-go/tools/cache; each type's comment
// names its counterpart. The chapter's scenarios (testdata/scenarios) were
// recorded from client-go v0.37.2, and the same files check this code.
package deltafifo
