package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	indexer "example.com/walkthrough/03-indexer"
)

// runWorker takes keys off the queue until the queue shuts down. Run
// starts several; the queue guarantees that no two of them ever hold the
// same key at once, so syncHandler never races itself on one Rollout.
func (c *Controller) runWorker(ctx context.Context) {
	// exercise:begin 5 The worker: take keys until shutdown, retry with backoff, forget on success, give up in the end
	// exercise:hint runWorker calls processNextWorkItem until it returns false. processNextWorkItem
	//   gets a key (stop when the queue shuts down), always calls Done for it, then Forgets it when
	//   syncHandler succeeds. When the sync fails it AddRateLimited the key, unless the key has
	//   been requeued maxRetries times already: then giveUp forgets it and records a Warning event
	//   on the Rollout.
	// exercise:deeper key, shutdown := c.queue.Get(); defer c.queue.Done(key); on error, while
	//   c.queue.NumRequeues(key) < c.maxRetries, c.queue.AddRateLimited(key) and report with
	//   c.errorf; past that, giveUp: c.queue.Forget(key), and c.event(key, rollout, Warning,
	//   ReasonSyncFailed, "Gave up after %d retries: %v") when the lister still has the Rollout. On
	//   success c.queue.Forget(key). Return true unless shutdown.
	for c.processNextWorkItem(ctx) {
	}
	// exercise:end 5
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
	// exercise:begin 5
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	c.tracef(StageWorker, key, "sync (attempt %d)", c.queue.NumRequeues(key)+1)
	if err := c.syncHandler(ctx, key); err != nil {
		if c.queue.NumRequeues(key) >= c.maxRetries {
			c.giveUp(key, err)
			return true
		}
		c.queue.AddRateLimited(key)
		c.errorf("error syncing %q, requeuing: %v", key, err)
		c.tracef(StageQueue, key, "retry later: %v", err)
		return true
	}
	c.queue.Forget(key)
	c.tracef(StageWorker, key, "synced")
	return true
	// exercise:end 5
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
	// exercise:begin 5
	c.queue.Forget(key)
	c.errorf("dropping %q out of the queue after %d retries: %v", key, c.maxRetries, err)
	c.tracef(StageQueue, key, "gave up after %d retries: %v", c.maxRetries, err)
	namespace, name, splitErr := indexer.SplitMetaNamespaceKey(key)
	if splitErr != nil {
		return
	}
	if rollout, getErr := c.rollouts.Get(namespace, name); getErr == nil {
		c.event(key, rollout, corev1.EventTypeWarning, ReasonSyncFailed, "Gave up after %d retries: %v", c.maxRetries, err)
	}
	// exercise:end 5
}
