package indexer_test

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// storeCommands make the indexer and call its Store methods.
var storeCommands = []scenario.Command[*driver]{
	{Name: "new-indexer", Run: (*driver).newIndexer,
		Usage: `new-indexer [deletion-handling] [indexes=(NAME ...)]
Makes the file's indexer (a plain one is made on first use otherwise),
keyed by MetaNamespaceKeyFunc, or by DeletionHandlingMetaNamespaceKeyFunc
with deletion-handling, with the named index functions: byLabel, byNode,
strict (fails on a pod labelled bad=true) and namespace. Prints ok.`,
		Example: "new-indexer indexes=(byLabel,namespace)"},
	{Name: "add", Run: (*driver).write,
		Usage: `add
Add each object of the input, one a line; prints ok or the error for each.
A failing index function's panic prints as "error: panic: ...".`,
		Example: "add\nns/a@1 labels=app:web node=n1"},
	{Name: "update", Run: (*driver).write,
		Usage:   "update\nUpdate each object of the input, as add does.",
		Example: "update\nns/a@2 labels=app:db"},
	{Name: "delete", Run: (*driver).write,
		Usage:   "delete\nDelete each object of the input (a tombstone: too), as add does.",
		Example: "delete\nns/a@2"},
	{Name: "replace", Run: (*driver).replace,
		Usage:   "replace [rv=RV]\nReplace the whole store with the input's objects, at resource version RV.",
		Example: "replace rv=7\nns/b@7"},
	{Name: "resync", Run: (*driver).resync,
		Usage: "resync\nResync; prints ok or the error."},
	{Name: "get", Run: (*driver).get,
		Usage:   "get\nGet each object of the input by its key: the object, \"not found\" or the error.",
		Example: "get\nns/a"},
	{Name: "get-by-key", Run: (*driver).getByKey,
		Usage:   "get-by-key\nGetByKey each key of the input (separated by spaces or lines), as get prints.",
		Example: "get-by-key\nns/a ns/b"},
	{Name: "list", Run: (*driver).list,
		Usage: "list\nList: every object, sorted (set), or (none)."},
	{Name: "list-keys", Run: (*driver).listKeys,
		Usage: "list-keys\nListKeys, sorted (set), or (none)."},
	{Name: "store-rv", Run: (*driver).storeRV,
		Usage: "store-rv\nLastStoreSyncResourceVersion, quoted."},
	{Name: "bookmark", Run: (*driver).bookmark,
		Usage:   "bookmark rv=RV\nBookmark(RV): the store's version moves on, its objects stay. Prints ok.",
		Example: "bookmark rv=9"},
	{Name: "dump", Run: (*driver).dumpCmd,
		Usage: `dump
The whole state: every object by key, then each index with each value
and its keys, all sorted.`},
}

func (d *driver) newIndexer(t testing.TB, td *datadriven.TestData) string {
	var names []string
	if arg, ok := td.Arg("indexes"); ok {
		names = arg.Vals
	}
	d.idx = d.im.NewIndexer(td.HasArg("deletion-handling"), names...)
	return "ok"
}

func (d *driver) write(t testing.TB, td *datadriven.TestData) string {
	idx := d.indexer()
	op := map[string]func(any) error{"add": idx.Add, "update": idx.Update, "delete": idx.Delete}[td.Cmd]
	var out []string
	for _, obj := range d.objects(t, td) {
		out = append(out, notation.Result(catchIndexPanic(func() error { return op(obj) })))
	}
	return strings.Join(out, "\n")
}

func (d *driver) replace(t testing.TB, td *datadriven.TestData) string {
	idx := d.indexer()
	var rv string
	td.MaybeScanArgs(t, "rv", &rv)
	return notation.Result(catchIndexPanic(func() error { return idx.Replace(d.objects(t, td), rv) }))
}

func (d *driver) resync(t testing.TB, td *datadriven.TestData) string {
	return notation.Result(d.indexer().Resync())
}

func (d *driver) get(t testing.TB, td *datadriven.TestData) string {
	idx := d.indexer()
	var out []string
	for _, obj := range d.objects(t, td) {
		out = append(out, found(idx.Get(obj)))
	}
	return strings.Join(out, "\n")
}

func (d *driver) getByKey(t testing.TB, td *datadriven.TestData) string {
	idx := d.indexer()
	var out []string
	for _, key := range strings.Fields(td.Input) {
		out = append(out, found(idx.GetByKey(key)))
	}
	return strings.Join(out, "\n")
}

func (d *driver) list(t testing.TB, td *datadriven.TestData) string {
	return formatSet(d.indexer().List())
}

func (d *driver) listKeys(t testing.TB, td *datadriven.TestData) string {
	return sortedOrNone(d.indexer().ListKeys())
}

func (d *driver) storeRV(t testing.TB, td *datadriven.TestData) string {
	return fmt.Sprintf("%q", d.indexer().LastStoreSyncResourceVersion())
}

func (d *driver) bookmark(t testing.TB, td *datadriven.TestData) string {
	d.indexer().Bookmark(scenario.MustArg(t, td, "rv"))
	return "ok"
}

func (d *driver) dumpCmd(t testing.TB, td *datadriven.TestData) string {
	d.indexer()
	return d.dump()
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
// error, so a scenario can show it beside the one recorded. Any panic
// with a message of its own is shown that way, so that a wrong text or a
// string where client-go panics with an error reads as a difference in
// the trace, not as a crash (trial B's panic(fmt.Sprintf(...)) read as
// one). A runtime error (a nil map, an index out of range) and an
// unfinished exercise go on up to the scenario runner, which shows where
// they happened.
func catchIndexPanic(op func() error) (err error) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if _, notDone := scenario.NotDoneIn(v); notDone {
			panic(v)
		}
		switch v := v.(type) {
		case runtime.Error, *scenario.Caught:
			panic(v)
		case error:
			err = fmt.Errorf("panic: %v", v)
		case string:
			err = fmt.Errorf("panic with a string, not an error: %s", v)
		default:
			panic(v)
		}
	}()
	return op()
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

func sortedOrNone(s []string) string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return strings.Join(notation.OrNone(s), "\n")
}
