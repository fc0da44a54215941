package indexer_test

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/datadriven"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"example.com/walkthrough/workshop/scenario"
)

// listerCommands read the indexer through a pod lister.
var listerCommands = []scenario.Command[*driver]{
	{Name: "lister-list", Run: (*driver).listerList,
		Usage: `lister-list [namespace=NS] [selector=S]
The lister's List (Namespace(NS).List with a namespace): the pods that
match the label selector S ("" everything, "nothing" none), sorted (set).`,
		Example: "lister-list namespace=ns selector=app=web"},
	{Name: "lister-get", Run: (*driver).listerGet,
		Usage: `lister-get [namespace=NS] name=NAME
The lister's Namespace(NS).Get(NAME), or Get(NAME) without a namespace:
the pod, or the error and whether it is a NotFound.`,
		Example: "lister-get namespace=ns name=a"},
}

func (d *driver) listerList(t testing.TB, td *datadriven.TestData) string {
	idx := d.indexer()
	var ns, sel string
	td.MaybeScanArgs(t, "namespace", &ns)
	td.MaybeScanArgs(t, "selector", &sel)
	pods, err := idx.ListPods(ns, sel)
	if err != nil {
		return "error: " + err.Error()
	}
	return formatPods(pods)
}

func (d *driver) listerGet(t testing.TB, td *datadriven.TestData) string {
	idx := d.indexer()
	var ns string
	td.MaybeScanArgs(t, "namespace", &ns)
	pod, err := idx.GetPod(ns, scenario.MustArg(t, td, "name"))
	if err != nil {
		return fmt.Sprintf("error: %v (IsNotFound=%t)", err, apierrors.IsNotFound(err))
	}
	return formatObject(pod)
}
