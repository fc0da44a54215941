package processor_test

import (
	"context"
	"sync"
	"testing/synctest"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// An informer works on goroutines of its own. A panic there (an unfinished
// exercise, a bug) would kill the test binary, so the tests make
// utilruntime.HandleCrash, which every informer goroutine defers, log and
// record it instead, and the driver raises it again at the end of the
// step: the scenario runner then reports it like any other.
var crashes struct {
	sync.Mutex
	first any
}

func init() {
	utilruntime.ReallyCrash = false
	utilruntime.PanicHandlers = append(utilruntime.PanicHandlers, func(_ context.Context, r any) {
		crashes.Lock()
		defer crashes.Unlock()
		if crashes.first == nil {
			crashes.first = r
		}
	})
}

// takeCrash returns and forgets the first panic recorded.
func takeCrash() any {
	crashes.Lock()
	defer crashes.Unlock()
	r := crashes.first
	crashes.first = nil
	return r
}

// settle waits until every goroutine of the bubble is idle, then raises a
// panic one of them had.
func (d *driver) settle() {
	synctest.Wait()
	if r := takeCrash(); r != nil {
		panic(r)
	}
}
