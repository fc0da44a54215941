package controller_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// controllerCommands call the controller's parts directly, as no worker
// or informer would at that moment.
var controllerCommands = []scenario.Command[*driver]{
	{Name: "sync", Run: (*driver).sync,
		Usage: `sync NS/NAME
Runs the sync of one key directly, with no worker and no queue, then waits
until every goroutine is idle. Prints ok or the error, then the
controller's writes.`,
		Example: "sync demo/web"},
	{Name: "tombstone", Run: (*driver).tombstone,
		Usage: `tombstone rollout|deployment NS/NAME
Hands the Rollout or Deployment delete handler a tombstone
(DeletedFinalStateUnknown) of the object as the API server holds it, as an
informer does when its watch missed the delete, then waits until every
goroutine is idle. Prints
"queued: KEY ..." (the keys the handler queued, or (nothing)), then the
controller's writes.`,
		Example: "tombstone deployment demo/web"},
}

func (d *driver) sync(_ testing.TB, td *datadriven.TestData) string {
	err := d.sys.Sync(context.Background(), td.CmdArgs[0].Key)
	d.settle()
	return d.render(notation.Result(err))
}

func (d *driver) tombstone(t testing.TB, td *datadriven.TestData) string {
	if len(td.CmdArgs) != 2 {
		td.Fatalf(t, "tombstone rollout|deployment NS/NAME")
	}
	key := td.CmdArgs[1].Key
	get, handler := d.env.Kube.Tracker().Get, d.sys.DeploymentDelete
	gvr := deploymentsGVR
	switch td.CmdArgs[0].Key {
	case "rollout":
		get, handler, gvr = d.env.Walk.Tracker().Get, d.sys.RolloutDelete, rolloutsGVR
	case "deployment":
	default:
		td.Fatalf(t, "tombstone rollout|deployment NS/NAME: not %q", td.CmdArgs[0].Key)
	}
	obj, err := get(gvr, nsOf(key), nameOf(key))
	if err != nil {
		td.Fatalf(t, "tombstone: %v", err)
	}
	d.takeQueued()
	handler(d.sys.Tombstone(key, obj))
	d.settle()
	q := d.takeQueued()
	if len(q) == 0 {
		q = []string{"(nothing)"}
	}
	return d.render("queued: " + strings.Join(q, " "))
}
