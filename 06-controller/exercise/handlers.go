// Your copy of ../handlers.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 06`
// checks your work, and `go run ./workshop/cmd/workshop hint 06 N` gives
// exercise N's hint.

package controller

import (
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"

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
	// Exercise 3: OnDeploymentUpdate is the Deployment informer's update handler.
	panic(todo.Exercise("06-controller", 3, "Controller.OnDeploymentUpdate"))
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
// upstream: k8s.io/sample-controller/controller.go (Controller.enqueueFoo)
func (c *Controller) enqueueRollout(obj any) {
	// Exercise 2: enqueueRollout adds the key of a Rollout (or of a Rollout's tombstone) to the queue.
	panic(todo.Exercise("06-controller", 2, "Controller.enqueueRollout"))
}

// handleObject finds the Rollout that controls a Deployment and enqueues
// it. A Deployment without a controlling Rollout is not ours: its changes
// are ignored. obj may be a tombstone, whose Obj is the last state the
// informer saw.
//
// upstream: k8s.io/sample-controller/controller.go (Controller.handleObject)
func (c *Controller) handleObject(obj any) {
	// Exercise 3: handleObject finds the Rollout that controls a Deployment and enqueues it.
	panic(todo.Exercise("06-controller", 3, "Controller.handleObject"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ appsv1.Deployment
	_ = metav1.GetControllerOf
	_ = indexer.DeletionHandlingMetaNamespaceKeyFunc
	_ = v1alpha1.SchemeGroupVersion
)
