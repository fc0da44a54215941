package controller

import (
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
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
	// exercise:begin 3 Find the Rollout that owns a Deployment
	// exercise:hint Unwrap a tombstone (indexer.DeletedFinalStateUnknown) to its Obj, find the
	//   controlling owner reference, and enqueue that Rollout if it is a Rollout the lister knows.
	// exercise:deeper metav1.GetControllerOf gives the owner reference with controller=true;
	//   compare its Kind with "Rollout" and its APIVersion with
	//   v1alpha1.SchemeGroupVersion.String(), then c.rollouts.Get(namespace, owner.Name) and
	//   c.enqueueRollout.
	oldD, okOld := old.(*appsv1.Deployment)
	newD, okNew := new.(*appsv1.Deployment)
	if okOld && okNew && oldD.ResourceVersion == newD.ResourceVersion {
		return
	}
	c.handleObject(new)
	// exercise:end 3
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
	// exercise:begin 2 Enqueue a Rollout's key from the handlers
	// exercise:hint Turn the object into its "namespace/name" key, then add the key (not the
	//   object) to c.queue.
	// exercise:hint Tombstones arrive here too, so use the deletion-handling key function; on
	//   error, report it with c.errorf and drop the change.
	// exercise:deeper indexer.DeletionHandlingMetaNamespaceKeyFunc(obj) gives the key of an object
	//   or a tombstone; then c.queue.Add(key).
	key, err := indexer.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		c.errorf("cannot enqueue %T: %v", obj, err)
		return
	}
	c.queue.Add(key)
	c.tracef(StageQueue, key, "add: %d key(s) waiting", c.queue.Len())
	// exercise:end 2
}

// handleObject finds the Rollout that controls a Deployment and enqueues
// it. A Deployment without a controlling Rollout is not ours: its changes
// are ignored. obj may be a tombstone, whose Obj is the last state the
// informer saw.
//
// upstream: k8s.io/sample-controller/controller.go (Controller.handleObject)
func (c *Controller) handleObject(obj any) {
	// exercise:begin 3
	object, ok := obj.(metav1.Object)
	if !ok {
		tombstone, ok := obj.(indexer.DeletedFinalStateUnknown)
		if !ok {
			c.errorf("error decoding object, invalid type %T", obj)
			return
		}
		object, ok = tombstone.Obj.(metav1.Object)
		if !ok {
			c.errorf("error decoding object tombstone, invalid type %T", tombstone.Obj)
			return
		}
		c.tracef(StageHandler, tombstone.Key, "tombstone of deployment %s", object.GetName())
	}
	owner := metav1.GetControllerOf(object)
	if owner == nil || owner.Kind != "Rollout" || owner.APIVersion != v1alpha1.SchemeGroupVersion.String() {
		return
	}
	rollout, err := c.rollouts.Get(object.GetNamespace(), owner.Name)
	if err != nil {
		c.tracef(StageHandler, object.GetNamespace()+"/"+owner.Name, "ignoring orphaned deployment %s", object.GetName())
		return
	}
	c.tracef(StageHandler, object.GetNamespace()+"/"+owner.Name, "deployment %s belongs to this rollout", object.GetName())
	c.enqueueRollout(rollout)
	// exercise:end 3
}
