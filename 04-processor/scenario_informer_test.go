package processor_test

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// informerCommands make the file's informer, run it, stop it, move its
// clock, and read its cache.
var informerCommands = []scenario.Command[*driver]{
	{Name: "informer", Run: (*driver).newInformer,
		Usage: `informer [kind=pods|configmaps] [resync=D]
Makes the file's informer over the scripted server of KIND (pods by
default), with the default resync period D (none by default). Its queue is
the one the file's feature gates choose. Prints ok.`,
		Example: "informer resync=1s"},
	{Name: "start", Run: (*driver).start,
		Usage: `start
Runs the informer in a goroutine and waits until every goroutine is idle.
Prints ok.`},
	{Name: "stop", Run: (*driver).stop,
		Usage: `stop
Ends the informer's context and waits until every goroutine is idle.
Prints whether Run returned and what IsStopped says:
"run returned=true stopped=true".`},
	{Name: "advance", Run: (*driver).advance,
		Usage: `advance D
Moves the bubble's clock by D and waits until every goroutine is idle.
Prints ok.`,
		Example: "advance 1s"},
	{Name: "cache", Run: (*driver).cache,
		Usage: `cache [no-store-rv]
What the informer's cache holds, sorted (set), or (none); then the
store's LastStoreSyncResourceVersion and the informer's
LastSyncResourceVersion: store rv="10" last sync rv="10". no-store-rv
leaves the store's out (client-go's is "" while the AtomicFIFO gate is
off; chapter 03's indexer has no gates).`},
	{Name: "set-transform", Run: (*driver).setTransform,
		Usage: `set-transform
SetTransform with a transform that adds the label transformed:yes to every
object; ok or the error.`},
	{Name: "set-watch-error-handler", Run: (*driver).setWatchErrorHandler,
		Usage: `set-watch-error-handler
SetWatchErrorHandler with a handler that writes each error down; every
later step prints those as "watch error: TEXT". Prints ok or the error.`},
	{Name: "add-indexer", Run: (*driver).addIndexer,
		Usage: `add-indexer name=N
AddIndexer N, which indexes an object under its label "node"; ok or the
error.`,
		Example: "add-indexer name=byNode"},
	{Name: "by-index", Run: (*driver).byIndex,
		Usage: `by-index name=N value=V
ByIndex(N, V): the objects, sorted (set), or (none), or the error.`,
		Example: "by-index name=byNode value=n1"},
}

// fifoOf is the queue the file's feature gates choose, as client-go's
// informer chooses it: the gates the file turns off say which.
func fifoOf(f *scenario.File) fifoKind {
	off := func(gate string) bool {
		on, set := f.Features[gate]
		return set && !on
	}
	switch {
	case off("InOrderInformers"):
		return deltaFIFO
	case off("AtomicFIFO"):
		return realFIFO
	}
	return atomicRealFIFO
}

// informer is the file's informer; a step that needs one before it is
// made is a mistake in the scenario.
func (d *driver) informer(t testing.TB, td *datadriven.TestData) informer {
	if d.inf == nil {
		td.Fatalf(t, "no informer yet: start with `informer` or `factory-informer`")
	}
	return *d.inf
}

// cleanup releases what a file left waiting, so that its bubble can end.
func (d *driver) cleanup() {
	d.calls.unblockAll()
	d.cancel()
	d.fac.stop()
	if d.runDone != nil {
		// Time stops once the bubble's first goroutine returns: a
		// listener in its second's pause after a handler panicked (a
		// file that failed before the pause was over) would never wake.
		// Waiting here lets the clock run until Run returns; a minute
		// bounds it, for a Run that never does.
		select {
		case <-d.runDone:
		case <-time.After(time.Minute):
		}
	}
	synctest.Wait()
}

func (d *driver) newInformer(t testing.TB, td *datadriven.TestData) string {
	resync, _ := scenario.DurationArg(t, td, "resync")
	inf := d.im.NewInformer(d.lw(scenario.Arg(t, td, "kind")), resync, d.fifo)
	d.inf = &inf
	return "ok"
}

func (d *driver) start(t testing.TB, td *datadriven.TestData) string {
	inf := d.informer(t, td)
	d.runDone = make(chan struct{})
	go func() {
		defer close(d.runDone)
		inf.Run(d.ctx)
	}()
	d.settle()
	return "ok"
}

func (d *driver) stop(t testing.TB, td *datadriven.TestData) string {
	d.cancel()
	d.settle()
	returned := false
	select {
	case <-d.runDone:
		returned = true
	default:
	}
	return fmt.Sprintf("run returned=%t stopped=%t", returned, d.informer(t, td).IsStopped())
}

func (d *driver) advance(t testing.TB, td *datadriven.TestData) string {
	time.Sleep(scenario.Advance(t, td))
	d.settle()
	return "ok"
}

func (d *driver) cache(t testing.TB, td *datadriven.TestData) string {
	inf := d.informer(t, td)
	if td.HasArg("no-store-rv") {
		return formatSet(d.im, inf.List()) + fmt.Sprintf("\nlast sync rv=%q", inf.LastSyncRV())
	}
	return formatSet(d.im, inf.List()) + fmt.Sprintf("\nstore rv=%q last sync rv=%q", inf.StoreRV(), inf.LastSyncRV())
}

func (d *driver) setTransform(t testing.TB, td *datadriven.TestData) string {
	return notation.Result(d.informer(t, td).SetTransform(addTransformedLabel))
}

func (d *driver) setWatchErrorHandler(t testing.TB, td *datadriven.TestData) string {
	return notation.Result(d.informer(t, td).SetWatchErrorHandler(d.calls.watchError))
}

func (d *driver) addIndexer(t testing.TB, td *datadriven.TestData) string {
	return notation.Result(d.informer(t, td).AddIndexer(scenario.Arg(t, td, "name"), byNode))
}

func (d *driver) byIndex(t testing.TB, td *datadriven.TestData) string {
	objs, err := d.informer(t, td).ByIndex(scenario.Arg(t, td, "name"), scenario.Arg(t, td, "value"))
	if err != nil {
		return notation.Result(err)
	}
	return formatSet(d.im, objs)
}
