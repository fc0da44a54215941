package controller_test

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// forbidden are client-go's own informer machinery and workqueue: the
// reference controller must run on the workshop's chapters instead.
var forbidden = []string{"k8s.io/client-go/tools/cache", "k8s.io/client-go/util/workqueue"}

// importersOf lists, for each forbidden package in pkg's dependencies,
// the packages that import it directly.
func importersOf(t *testing.T, pkg string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}:{{join .Imports " "}}`, pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	found := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		importer, imports, _ := strings.Cut(line, ":")
		for _, imp := range strings.Fields(imports) {
			for _, f := range forbidden {
				if imp == f {
					found[f] = append(found[f], importer)
				}
			}
		}
	}
	for _, list := range found {
		sort.Strings(list)
	}
	return found
}

// TestDepsReferenceAvoidsClientGoMachinery checks what `go list -deps`
// says about the reference controller.
func TestDepsReferenceAvoidsClientGoMachinery(t *testing.T) {
	// The reconcile logic imports no client-go at all: it is written
	// against the interfaces in parts.go.
	t.Run("controller", func(t *testing.T) {
		if found := importersOf(t, "example.com/walkthrough/06-controller"); len(found) > 0 {
			t.Errorf("the controller package depends on %v", found)
		}
	})
	// The reference wiring reads only through chapters 01–05. It writes
	// with the generated clientset, whose HTTP transport imports
	// util/workqueue for client-certificate rotation; that is the one
	// importer allowed.
	t.Run("wiring/ours", func(t *testing.T) {
		allowed := map[string]bool{"k8s.io/client-go/transport": true}
		for pkg, importers := range importersOf(t, "example.com/walkthrough/06-controller/wiring/ours") {
			for _, imp := range importers {
				if !allowed[imp] {
					t.Errorf("%s imports %s: the reference must read through chapters 01–05", imp, pkg)
				}
			}
		}
	})
}
