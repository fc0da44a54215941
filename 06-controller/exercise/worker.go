// Your copy of ../worker.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 06`
// checks your work, and `go run ./workshop/cmd/workshop hint 06 N` gives
// exercise N's hint.

package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	indexer "example.com/walkthrough/03-indexer"

	"example.com/walkthrough/workshop/todo"
)

// runWorker takes keys off the queue until the queue shuts down. Run
// starts several; the queue guarantees that no two of them ever hold the
// same key at once, so syncHandler never races itself on one Rollout.
func (c *Controller) runWorker(ctx context.Context) {
	// Exercise 5: runWorker takes keys off the queue until the queue shuts down.
	panic(todo.Exercise("06-controller", 5, "Controller.runWorker"))
}

// processNextWorkItem takes one key, syncs it, and tells the queue how it
// went. It returns false only when the queue has shut down.
//
// Every Get must be matched by a Done, or the key stays "processing"
// forever and is never handed out again. Success must be followed by
// Forget, or the key's failure count keeps growing and its next, unrelated
// failure waits as if it had failed all along. Failure is followed by
// AddRateLimited, which brings the key back after a backoff that doubles
// with each failure. Backoff alone never stops retrying: after maxRetries
// requeues in a row the worker gives up on the key.
//
// upstream: k8s.io/sample-controller/controller.go (Controller.processNextWorkItem)
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	// Exercise 5: processNextWorkItem takes one key, syncs it, and tells the queue how it went.
	panic(todo.Exercise("06-controller", 5, "Controller.processNextWorkItem"))
}

// giveUp drops a key whose sync failed maxRetries times after the first
// try. Forget clears its failure count, so the next change to the Rollout
// or its Deployment starts again from the shortest backoff, and a Warning
// event on the Rollout tells its owner why nothing happens meanwhile.
//
// upstream: k8s.io/kubernetes/pkg/controller/deployment/deployment_controller.go
// (DeploymentController.handleErr), the maxRetries pattern of
// kube-controller-manager's controllers
func (c *Controller) giveUp(key string, err error) {
	// Exercise 5: giveUp drops a key whose sync failed maxRetries times after the first try.
	panic(todo.Exercise("06-controller", 5, "Controller.giveUp"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = corev1.EventTypeWarning
	_ = indexer.SplitMetaNamespaceKey
)
