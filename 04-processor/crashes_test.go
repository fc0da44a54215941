package processor_test

import (
	"context"
	"fmt"
	"sync"
	"testing/synctest"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// An informer works on goroutines of its own. A panic there (an unfinished
// exercise, a bug) would kill the test binary, so the tests make
// utilruntime.HandleCrash, which every informer goroutine defers, log and
// record it instead, and the driver raises it again at the end of the
// step: the scenario runner then reports it like any other.
//
// A handler a scenario tells to panic ("handler name=N panic-on=KEY")
// panics with a handlerPanic: that one is the informer's to survive, not a
// bug, so it is written down for the step to print, "panic recovered:
// ...", and not raised again. The line shows that the panic reached
// HandleCrash's handlers, as client-go's does.
var crashes struct {
	sync.Mutex
	first   any
	planned []handlerPanic
}

func init() {
	utilruntime.ReallyCrash = false
	utilruntime.PanicHandlers = append(utilruntime.PanicHandlers, func(_ context.Context, r any) {
		crashes.Lock()
		defer crashes.Unlock()
		if p, ok := r.(handlerPanic); ok {
			crashes.planned = append(crashes.planned, p)
			return
		}
		if crashes.first == nil {
			crashes.first = r
		}
	})
}

// handlerPanic is what a scenario's handler panics with when told to.
type handlerPanic struct {
	handler string // its name
	call    string // the call it panicked in, as the recorder writes it
}

func (p handlerPanic) String() string {
	return fmt.Sprintf("handler %s panicked in %s, as its scenario asks: the listener recovers it "+
		"(utilruntime.HandleCrash), loses that notification, and goes on a second later", p.handler, p.call)
}

// takePlanned returns and forgets the planned panics recovered, as the
// step prints them.
func takePlanned() []string {
	crashes.Lock()
	defer crashes.Unlock()
	var out []string
	for _, p := range crashes.planned {
		out = append(out, fmt.Sprintf("panic recovered: handler %s panicked in %s", p.handler, p.call))
	}
	crashes.planned = nil
	return out
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
