package controller

import (
	"context"
)

// runWorker takes keys off the queue until the queue shuts down. Run
// starts several; the queue guarantees that no two of them ever hold the
// same key at once, so syncHandler never races itself on one Rollout.
func (c *Controller) runWorker(ctx context.Context) {
	// exercise:begin 5 The worker: take keys until shutdown, retry with backoff, forget on success
	// exercise:hint runWorker calls processNextWorkItem until it returns false. processNextWorkItem gets a key (stop when the queue shuts down), always calls Done for it, then Forgets it when syncHandler succeeds or AddRateLimited it when it fails.
	// exercise:deeper key, shutdown := c.queue.Get(); defer c.queue.Done(key); on error c.queue.AddRateLimited(key) and report with c.errorf; on success c.queue.Forget(key). Return true unless shutdown.
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
// with each failure.
//
// client-go: k8s.io/sample-controller/controller.go (processNextWorkItem)
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	// exercise:begin 5
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	c.tracef(StageWorker, key, "sync (attempt %d)", c.queue.NumRequeues(key)+1)
	if err := c.syncHandler(ctx, key); err != nil {
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
