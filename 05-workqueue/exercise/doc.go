// Your copy of ../doc.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 05`
// checks your work, and `go run ./workshop/cmd/workshop hint 05 N` gives
// exercise N's hint.

// Package workqueue is chapter 05 of the client-go walkthrough: the queue a
// controller's workers take their work from.
//
// An informer tells a controller that something changed; the controller
// does not act on the event there and then. It puts a key ("namespace/name")
// on a work queue, and a few workers take keys off it and reconcile them.
// The queue is what makes that safe and cheap: a key added ten times before
// a worker gets to it is reconciled once; a key is never held by two
// workers at once; a key that fails is retried later, a little later each
// time.
//
// Read the files in this order:
//
//	queue.go               the queue: FIFO order, the dirty set and the processing set
//	metrics.go             the hooks a queue reports through, and their metric names
//	metrics_memory.go      a tiny provider that keeps the numbers in memory
//	waiting.go             a heap of items waiting for their ready time
//	delaying_queue.go      AddAfter: the queue plus a goroutine that wakes at ready times
//	rate_limiters.go       how long to wait before a retry: per item, overall, or both
//	rate_limiting_queue.go AddRateLimited, Forget and NumRequeues: the queue controllers use
//	observe.go             Observe: what a queue holds at one moment, read-only, for chapter 06's viewer
//
// Everything here mirrors k8s.io/client-go/util/workqueue; each type's
// comment names its counterpart. The chapter's scenarios (testdata/scenarios)
// were recorded from client-go v0.37.2 inside a testing/synctest bubble, so
// every delay in them is exact, and the same files check this code.
package workqueue
