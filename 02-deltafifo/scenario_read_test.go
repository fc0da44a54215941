package deltafifo_test

import (
	"fmt"
	"sort"
	"strconv"
	"testing"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// readCommands ask a queue, or its consumer cache, what it holds.
var readCommands = []scenario.Command[*driver]{
	{Name: "cache", Run: (*driver).cache,
		Usage: "cache\nWhat the consumer cache holds, sorted by key, or (empty)."},
	{Name: "is-closed", Run: (*driver).isClosed,
		Usage: "is-closed\nIsClosed: true or false."},
	{Name: "has-synced", Run: (*driver).hasSynced,
		Usage: "has-synced\nHasSynced: true or false."},
	{Name: "key-of", Run: (*driver).keyOf,
		Usage:   "key-of\nKeyOf each object of the input (a RealFIFO has none): the key, quoted, or the error.",
		Example: "key-of\ndeltas:[]\n\"str\""},
}

func (d *driver) cache(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string {
		keys := f.cache.ListKeys()
		sort.Strings(keys)
		lines := []string{}
		for _, k := range keys {
			obj, _, _ := f.cache.GetByKey(k)
			lines = append(lines, formatObject(obj))
		}
		if len(lines) == 0 {
			return []string{"(empty)"}
		}
		return lines
	})
}

func (d *driver) isClosed(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string { return []string{strconv.FormatBool(f.q.IsClosed())} })
}

func (d *driver) hasSynced(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string { return []string{strconv.FormatBool(f.q.HasSynced())} })
}

func (d *driver) keyOf(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string {
		if f.q.KeyOf == nil {
			return []string{"(a " + f.q.Kind + " has no KeyOf)"}
		}
		var lines []string
		for _, obj := range d.objects(t, td) {
			key, err := f.q.KeyOf(obj)
			if err != nil {
				lines = append(lines, "error: "+err.Error())
			} else {
				lines = append(lines, fmt.Sprintf("%q", key))
			}
		}
		return lines
	})
}
