package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDemoShipsWithoutTheHarness: the demo is a program a learner could
// ship, so it must not link the workshop's harness (its runner, its test
// helpers); only its tests may import it.
func TestDemoShipsWithoutTheHarness(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "example.com/walkthrough/workshop/") {
			t.Errorf("the demo depends on %s, a package of the workshop's harness", pkg)
		}
	}
}
