package indexer_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"example.com/walkthrough/workshop/scenario"
)

// scenarioImpls is what the scenario runner starts: one driver per file.
var scenarioImpls = scenario.Impls{}

// TestScenarios plays testdata/scenarios/*.txt against the implementation
// chosen with WALKTHROUGH_IMPL (reference, exercise or client-go).
func TestScenarios(t *testing.T) {
	scenario.Run(t, scenarioImpls, scenario.Options{})
}

// driver plays the commands of one scenario file against one indexer.
type driver struct {
	im  impl
	idx handle
}

func newDriver(im impl) scenario.Driver {
	d := &driver{im: im}
	return d.step
}

func (d *driver) step(t testing.TB, td *datadriven.TestData) string {
	name := func() string { var s string; td.ScanArgs(t, "name", &s); return s }
	value := func() string { var s string; td.ScanArgs(t, "value", &s); return s }
	objects := func() []any {
		objs, err := parseObjects(d.im, td.Input)
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		return objs
	}
	lines := func() []string { return strings.Fields(td.Input) }

	// The indexer is made on first use, so a scenario of key functions
	// alone runs no store code: its exercise does not wait for the store's.
	switch td.Cmd {
	case "key", "deletion-key", "split-key", "namespace-index-func":
	default:
		if d.idx.Indexer == nil {
			d.idx = d.im.NewIndexer(false)
		}
	}

	switch td.Cmd {
	case "new-indexer":
		var names []string
		if arg, ok := td.Arg("indexes"); ok {
			names = arg.Vals
		}
		d.idx = d.im.NewIndexer(td.HasArg("deletion-handling"), names...)
		return "ok"

	case "add", "update", "delete":
		op := map[string]func(any) error{"add": d.idx.Add, "update": d.idx.Update, "delete": d.idx.Delete}[td.Cmd]
		var out []string
		for _, obj := range objects() {
			out = append(out, result(catchIndexPanic(func() error { return op(obj) })))
		}
		return strings.Join(out, "\n")

	case "replace":
		var rv string
		td.MaybeScanArgs(t, "rv", &rv)
		return result(catchIndexPanic(func() error { return d.idx.Replace(objects(), rv) }))

	case "resync":
		return result(d.idx.Resync())

	case "get":
		var out []string
		for _, obj := range objects() {
			out = append(out, found(d.idx.Get(obj)))
		}
		return strings.Join(out, "\n")

	case "get-by-key":
		var out []string
		for _, key := range lines() {
			out = append(out, found(d.idx.GetByKey(key)))
		}
		return strings.Join(out, "\n")

	case "list":
		return formatSet(d.idx.List())

	case "list-keys":
		return sortedOrNone(d.idx.ListKeys())

	case "index":
		objs := objects()
		if len(objs) != 1 {
			td.Fatalf(t, "index takes one object")
		}
		got, err := d.idx.Index(name(), objs[0])
		return setOrError(got, err)

	case "by-index":
		got, err := d.idx.ByIndex(name(), value())
		return setOrError(got, err)

	case "index-keys":
		// Printed as returned: client-go sorts these, and an empty answer
		// is an empty slice, not nil.
		keys, err := d.idx.IndexKeys(name(), value())
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprintf("%q nil=%t", keys, keys == nil)

	case "index-values":
		return sortedOrNone(d.idx.ListIndexFuncValues(name()))

	case "indexers":
		return sortedOrNone(d.idx.IndexNames())

	case "add-indexers":
		arg, ok := td.Arg("names")
		if !ok {
			td.Fatalf(t, "add-indexers needs names=(...)")
		}
		return result(catchIndexPanic(func() error { return d.idx.AddIndexes(arg.Vals...) }))

	case "store-rv":
		return fmt.Sprintf("%q", d.idx.LastStoreSyncResourceVersion())

	case "bookmark":
		var rv string
		td.ScanArgs(t, "rv", &rv)
		d.idx.Bookmark(rv)
		return "ok"

	case "key", "deletion-key":
		fn := d.im.KeyFunc
		if td.Cmd == "deletion-key" {
			fn = d.im.DeletionHandlingKeyFunc
		}
		var out []string
		for _, obj := range objects() {
			key, err := fn(obj)
			out = append(out, valueOrError(fmt.Sprintf("%q", key), err))
		}
		return strings.Join(out, "\n")

	case "split-key":
		var out []string
		for _, line := range strings.Split(strings.TrimRight(td.Input, "\n"), "\n") {
			key := strings.Trim(line, `"`)
			ns, n, err := d.im.SplitKey(key)
			out = append(out, valueOrError(fmt.Sprintf("%q → namespace=%q name=%q", key, ns, n), err))
		}
		return strings.Join(out, "\n")

	case "namespace-index-func":
		var out []string
		for _, obj := range objects() {
			values, err := d.im.NamespaceIndexFunc(obj)
			out = append(out, valueOrError(fmt.Sprintf("%q", values), err))
		}
		return strings.Join(out, "\n")

	case "lister-list":
		var ns, sel string
		td.MaybeScanArgs(t, "namespace", &ns)
		td.MaybeScanArgs(t, "selector", &sel)
		pods, err := d.idx.ListPods(ns, sel)
		if err != nil {
			return "error: " + err.Error()
		}
		return formatPods(pods)

	case "lister-get":
		var ns string
		td.MaybeScanArgs(t, "namespace", &ns)
		pod, err := d.idx.GetPod(ns, name())
		if err != nil {
			return fmt.Sprintf("error: %v (IsNotFound=%t)", err, apierrors.IsNotFound(err))
		}
		return formatObject(pod)

	case "dump":
		return d.dump()
	}
	td.Fatalf(t, "unknown command %q", td.Cmd)
	return ""
}

// dump prints the whole state: every object by key, then every index
// value with its keys. Scenarios use it to show that an operation changed
// exactly what it should.
func (d *driver) dump() string {
	var b strings.Builder
	keys := d.idx.ListKeys()
	sort.Strings(keys)
	b.WriteString("items:\n")
	for _, key := range keys {
		obj, _, _ := d.idx.GetByKey(key)
		fmt.Fprintf(&b, "  %s: %s\n", key, formatObject(obj))
	}
	for _, name := range d.idx.IndexNames() {
		fmt.Fprintf(&b, "index %s:\n", name)
		values := d.idx.ListIndexFuncValues(name)
		sort.Strings(values)
		for _, v := range values {
			ks, _ := d.idx.IndexKeys(name, v)
			fmt.Fprintf(&b, "  %q: %s\n", v, strings.Join(ks, " "))
		}
	}
	return b.String()
}

// catchIndexPanic turns the panic a failing index function causes into an
// error, so a scenario can show it. Every other panic (an unfinished
// exercise, a bug) goes on up to the scenario runner.
func catchIndexPanic(op func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			if e, ok := v.(error); ok && strings.HasPrefix(e.Error(), "unable to calculate an index entry") {
				err = fmt.Errorf("panic: %v", e)
				return
			}
			panic(v)
		}
	}()
	return op()
}

func result(err error) string { return valueOrError("ok", err) }

func valueOrError(v string, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return v
}

func found(obj any, ok bool, err error) string {
	switch {
	case err != nil:
		return "error: " + err.Error()
	case !ok:
		return "not found"
	}
	return formatObject(obj)
}

func setOrError(objs []any, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return formatSet(objs)
}

func sortedOrNone(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	s = append([]string(nil), s...)
	sort.Strings(s)
	return strings.Join(s, "\n")
}
