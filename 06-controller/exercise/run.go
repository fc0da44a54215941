// Your copy of ../run.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 06`
// checks your work, and `go run ./workshop/cmd/workshop hint 06 N` gives
// exercise N's hint.

package controller

import (
	"context"
	"errors"
	"sync"
	"time"

	"example.com/walkthrough/workshop/todo"
)

// ErrCacheSync is Run's error when the context ends before every informer
// has delivered its first list.
var ErrCacheSync = errors.New("failed to wait for caches to sync")

// Run waits for the informers' caches, starts the workers, and blocks
// until ctx ends. Then it shuts down gracefully: the queue accepts no new
// keys, every key a worker holds is finished (ShutDownWithDrain waits for
// their Done), and Run returns once every worker has stopped.
//
// The workers write with a context that outlives ctx until the drain is
// over, so a sync in flight at shutdown completes instead of failing
// halfway through.
//
// upstream: k8s.io/sample-controller/controller.go (Controller.Run)
func (c *Controller) Run(ctx context.Context, workers int) error {
	c.tracef(StageWorker, "", "waiting for informer caches to sync")
	if !c.waitForCacheSync(ctx) {
		c.queue.ShutDown()
		return ErrCacheSync
	}
	// ShutDownWithDrain stops the queue taking keys but, in client-go,
	// leaves the delaying queue's timer goroutine running: ShutDown ends it.
	defer c.queue.ShutDown()
	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()

	c.tracef(StageWorker, "", "starting %d workers", workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			defer c.recoverWorker()
			c.runWorker(workCtx)
		})
	}
	<-ctx.Done()
	c.tracef(StageWorker, "", "shutting down: no new keys; the workers finish the %d waiting", c.queue.Len())
	c.queue.ShutDownWithDrain()
	wg.Wait()
	c.tracef(StageWorker, "", "all workers stopped")
	return nil
}

// waitForCacheSync polls the Synced functions until all report true or
// ctx ends. Starting workers on a half-filled cache would make them
// create Deployments that already exist.
func (c *Controller) waitForCacheSync(ctx context.Context) bool {
	for {
		all := true
		for _, synced := range c.synced {
			if !synced() {
				all = false
				break
			}
		}
		if all {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// recoverWorker hands a worker's panic to Config.Crashed when set, and
// otherwise lets it crash the program.
func (c *Controller) recoverWorker() {
	if c.crashed == nil {
		return
	}
	if v := recover(); v != nil {
		c.crashed(v)
	}
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ sync.WaitGroup
	_ = time.After
)
