package controller_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"

	"example.com/walkthrough/workshop/scenario"
)

// faultCommands make the API server refuse the controller's writes.
var faultCommands = []scenario.Command[*driver]{
	{Name: "fail", Run: (*driver).fail,
		Usage: `fail VERB RESOURCE[/SUBRESOURCE] [times=N] [error=conflict|server|TEXT]
The controller's next N (1 by default) VERB writes of RESOURCE (or of its
SUBRESOURCE) fail: with a Conflict, an InternalError, or a plain error
"injected: TEXT". Each shows in the trace as the write it refused, then
"→ REASON (injected)". Writes without the controller's field manager pass.
Prints ok.`,
		Example: "fail update rollouts/status times=2 error=conflict"},
}

func (d *driver) fail(t testing.TB, td *datadriven.TestData) string {
	d.inject(t, td)
	return "ok"
}

// inject makes the next matching controller writes fail.
func (d *driver) inject(t testing.TB, td *datadriven.TestData) {
	if len(td.CmdArgs) < 2 {
		td.Fatalf(t, "fail VERB RESOURCE[/SUBRESOURCE] [times=N] [error=conflict|server]")
	}
	verb := td.CmdArgs[0].Key
	resource, sub, _ := strings.Cut(td.CmdArgs[1].Key, "/")
	times := scenario.IntArg(t, td, "times", 1)
	kind := "conflict"
	for _, a := range td.CmdArgs {
		if a.Key == "error" {
			kind = a.Vals[0]
		}
	}
	fake := &d.env.Kube.Fake
	if resource == "rollouts" {
		fake = &d.env.Walk.Fake
	}
	d.faultMu.Lock()
	defer d.faultMu.Unlock()
	d.faults = append(d.faults, &fault{fake: fake, verb: verb, resource: resource, sub: sub, times: times, kind: kind})
}

// fault is one "fail" step's refusal, until it has refused times writes.
type fault struct {
	fake                      *k8stesting.Fake
	verb, resource, sub, kind string
	times                     int
}

// installFaults puts, in front of each fake's reactors, the one reactor
// that refuses what the "fail" steps ask for. It is installed before the
// controller runs: a reactor prepended while a worker writes would race
// with the fake's reading of its chain (the fake's PrependReactor takes no
// lock), and -race blamed trial L2's syncHandler for it.
func (d *driver) installFaults(fakes ...*k8stesting.Fake) {
	for _, fake := range fakes {
		fake.PrependReactor("*", "*", func(action k8stesting.Action) (bool, runtime.Object, error) {
			return d.refuse(fake, action)
		})
	}
}

// refuse answers a write the newest matching fault still refuses, as a
// reactor of its own would have, the newest in front.
func (d *driver) refuse(fake *k8stesting.Fake, action k8stesting.Action) (bool, runtime.Object, error) {
	d.faultMu.Lock()
	defer d.faultMu.Unlock()
	for i := len(d.faults) - 1; i >= 0; i-- {
		f := d.faults[i]
		if f.fake != fake || !action.Matches(f.verb, f.resource) || f.times == 0 || action.GetSubresource() != f.sub {
			continue
		}
		obj := controllerWrite(action)
		if obj == nil {
			continue
		}
		f.times--
		err := injected(f.kind, action, obj)
		d.logWrite(action.GetVerb(), action.GetSubresource(), obj, fmt.Sprintf(" → %s (injected)", apierrors.ReasonForError(err)))
		return true, nil, err
	}
	return false, nil, nil
}

// controllerWrite is the object of a create or an update the controller
// sent (with its field manager); nil for any other action.
func controllerWrite(action k8stesting.Action) runtime.Object {
	switch a := action.(type) {
	case k8stesting.CreateActionImpl:
		if a.CreateOptions.FieldManager == fieldManager {
			return a.Object
		}
	case k8stesting.UpdateActionImpl:
		if a.UpdateOptions.FieldManager == fieldManager {
			return a.Object
		}
	}
	return nil
}

// injected is the error of kind for a write of obj.
func injected(kind string, action k8stesting.Action, obj runtime.Object) error {
	switch kind {
	case "conflict":
		m, _ := meta.Accessor(obj)
		return apierrors.NewConflict(action.GetResource().GroupResource(), m.GetName(), errors.New("the object has been modified"))
	case "server":
		return apierrors.NewInternalError(errors.New("injected"))
	}
	return fmt.Errorf("injected: %s", kind)
}
