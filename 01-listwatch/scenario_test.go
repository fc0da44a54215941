package listwatch_test

import (
	"testing"

	"example.com/walkthrough/01-listwatch/lwscenario"
	"example.com/walkthrough/workshop/scenario"
)

// TestScenarios plays testdata/scenarios/*.txt against the implementation
// chosen with WALKTHROUGH_IMPL, each file in a synctest bubble, on the
// scripted test server. The commands and their driver are in lwscenario,
// which chapter 07 plays on its own server too.
func TestScenarios(t *testing.T) {
	start := func(t testing.TB, im impl, f *scenario.File) scenario.Driver {
		return lwscenario.New(t, im, &lwscenario.Scripted{}, f).Step
	}
	scenario.Run(t, scenario.Drivers(impls, start), scenario.Options{Bubble: true})
}

// TestScenarioCommands keeps the chapter doc's command reference the
// table's own.
func TestScenarioCommands(t *testing.T) { lwscenario.Commands.CheckDoc(t) }
