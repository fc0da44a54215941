package processor_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// factoryCommands drive a shared informer factory: the informers it hands
// out, its Start, its sync, its stop and its Shutdown.
var factoryCommands = []scenario.Command[*driver]{
	{Name: "factory", Run: (*driver).newFactory,
		Usage: `factory [resync=D] [namespace=NS] [label-selector=S] [transform] [custom-resync=KIND:D2]
Makes the file's shared informer factory, with the default resync period
D, and the options: one namespace (WithNamespace), a label selector on
every request (WithTweakListOptions), set-transform's transform on every
informer (WithTransform), KIND's own resync period D2
(WithCustomResyncConfig). Prints ok.`,
		Example: "factory namespace=demo label-selector=app=web"},
	{Name: "factory-informer", Run: (*driver).factoryInformer,
		Usage: `factory-informer kind=pods|configmaps
Asks the factory for KIND's informer, built over the scripted server of
KIND the first time. Prints "new informer" the first time, then "same
informer as before: true|false". The first informer asked for becomes the
file's informer, which the informer and handler commands act on.`,
		Example: "factory-informer kind=pods"},
	{Name: "factory-start", Run: (*driver).factoryStart,
		Usage: `factory-start
Start, then waits until every goroutine is idle. Prints ok.`},
	{Name: "factory-wait-for-cache-sync", Run: (*driver).factoryWaitForCacheSync,
		Usage: `factory-wait-for-cache-sync
WaitForCacheSync: "TYPE: true|false" for each informer's type, sorted, or
(none).`},
	{Name: "factory-shutdown", Run: (*driver).factoryShutdown,
		Usage: `factory-shutdown
Shutdown, in a goroutine (the first time), then waits until every goroutine
is idle. Prints "Shutdown returned" or "Shutdown still waiting".`},
	{Name: "factory-stop", Run: (*driver).factoryStop,
		Usage: `factory-stop
Closes the channel Start was given, then waits until every goroutine is
idle. Prints ok.`},
}

// factoryState is the file's factory, and what the steps learned of it.
type factoryState struct {
	fac      *factory
	ids      map[string]any // kind → the informer first returned
	stopCh   chan struct{}
	shutdown chan struct{} // closed when Shutdown returns
}

func newFactoryState() factoryState { return factoryState{ids: map[string]any{}} }

// stop closes the stop channel, unless a step did.
func (f *factoryState) stop() {
	if f.stopCh == nil {
		return
	}
	select {
	case <-f.stopCh:
	default:
		close(f.stopCh)
	}
}

func (d *driver) newFactory(t testing.TB, td *datadriven.TestData) string {
	resync, _ := scenario.DurationArg(t, td, "resync")
	opts := factoryOptions{Namespace: scenario.Arg(t, td, "namespace"), LabelSelector: scenario.Arg(t, td, "label-selector"), Transform: td.HasArg("transform")}
	if c := scenario.Arg(t, td, "custom-resync"); c != "" {
		kind, period, _ := strings.Cut(c, ":")
		v, err := time.ParseDuration(period)
		if err != nil {
			td.Fatalf(t, "custom-resync: %v", err)
		}
		opts.Resync = map[string]time.Duration{kind: v}
	}
	f := d.im.NewFactory(resync, opts)
	d.fac.fac = &f
	d.fac.stopCh = make(chan struct{})
	return "ok"
}

func (d *driver) factoryInformer(t testing.TB, td *datadriven.TestData) string {
	kind := scenario.Arg(t, td, "kind")
	id, inf := d.fac.fac.InformerFor(kind, d.lw(kind))
	if d.inf == nil {
		d.inf = &inf
	}
	first, seen := d.fac.ids[kind]
	if !seen {
		d.fac.ids[kind] = id
		return "new informer"
	}
	return fmt.Sprintf("same informer as before: %t", first == id)
}

func (d *driver) factoryStart(testing.TB, *datadriven.TestData) string {
	d.fac.fac.Start(d.fac.stopCh)
	d.settle()
	return "ok"
}

func (d *driver) factoryWaitForCacheSync(testing.TB, *datadriven.TestData) string {
	synced := d.fac.fac.WaitForCacheSync(d.fac.stopCh)
	if len(synced) == 0 {
		return "(none)"
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(synced)) {
		out = append(out, fmt.Sprintf("%s: %t", name, synced[name]))
	}
	return strings.Join(out, "\n")
}

func (d *driver) factoryShutdown(testing.TB, *datadriven.TestData) string {
	if d.fac.shutdown == nil {
		d.fac.shutdown = make(chan struct{})
		go func() {
			d.fac.fac.Shutdown()
			close(d.fac.shutdown)
		}()
	}
	d.settle()
	select {
	case <-d.fac.shutdown:
		return "Shutdown returned"
	default:
		return "Shutdown still waiting"
	}
}

func (d *driver) factoryStop(testing.TB, *datadriven.TestData) string {
	close(d.fac.stopCh)
	d.settle()
	return "ok"
}
