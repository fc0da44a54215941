package watchserver_test

import (
	"testing"

	"example.com/walkthrough/workshop/cluster"
	"example.com/walkthrough/workshop/scenario"
)

// TestScenarios plays testdata/scenarios/*.txt over HTTP against the
// implementation chosen with WALKTHROUGH_IMPL: ours over an embedded etcd
// (reference, exercise) or a real kube-apiserver (client-go; skipped
// without a cluster). No bubble: etcd runs on real time and sockets.
//
// Our servers' files run side by side: each has an etcd and a server of
// its own and spends its time waiting for watches to time out. Against
// kube-apiserver they run one at a time: one etcd serves them all, and a
// compaction there would reach every file.
func TestScenarios(t *testing.T) {
	impl, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	parallel := impl != scenario.ClientGo
	if parallel {
		t.Parallel()
	}
	scenario.Run(t, scenario.Drivers(impls, startDriver), scenario.Options{Parallel: parallel, RecordedFrom: "kube-apiserver"})
}

// TestE2EScenariosOnKubeAPIServer replays every scenario against the real
// kube-apiserver and etcd of make e2e: the goldens were recorded there, so
// this proves they still describe it (make golden CH=07 re-records them).
func TestE2EScenariosOnKubeAPIServer(t *testing.T) {
	cluster.Require(t)
	if scenario.Rewriting() {
		t.Skip("recording runs through TestScenarios (make golden CH=07)")
	}
	scenario.RunImpl(t, scenario.Drivers(impls, startDriver), scenario.ClientGo, scenario.Options{RecordedFrom: "kube-apiserver"})
}

// TestScenarioCommands keeps the chapter doc's command reference the
// table's own.
func TestScenarioCommands(t *testing.T) { commands.CheckDoc(t) }

// commands is every command of the scenario files, one family per
// scenario_<family>_test.go. Any command that prints a failure Status
// prints its causes too when the step has the argument "causes".
var commands = scenario.NewTable(objectCommands, listCommands, watchCommands, etcdCommands, frameCommands, discoveryCommands, patchCommands, customCommands)
