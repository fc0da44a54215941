// Your copy of ../worker.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=06` checks your work.

package controller

import (
	"context"

	"example.com/walkthrough/workshop/todo"
)

// runWorker takes keys off the queue until the queue shuts down. Run
// starts several; the queue guarantees that no two of them ever hold the
// same key at once, so syncHandler never races itself on one Rollout.
func (c *Controller) runWorker(ctx context.Context) {
	// Exercise 5: The worker: take keys until shutdown, retry with backoff, forget on success.
	// Hint: runWorker calls processNextWorkItem until it returns false. processNextWorkItem gets a key (stop when the queue shuts down), always calls Done for it, then Forgets it when syncHandler succeeds or AddRateLimited it when it fails.
	panic(todo.Exercise("06-controller", 5, "runWorker calls processNextWorkItem until it returns false. processNextWorkItem gets a key (stop when the queue shuts down), always calls Done for it, then Forgets it when syncHandler succeeds or AddRateLimited it when it fails."))
}

// processNextWorkItem takes one key, syncs it, and tells the queue how it
// went. It returns false only when the queue has shut down.
//
// Every Get must be matched by a Done, or the key stays "processing"
// forever and is never handed out again. Success must be followed by
// Forget, or the key's failure count keeps growing and its next, unrelated
// failure waits as if it had failed all along. Failure is followed by
// AddRateLimited, which brings the key back after a backoff that doubles
// with each failure.
//
// client-go: k8s.io/sample-controller/controller.go (processNextWorkItem)
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	// Exercise 5, continued.
	// Hint: runWorker calls processNextWorkItem until it returns false. processNextWorkItem gets a key (stop when the queue shuts down), always calls Done for it, then Forgets it when syncHandler succeeds or AddRateLimited it when it fails.
	panic(todo.Exercise("06-controller", 5, "runWorker calls processNextWorkItem until it returns false. processNextWorkItem gets a key (stop when the queue shuts down), always calls Done for it, then Forgets it when syncHandler succeeds or AddRateLimited it when it fails."))
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
