package main

import (
	"os/exec"
	"strings"
	"testing"
)

// deps lists the packages the demo links, built with the given tags.
func deps(t *testing.T, tags string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-tags="+tags, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps -tags=%q: %v\n%s", tags, err, out)
	}
	return strings.Fields(string(out))
}

// TestDemoShipsWithoutTheHarness: the demo is a program a learner could
// ship, so it must not link the workshop's harness (its runner, its test
// helpers); only its tests may import it.
func TestDemoShipsWithoutTheHarness(t *testing.T) {
	for _, tags := range []string{"", "ours"} {
		for _, pkg := range deps(t, tags) {
			if strings.HasPrefix(pkg, "example.com/walkthrough/workshop/") {
				t.Errorf("the demo (tags %q) depends on %s, a package of the workshop's harness", tags, pkg)
			}
		}
	}
}

// TestDemoOnOursLinksNoFake: with SERVER=ours (the build tag ours) every
// request of the demo goes to chapter 07's server; no fake clientset is in
// the program. (k8s.io/client-go/testing is, as in every program with a
// typed clientset: client-go's gentype imports it for the fakes it also
// serves.)
func TestDemoOnOursLinksNoFake(t *testing.T) {
	linked := deps(t, "ours")
	for _, pkg := range linked {
		if strings.HasSuffix(pkg, "/fake") || strings.Contains(pkg, "/fake/") || strings.HasSuffix(pkg, "/fakeapi") {
			t.Errorf("the demo built for SERVER=ours links %s", pkg)
		}
	}
	const server = "example.com/walkthrough/07-watchserver"
	found := false
	for _, pkg := range linked {
		found = found || pkg == server
	}
	if !found {
		t.Errorf("the demo built for SERVER=ours does not link %s", server)
	}
}
