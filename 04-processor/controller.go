package processor

import (
	"context"
	"errors"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
)

// controller runs an informer's pipeline: the Reflector filling the Queue
// on one goroutine, and the process loop emptying it on this one. There is
// exactly one process loop, so deltas are handled one at a time, in queue
// order.
//
// client-go: tools/cache/controller.go (controller)
type controller struct {
	reflector Reflector
	queue     Queue
	process   PopProcessFunc
	// processBatch, when set and the queue is a BatchQueue, takes runs of
	// deltas popped at once (today's path); nil pops one at a time.
	processBatch PopProcessFunc
}

// run blocks until ctx ends and every goroutine it started has returned.
func (c *controller) run(ctx context.Context) {
	// A panic here, even in code you have not written yet, is logged and
	// reported, not fatal: the informer stops instead of the process.
	defer utilruntime.HandleCrashWithContext(ctx)
	// exercise:begin 7 The process loop: pop until the queue closes
	// exercise:hint run starts the Reflector, and a goroutine that closes the queue when ctx ends,
	//   then runs processLoop (again after a second if it ever returns early) until ctx ends, and
	//   waits for both goroutines. processLoop pops until ctx ends or the queue reports
	//   ErrFIFOClosed. pop uses PopBatch when the queue can batch and a batch handler is set, Pop
	//   otherwise.
	// exercise:deeper Closing the queue is what wakes a Pop blocked on an empty queue: without that
	//   goroutine, a stopped informer never returns from Run. Other errors from Pop (a handler's)
	//   do not end the loop. wait.UntilWithContext gives the one-second restart.
	// exercise:track deep
	var wg wait.Group
	defer wg.Wait()
	wg.Start(func() {
		<-ctx.Done()
		c.queue.Close() // wakes a Pop that waits for work
	})
	wg.StartWithContext(ctx, c.reflector.Run)
	// A panic in processing is logged and the loop restarts a second
	// later: the delta that panicked is lost, as in client-go.
	wait.UntilWithContext(ctx, c.processLoop, time.Second)
	// exercise:end 7
}

// processLoop pops until the queue is closed. Errors from processing are
// dropped: there is no retry, the next watch event or relist corrects the
// cache.
func (c *controller) processLoop(ctx context.Context) {
	// exercise:begin 7
	for {
		select {
		case <-ctx.Done():
			return
		default:
		}
		if err := c.pop(); errors.Is(err, ErrFIFOClosed) {
			return
		}
	}
	// exercise:end 7
}

// pop takes the next item, or the next batch when the controller and the
// queue both can.
func (c *controller) pop() error {
	// exercise:begin 7
	if bq, ok := c.queue.(BatchQueue); ok && c.processBatch != nil {
		return bq.PopBatch(c.processBatch, c.process)
	}
	return c.queue.Pop(c.process)
	// exercise:end 7
}
