package deltafifo_test

import (
	"testing"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// writeCommands are what a Reflector does to a queue, and what a consumer
// already knows.
var writeCommands = []scenario.Command[*driver]{
	{Name: "known", Run: (*driver).known,
		Usage:   "known\nThe input's objects, one a line, go into the consumer cache; ok or the error for each.",
		Example: "known\nns/a@1"},
	{Name: "add", Run: (*driver).write,
		Usage: "add [repeat=K]\nAdd each object of the input; ok or the error for each. With repeat=K, " +
			"add each K times (a long log in a RealFIFO), and say ok or the first error once per object.",
		Example: "add\nns/a@1\nns/b@2"},
	{Name: "update", Run: (*driver).write,
		Usage:   "update\nUpdate each object of the input, as add does.",
		Example: "update\nns/a@3"},
	{Name: "delete", Run: (*driver).write,
		Usage:   "delete\nDelete each object of the input (tombstone:KEY=OBJECT too), as add does.",
		Example: "delete\ntombstone:ns/a=ns/a@3"},
	{Name: "replace", Run: (*driver).replace,
		Usage:   "replace [rv=RV]\nReplace with the input's objects as the list, at RV; ok or the error.",
		Example: "replace rv=5\nns/b@5"},
	{Name: "resync", Run: (*driver).resync,
		Usage: "resync\nResync; ok or the error."},
	{Name: "bookmark", Run: (*driver).bookmark,
		Usage:   "bookmark rv=RV\nBookmark(RV) on a RealFIFO; a DeltaFIFO has none, and says so.",
		Example: "bookmark rv=7"},
	{Name: "close", Run: (*driver).close,
		Usage: "close\nClose the queue: a waiting Pop returns. Prints ok."},
}

func (d *driver) known(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string {
		var lines []string
		for _, obj := range d.objects(t, td) {
			lines = append(lines, result(f.cache.Add(obj)))
		}
		return lines
	})
}

func (d *driver) write(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string {
		q := f.q
		op := map[string]func(any) error{"add": q.Add, "update": q.Update, "delete": q.Delete}[td.Cmd]
		repeat := 1
		td.MaybeScanArgs(t, "repeat", &repeat)
		var lines []string
		for _, obj := range d.objects(t, td) {
			var err error
			for i := 0; i < repeat && err == nil; i++ {
				err = op(obj)
			}
			lines = append(lines, result(err))
		}
		return lines
	})
}

func (d *driver) replace(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string {
		var rv string
		td.MaybeScanArgs(t, "rv", &rv)
		return []string{result(f.q.Replace(d.objects(t, td), rv))}
	})
}

func (d *driver) resync(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string { return []string{result(f.q.Resync())} })
}

func (d *driver) bookmark(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string {
		if f.q.Bookmark == nil {
			return []string{"(a " + f.q.Kind + " has no Bookmark)"}
		}
		var rv string
		td.ScanArgs(t, "rv", &rv)
		return []string{result(f.q.Bookmark(rv))}
	})
}

func (d *driver) close(t testing.TB, td *datadriven.TestData) string {
	return d.each(t, td, func(f *fifo) []string {
		f.q.Close()
		return []string{"ok"}
	})
}
