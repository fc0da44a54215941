package processor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"

	"example.com/walkthrough/workshop/scenario"
)

// TestScenarios plays testdata/scenarios/*.txt against the implementation
// chosen with WALKTHROUGH_IMPL (reference, exercise or client-go). Each
// file runs in a testing/synctest bubble: every step ends when all the
// informer's goroutines are idle, and time moves only on "advance".
//
// Every file runs in two modes, against the same goldens: on today's path
// (client-go's default gates: WatchList, batch pops) as
// TestScenarios/<file>, and on the classic one (list+watch, one pop at a
// time; client-go with WatchListClient and InOrderInformersBatchProcess
// off) as TestScenarios/classic/<file>. The queue is the one the file's
// gates choose, in both. Goldens are recorded on today's path only.
func TestScenarios(t *testing.T) {
	drivers := scenario.Drivers(impls, newDriver)
	scenario.Run(t, drivers, scenario.Options{Bubble: true})
	t.Run("classic", func(t *testing.T) {
		if scenario.Rewriting() {
			t.Skip("goldens are recorded on today's path")
		}
		clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, false)
		clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.InOrderInformersBatchProcess, false)
		classicMode = true
		t.Cleanup(func() { classicMode = false })
		scenario.Run(t, drivers, scenario.Options{Bubble: true})
	})
}

// TestScenarioCommands keeps the chapter doc's command reference the
// table's own.
func TestScenarioCommands(t *testing.T) { commands.CheckDoc(t) }

// commands is every command of the scenario files, one family per
// scenario_<family>_test.go. Every step ends, after its own output, with
// what the handlers were called with during it (scenario_handler_test.go).
var commands = scenario.NewTable(informerCommands, serverCommands, handlerCommands, factoryCommands, ringCommands)

// driver plays the commands of one scenario file.
type driver struct {
	im      impl
	fifo    fifoKind
	lws     map[string]*scriptedLW // by kind
	inf     *informer
	ctx     context.Context
	cancel  context.CancelFunc
	runDone chan struct{}
	calls   callbacks
	fac     factoryState
	ring    ring
}

func newDriver(t testing.TB, im impl, f *scenario.File) scenario.Driver {
	d := &driver{im: im, fifo: fifoOf(f), lws: map[string]*scriptedLW{}, calls: newCallbacks(), fac: newFactoryState()}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	takeCrash() // a crash left over from an earlier file is not this file's
	takePlanned()
	t.Cleanup(d.cleanup)
	return d.step
}

func (d *driver) step(t testing.TB, td *datadriven.TestData) string {
	out := commands.Run(d, t, td)
	return strings.Join(append([]string{out}, d.calls.take(td.HasArg("set"))...), "\n")
}
