package controller_test

import (
	"context"
	"sync"
	"testing"

	"example.com/walkthrough/workshop/scenario"
)

// TestScenarios plays testdata/scenarios/*.txt. Each file runs in a
// testing/synctest bubble: the informers, the queue's backoff timers and
// the workers all run on the bubble's fake clock, so "advance 20ms" moves
// time by exactly that, and every step ends once every goroutine waits.
func TestScenarios(t *testing.T) {
	scenario.Run(t, scenario.Drivers(impls, newDriver), scenario.Options{Bubble: true})
}

// TestScenarioCommands keeps the chapter doc's command reference the
// table's own.
func TestScenarioCommands(t *testing.T) { commands.CheckDoc(t) }

// commands is every command of the scenario files, one family per
// scenario_<family>_test.go. A step that lets the controller work prints
// what it wrote (scenario_look_test.go says how).
var commands = scenario.NewTable(lifecycleCommands, writeCommands, faultCommands, controllerCommands, lookCommands)

// driver holds one scenario's world: two fake clientsets standing in for
// the API server, and the system under test.
type driver struct {
	t   testing.TB
	im  impl
	env env
	log *actionLog
	sys *system

	ctx     context.Context
	cancel  context.CancelFunc
	runDone chan error
	stopped bool

	mu       sync.Mutex
	panicked any      // the first panic caught in a handler or worker
	queued   []string // keys added to the queue during the step
	q        queue

	faultMu sync.Mutex
	faults  []*fault // what the "fail" steps refuse (installFaults)

	dropped int // failed writes that were not injected (races), not traced
	gets    int // keys the workers took from the queue (FuzzControllers counts syncs)
}

func newDriver(t testing.TB, im impl, _ *scenario.File) scenario.Driver {
	return commands.Driver(newDriverState(t, im))
}

// newDriverState is the driver of one file, for the tests that play
// steps of their own (FuzzControllers, TestDifferential).
func newDriverState(t testing.TB, im impl) *driver {
	d := &driver{t: t, im: im, log: &actionLog{}}
	d.env = d.newEnv()
	t.Cleanup(d.stop)
	return d
}
