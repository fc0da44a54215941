package processor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// ringCommands drive the growing ring buffer between a listener's add
// and its handler on their own, with no informer.
var ringCommands = []scenario.Command[*driver]{
	{Name: "ring", Run: (*driver).newRing,
		Usage: `ring [size=N]
Makes the file's ring buffer with room for N items to start with (0 by
default). Prints its length and capacity: len=0 cap=2.`,
		Example: "ring size=2"},
	{Name: "ring-write", Run: (*driver).ringWrite,
		Usage: `ring-write
Writes each word of the input, in order; the buffer grows when full.
Prints its length and capacity.`,
		Example: "ring-write\na b c"},
	{Name: "ring-read", Run: (*driver).ringRead,
		Usage: `ring-read [n=K]
K reads (1 by default): the items read on one line, "(empty)" for a read
of an empty buffer; then its length and capacity.`,
		Example: "ring-read n=2"},
}

func (d *driver) newRing(t testing.TB, td *datadriven.TestData) string {
	size := 0
	td.MaybeScanArgs(t, "size", &size)
	d.ring = d.im.NewRing(size)
	return d.ringSize()
}

func (d *driver) ringWrite(_ testing.TB, td *datadriven.TestData) string {
	for _, item := range strings.Fields(td.Input) {
		d.ring.Write(item)
	}
	return d.ringSize()
}

func (d *driver) ringRead(t testing.TB, td *datadriven.TestData) string {
	n := 1
	td.MaybeScanArgs(t, "n", &n)
	var got []string
	for range n {
		item, ok := d.ring.Read()
		if !ok {
			got = append(got, "(empty)")
			continue
		}
		got = append(got, fmt.Sprint(item))
	}
	return strings.Join(got, " ") + "\n" + d.ringSize()
}

// ringSize is the line every ring command ends with.
func (d *driver) ringSize() string {
	return fmt.Sprintf("len=%d cap=%d", d.ring.Len(), d.ring.Cap())
}
