package indexer_test

import (
	"testing"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// TestScenarios plays testdata/scenarios/*.txt against the implementation
// chosen with WALKTHROUGH_IMPL (reference, exercise or client-go).
func TestScenarios(t *testing.T) {
	scenario.Run(t, scenario.Drivers(impls, newDriver), scenario.Options{})
}

// TestScenarioCommands keeps the chapter doc's command reference the
// table's own.
func TestScenarioCommands(t *testing.T) { commands.CheckDoc(t) }

// commands is every command of the scenario files, one family per
// scenario_<family>_test.go.
var commands = scenario.NewTable(storeCommands, indexCommands, keyCommands, listerCommands)

// driver plays the commands of one scenario file against one indexer.
type driver struct {
	im  impl
	idx handle
}

func newDriver(_ testing.TB, im impl, _ *scenario.File) scenario.Driver {
	return commands.Driver(&driver{im: im})
}

// indexer is the file's indexer, made on first use, so that a scenario of
// key functions alone runs no store code: its exercise does not wait for
// the store's.
func (d *driver) indexer() handle {
	if d.idx.Indexer == nil {
		d.idx = d.im.NewIndexer(false)
	}
	return d.idx
}

// objects is the step's input, one object a line.
func (d *driver) objects(t testing.TB, td *datadriven.TestData) []any {
	objs, err := parseObjects(d.im, td.Input)
	if err != nil {
		td.Fatalf(t, "%v", err)
	}
	return objs
}
