// Your copy of ../handlers.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=06` checks your work.

package controller

import (
	"example.com/walkthrough/workshop/todo"
)

// The handlers are what the informers call. They run on the informer's
// notification goroutine, so they do no work: each turns a change into a
// key and adds it to the queue, and returns. A slow handler would hold up
// every later notification of its informer.

// OnRolloutAdd is the Rollout informer's add handler.
func (c *Controller) OnRolloutAdd(obj any) {
	c.enqueueRollout(obj)
}

// OnRolloutUpdate is the Rollout informer's update handler. A resync also
// arrives here, with old and new the same object; the Rollout is enqueued
// anyway, so a resync re-checks every Deployment against its Rollout.
func (c *Controller) OnRolloutUpdate(old, new any) {
	c.enqueueRollout(new)
}

// OnRolloutDelete is the Rollout informer's delete handler. The Deployment
// goes with its owner through garbage collection; the sync only notes that
// the Rollout is gone. obj may be a tombstone.
func (c *Controller) OnRolloutDelete(obj any) {
	c.enqueueRollout(obj)
}

// OnDeploymentAdd is the Deployment informer's add handler.
func (c *Controller) OnDeploymentAdd(obj any) {
	c.handleObject(obj)
}

// OnDeploymentUpdate is the Deployment informer's update handler. Two
// versions of one Deployment always differ in resourceVersion; the same
// resourceVersion means a resync, which says nothing new about an owned
// object, so it is skipped.
func (c *Controller) OnDeploymentUpdate(old, new any) {
	// Exercise 3: Find the Rollout that owns a Deployment.
	// Hint: Unwrap a tombstone (indexer.DeletedFinalStateUnknown) to its Obj, find the controlling owner reference, and enqueue that Rollout if it is a Rollout the lister knows.
	panic(todo.Exercise("06-controller", 3, "Unwrap a tombstone (indexer.DeletedFinalStateUnknown) to its Obj, find the controlling owner reference, and enqueue that Rollout if it is a Rollout the lister knows."))
}

// OnDeploymentDelete is the Deployment informer's delete handler. When the
// informer missed the delete itself (its watch broke and a relist found the
// Deployment gone), obj is a tombstone carrying the last state it saw.
func (c *Controller) OnDeploymentDelete(obj any) {
	c.handleObject(obj)
}

// enqueueRollout adds the key of a Rollout (or of a Rollout's tombstone)
// to the queue. It never adds the object: the worker must read the newest
// state from the lister, and two changes to one Rollout must collapse into
// one key in the queue.
//
// client-go: k8s.io/sample-controller/controller.go (enqueueFoo)
func (c *Controller) enqueueRollout(obj any) {
	// Exercise 2: Enqueue a Rollout's key from the handlers.
	// Hint: Turn the object into its "namespace/name" key, then add the key (not the object) to c.queue. Tombstones arrive here too, so use the deletion-handling key function; on error, report it with c.errorf and drop the change.
	panic(todo.Exercise("06-controller", 2, "Turn the object into its \"namespace/name\" key, then add the key (not the object) to c.queue. Tombstones arrive here too, so use the deletion-handling key function; on error, report it with c.errorf and drop the change."))
}

// handleObject finds the Rollout that controls a Deployment and enqueues
// it. A Deployment without a controlling Rollout is not ours: its changes
// are ignored. obj may be a tombstone, whose Obj is the last state the
// informer saw.
//
// client-go: k8s.io/sample-controller/controller.go (handleObject)
func (c *Controller) handleObject(obj any) {
	// Exercise 3, continued.
	// Hint: Unwrap a tombstone (indexer.DeletedFinalStateUnknown) to its Obj, find the controlling owner reference, and enqueue that Rollout if it is a Rollout the lister knows.
	panic(todo.Exercise("06-controller", 3, "Unwrap a tombstone (indexer.DeletedFinalStateUnknown) to its Obj, find the controlling owner reference, and enqueue that Rollout if it is a Rollout the lister knows."))
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
