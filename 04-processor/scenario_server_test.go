package processor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// serverCommands script the API server the informers list and watch: one
// scriptedLW per kind (contract_test.go), pods unless the step says
// kind=configmaps.
var serverCommands = []scenario.Command[*driver]{
	{Name: "list", Run: (*driver).list,
		Usage: `list [kind=pods|configmaps] [rv=RV] [stream]
Sets what the next LIST of KIND returns: the input's objects, one a line,
at resourceVersion RV (1 by default). "stream" makes the server serve
WatchList as well: a watch with sendInitialEvents sends the objects as
ADDED, then the bookmark that ends the initial events. Prints ok.`,
		Example: "list rv=10 stream\nns/a@5 labels=app:web\nns/b@6 node=n1"},
	{Name: "list-error", Run: (*driver).listError,
		Usage: `list-error [kind=pods|configmaps]
The next LIST of KIND fails, with the input as the error's text. Prints ok.`,
		Example: "list-error\nconnection refused"},
	{Name: "watch", Run: (*driver).watch,
		Usage: `watch [kind=pods|configmaps]
Sends each input line on KIND's open watch as an event, TYPE OBJECT:
ADDED, MODIFIED or DELETED and an object, or BOOKMARK @RV. An event for an
object outside the watch's namespace and selector is not sent, as a server
filters it. Waits until every goroutine is idle. Prints ok.`,
		Example: "watch\nMODIFIED ns/a@7\nDELETED ns/b@9\nBOOKMARK @20"},
	{Name: "close-watch", Run: (*driver).closeWatch,
		Usage: `close-watch [kind=pods|configmaps]
Ends KIND's open watch, as a server does when it times out, and waits
until every goroutine is idle. Prints ok.`},
	{Name: "requests", Run: (*driver).requests,
		Usage: `requests [kind=pods|configmaps]
The LISTs and WATCHes KIND's server got since the last look, one a line
with their namespace and selectors, or (none).`,
		Example: "requests kind=pods"},
}

// lw is the scripted server of kind, made on first use.
func (d *driver) lw(kind string) *scriptedLW {
	if kind == "" {
		kind = "pods"
	}
	if d.lws[kind] == nil {
		d.lws[kind] = newScriptedLW(kind)
	}
	return d.lws[kind]
}

func (d *driver) list(t testing.TB, td *datadriven.TestData) string {
	rv := scenario.Arg(t, td, "rv")
	if rv == "" {
		rv = "1"
	}
	lw := d.lw(scenario.Arg(t, td, "kind"))
	var objs []runtime.Object
	for _, line := range notation.Lines(td.Input) {
		objs = append(objs, d.object(t, td, lw.kind, line))
	}
	lw.setList(rv, objs)
	if td.HasArg("stream") {
		lw.mu.Lock()
		lw.streams = true
		lw.mu.Unlock()
	}
	return "ok"
}

func (d *driver) listError(t testing.TB, td *datadriven.TestData) string {
	lw := d.lw(scenario.Arg(t, td, "kind"))
	lw.mu.Lock()
	lw.listErr = errors.New(strings.TrimSpace(td.Input))
	lw.mu.Unlock()
	return "ok"
}

func (d *driver) watch(t testing.TB, td *datadriven.TestData) string {
	lw := d.lw(scenario.Arg(t, td, "kind"))
	for _, line := range strings.Split(strings.TrimSpace(td.Input), "\n") {
		typ, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		var obj runtime.Object
		if typ == "BOOKMARK" {
			obj = d.object(t, td, lw.kind, "x"+rest) // only the resourceVersion counts
			m, _ := meta.Accessor(obj)
			m.SetName("")
		} else {
			obj = d.object(t, td, lw.kind, rest)
		}
		if !lw.send(watch.Event{Type: watch.EventType(typ), Object: obj}) {
			td.Fatalf(t, "no watch open")
		}
	}
	d.settle()
	return "ok"
}

func (d *driver) closeWatch(t testing.TB, td *datadriven.TestData) string {
	d.lw(scenario.Arg(t, td, "kind")).closeWatch()
	d.settle()
	return "ok"
}

func (d *driver) requests(t testing.TB, td *datadriven.TestData) string {
	return strings.Join(notation.OrNone(d.lw(scenario.Arg(t, td, "kind")).requests.Take()), "\n")
}

// object is one object line of the step's input, of kind.
func (d *driver) object(t testing.TB, td *datadriven.TestData, kind, line string) runtime.Object {
	obj, err := newObject(kind, line)
	if err != nil {
		td.Fatalf(t, "%v", err)
	}
	return obj
}
