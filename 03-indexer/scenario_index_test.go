package indexer_test

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// indexCommands ask the indexes, and add to them.
var indexCommands = []scenario.Command[*driver]{
	{Name: "index", Run: (*driver).index,
		Usage:   "index name=INDEX\nIndex(INDEX, the one object of the input): the objects that share an index value with it, sorted (set).",
		Example: "index name=byLabel\nns/x labels=app:web"},
	{Name: "by-index", Run: (*driver).byIndex,
		Usage:   "by-index name=INDEX value=V\nByIndex(INDEX, V): the objects indexed under V, sorted (set), or the error.",
		Example: "by-index name=byNode value=n1"},
	{Name: "index-keys", Run: (*driver).indexKeys,
		Usage: `index-keys name=INDEX value=V
IndexKeys(INDEX, V) as returned (client-go sorts them), and whether the
slice is nil: an empty answer is an empty slice, not nil.`,
		Example: "index-keys name=namespace value=ns"},
	{Name: "index-values", Run: (*driver).indexValues,
		Usage:   "index-values name=INDEX\nListIndexFuncValues(INDEX), sorted, or (none).",
		Example: "index-values name=byNode"},
	{Name: "indexers", Run: (*driver).indexers,
		Usage: "indexers\nThe names of the indexes (GetIndexers), sorted, or (none)."},
	{Name: "add-indexers", Run: (*driver).addIndexers,
		Usage:   "add-indexers names=(NAME ...)\nAddIndexers with the named index functions; prints ok or the error.",
		Example: "add-indexers names=(byNode)"},
}

func (d *driver) index(t testing.TB, td *datadriven.TestData) string {
	idx := d.indexer()
	objs := d.objects(t, td)
	if len(objs) != 1 {
		td.Fatalf(t, "index takes one object")
	}
	return setOrError(idx.Index(scenario.MustArg(t, td, "name"), objs[0]))
}

func (d *driver) byIndex(t testing.TB, td *datadriven.TestData) string {
	idx := d.indexer()
	return setOrError(idx.ByIndex(scenario.MustArg(t, td, "name"), scenario.MustArg(t, td, "value")))
}

func (d *driver) indexKeys(t testing.TB, td *datadriven.TestData) string {
	keys, err := d.indexer().IndexKeys(scenario.MustArg(t, td, "name"), scenario.MustArg(t, td, "value"))
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%q nil=%t", keys, keys == nil)
}

func (d *driver) indexValues(t testing.TB, td *datadriven.TestData) string {
	idx := d.indexer()
	return sortedOrNone(idx.ListIndexFuncValues(scenario.MustArg(t, td, "name")))
}

func (d *driver) indexers(t testing.TB, td *datadriven.TestData) string {
	return sortedOrNone(d.indexer().IndexNames())
}

func (d *driver) addIndexers(t testing.TB, td *datadriven.TestData) string {
	idx := d.indexer()
	arg, ok := td.Arg("names")
	if !ok {
		td.Fatalf(t, "add-indexers needs names=(...)")
	}
	return notation.Result(catchIndexPanic(func() error { return idx.AddIndexes(arg.Vals...) }))
}

func setOrError(objs []any, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return formatSet(objs)
}
