package lwscenario

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/01-listwatch/testserver"
	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// serverCommands change what the server holds, as a user's writes would,
// and act on its streams. Each prints what the server did, then the
// trace: the requests it got and the store calls they led to.
var serverCommands = []scenario.Command[*Driver]{
	{Name: "server", Run: (*Driver).server,
		Usage: `server [max-page=N] [without-watchlist]
Starts the file's server over (a file without this step gets a default
one): it caps LIST pages at N items, and with without-watchlist it
refuses a streaming list, as a server without the WatchList feature does.`,
		Example: "server max-page=2"},
	{Name: "create", Run: (*Driver).write,
		Usage: `create
Creates each pod of the input, one a line, without a version (the server
assigns it): ns/name [labels=k:v] [node=n]. Prints server: create ns/name@rv.`,
		Example: "create\nns/a labels=app:web"},
	{Name: "update", Run: (*Driver).write,
		Usage:   "update\nUpdates each pod of the input, as create does.",
		Example: "update\nns/a labels=app:db"},
	{Name: "delete", Run: (*Driver).delete,
		Usage:   "delete\nDeletes each pod of the input, one ns/name a line. Prints server: delete ns/name@rv.",
		Example: "delete\nns/a"},
	{Name: "configmap", Run: (*Driver).configMap,
		Usage: `configmap
Creates each ConfigMap of the input (ns/name a line): a write to another
resource, which moves the server's version on; the pod watch never sees
it, but a bookmark tells it. Scripted server only.`,
		Example: "configmap\nns/cm"},
	{Name: "bookmark", Run: (*Driver).bookmark,
		Usage: "bookmark\nSends a BOOKMARK at the current version on every open watch. Scripted server only."},
	{Name: "compact", Run: (*Driver).compact,
		Usage: "compact\nCompacts the server's history: older versions are gone (410). Scripted server only."},
	{Name: "drop-watches", Run: (*Driver).dropWatches,
		Usage: "drop-watches\nBreaks every open watch stream, with no last frame."},
	{Name: "end-watches", Run: (*Driver).endWatches,
		Usage: "end-watches\nEnds every open watch cleanly, as a server's watch timeout does. Scripted server only."},
	{Name: "server-state", Run: (*Driver).serverState,
		Usage: "server-state\nThe server's pods, ns/name@rv, sorted, or (none)."},
}

func (d *Driver) server(t testing.TB, td *datadriven.TestData) string {
	var opts testserver.Options
	td.MaybeScanArgs(t, "max-page", &opts.MaxPageSize)
	opts.WithoutWatchList = td.HasArg("without-watchlist")
	d.serve(t, td, opts)
	return d.report(td, nil)
}

func (d *Driver) write(t testing.TB, td *datadriven.TestData) string {
	var out []string
	for _, l := range notation.Lines(td.Input) {
		o, err := notation.Parse(l)
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		if o.Namespace == "" || o.RV != "" {
			td.Fatalf(t, "want ns/name, namespaced and without a version (the server assigns it), got %q", l)
		}
		rv, err := d.b.Write(td.Cmd, o.Pod())
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		out = append(out, fmt.Sprintf("server: %s %s@%s", td.Cmd, o.Key(), rv))
	}
	return d.report(td, out)
}

func (d *Driver) delete(t testing.TB, td *datadriven.TestData) string {
	var out []string
	for _, key := range notation.Lines(td.Input) {
		ns, name, _ := strings.Cut(key, "/")
		rv, err := d.b.Delete(ns, name)
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		out = append(out, fmt.Sprintf("server: delete %s@%s", key, rv))
	}
	return d.report(td, out)
}

func (d *Driver) configMap(t testing.TB, td *datadriven.TestData) string {
	srv := d.scripted(t, td)
	var out []string
	for _, l := range notation.Lines(td.Input) {
		ns, name, _ := strings.Cut(l, "/")
		cm := &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		rv, err := srv.Serve(testserver.ConfigMaps).Create(cm)
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		out = append(out, fmt.Sprintf("server: create configmap %s@%s", l, rv))
	}
	return d.report(td, out)
}

func (d *Driver) bookmark(t testing.TB, td *datadriven.TestData) string {
	d.scripted(t, td).Bookmark()
	return d.report(td, nil)
}

func (d *Driver) compact(t testing.TB, td *datadriven.TestData) string {
	return d.report(td, []string{"server: compacted at " + d.scripted(t, td).Compact()})
}

func (d *Driver) dropWatches(t testing.TB, td *datadriven.TestData) string {
	d.b.DropWatches()
	return d.report(td, nil)
}

func (d *Driver) endWatches(t testing.TB, td *datadriven.TestData) string {
	d.scripted(t, td).EndWatches()
	return d.report(td, nil)
}

func (d *Driver) serverState(t testing.TB, td *datadriven.TestData) string {
	return strings.Join(notation.OrNone(d.b.Objects()), "\n")
}
