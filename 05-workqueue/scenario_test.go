package workqueue_test

import (
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// TestScenarios plays testdata/scenarios/*.txt against the implementation
// chosen with WALKTHROUGH_IMPL (reference, exercise or client-go). Each
// file runs in its own synctest bubble: time stands still until a step
// says `advance`, so every delay and backoff in a trace is exact.
func TestScenarios(t *testing.T) {
	scenario.Run(t, scenario.Drivers(impls, newDriver), scenario.Options{Bubble: true})
}

// TestScenarioCommands keeps the chapter doc's command reference the
// table's own.
func TestScenarioCommands(t *testing.T) { commands.CheckDoc(t) }

// commands is every command of the scenario files, one family per
// scenario_<family>_test.go. Calls that block (Get on an empty queue,
// ShutDownWithDrain while a worker holds an item) run in goroutines the
// scenario names (`go-get w1`). After every step the driver waits for the
// bubble to settle, then reports what those goroutines did during the
// step ("w1 got a").
var commands = scenario.NewTable(queueCommands, blockingCommands, delayCommands, limiterCommands)

// driver plays the commands of one scenario file against one queue and
// one rate limiter.
type driver struct {
	im      impl
	q       *handle
	limiter RateLimiter
	start   time.Time
	calls   blockingCalls
}

func newDriver(t testing.TB, im impl, _ *scenario.File) scenario.Driver {
	d := &driver{im: im, start: time.Now()}
	t.Cleanup(d.cleanup)
	return d.step
}

func (d *driver) step(t testing.TB, td *datadriven.TestData) string {
	out := commands.Run(d, t, td)
	if events := d.calls.settle(); events != "" {
		out = strings.TrimPrefix(out+"\n"+events, "\n")
	}
	return out
}

// items are the step's arguments, each an item.
func items(td *datadriven.TestData) []string {
	var out []string
	for _, a := range td.CmdArgs {
		out = append(out, a.Key)
	}
	return out
}
