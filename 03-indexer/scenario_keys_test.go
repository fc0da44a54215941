package indexer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// keyCommands call the key functions alone: no indexer is made.
var keyCommands = []scenario.Command[*driver]{
	{Name: "key", Run: (*driver).key,
		Usage:   "key\nMetaNamespaceKeyFunc on each object of the input: the key, quoted, or the error.",
		Example: "key\nns/a\nexplicit:x/y"},
	{Name: "deletion-key", Run: (*driver).key,
		Usage:   "deletion-key\nDeletionHandlingMetaNamespaceKeyFunc on each object of the input, as key prints.",
		Example: "deletion-key\ntombstone:ns/a"},
	{Name: "split-key", Run: (*driver).splitKey,
		Usage:   "split-key\nSplitMetaNamespaceKey on each line of the input (quotes are dropped): the namespace and name, or the error.",
		Example: "split-key\n\"ns/a\""},
	{Name: "namespace-index-func", Run: (*driver).namespaceIndexFunc,
		Usage:   "namespace-index-func\nMetaNamespaceIndexFunc on each object of the input: its values, quoted, and the error if any.",
		Example: "namespace-index-func\nns/a"},
}

func (d *driver) key(t testing.TB, td *datadriven.TestData) string {
	fn := d.im.KeyFunc
	if td.Cmd == "deletion-key" {
		fn = d.im.DeletionHandlingKeyFunc
	}
	var out []string
	for _, obj := range d.objects(t, td) {
		key, err := fn(obj)
		out = append(out, valueOrError(fmt.Sprintf("%q", key), err))
	}
	return strings.Join(out, "\n")
}

func (d *driver) splitKey(t testing.TB, td *datadriven.TestData) string {
	var out []string
	for _, line := range strings.Split(strings.TrimRight(td.Input, "\n"), "\n") {
		key := strings.Trim(line, `"`)
		ns, n, err := d.im.SplitKey(key)
		out = append(out, valueOrError(fmt.Sprintf("%q → namespace=%q name=%q", key, ns, n), err))
	}
	return strings.Join(out, "\n")
}

func (d *driver) namespaceIndexFunc(t testing.TB, td *datadriven.TestData) string {
	var out []string
	for _, obj := range d.objects(t, td) {
		// The values are printed beside an error too: client-go's are
		// [""] then, not nil.
		values, err := d.im.NamespaceIndexFunc(obj)
		if err != nil {
			out = append(out, fmt.Sprintf("%q, error: %v", values, err))
			continue
		}
		out = append(out, fmt.Sprintf("%q", values))
	}
	return strings.Join(out, "\n")
}

func valueOrError(v string, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return v
}
