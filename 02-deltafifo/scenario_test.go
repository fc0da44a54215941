package deltafifo_test

import (
	"testing"

	"example.com/walkthrough/workshop/scenario"
)

// TestScenarios plays testdata/scenarios/*.txt against the implementation
// chosen with WALKTHROUGH_IMPL (reference, exercise or client-go). Each file
// runs in a synctest bubble: a Pop on an empty queue blocks, and the
// driver sees that exactly, with synctest.Wait.
func TestScenarios(t *testing.T) {
	scenario.Run(t, scenario.Drivers(impls, startDriver), scenario.Options{Bubble: true})
}

// TestScenarioCommands keeps the chapter doc's command reference the
// table's own.
func TestScenarioCommands(t *testing.T) { commands.CheckDoc(t) }

// commands is every command of the scenario files, one family per
// scenario_<family>_test.go. All but the queue makers apply to every
// queue of the file, or to the one named by on=NAME, and a queue's Pop
// that was waiting reports when it returns (scenario_queues_test.go).
var commands = scenario.NewTable(queueCommands, writeCommands, readCommands, popCommands)

// driver plays the commands of one scenario file.
type driver struct {
	im    impl
	fifos []*fifo
}

func newDriver(im impl) *driver { return &driver{im: im} }

func startDriver(t testing.TB, im impl, _ *scenario.File) scenario.Driver {
	d := newDriver(im)
	t.Cleanup(d.closeAll) // release any Pop still waiting, so the bubble can end
	return commands.Driver(d)
}

// closeAll releases every waiting Pop at the end of a file.
func (d *driver) closeAll() {
	for _, f := range d.fifos {
		f.q.Close()
	}
}
