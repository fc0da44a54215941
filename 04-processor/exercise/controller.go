// Your copy of ../controller.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import (
	"context"
	"errors"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"

	"example.com/walkthrough/workshop/todo"
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
}

// processLoop pops until the queue is closed. Errors from processing are
// dropped: there is no retry, the next watch event or relist corrects the
// cache.
func (c *controller) processLoop(ctx context.Context) {
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
}

// pop takes the next item, or the next batch when the controller and the
// queue both can.
func (c *controller) pop() error {
	if bq, ok := c.queue.(BatchQueue); ok && c.processBatch != nil {
		return bq.PopBatch(c.processBatch, c.process)
	}
	return c.queue.Pop(c.process)
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = errors.Is
	_ = time.Second
	_ = wait.UntilWithContext
)
