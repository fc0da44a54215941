package progress

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// flakyAndBroken is a package with a check that fails on its first run
// only, as a check your code fails now and then does, and one that fails
// every time.
const flakyAndBroken = `package p

import (
	"os"
	"testing"
)

func TestFlaky(t *testing.T) {
	mark := os.Getenv("FLAKY_MARK")
	if _, err := os.Stat(mark); err != nil {
		os.WriteFile(mark, nil, 0o644)
		t.Fatal("lost an event")
	}
}

func TestBroken(t *testing.T) { t.Fatal("wrong every time") }
`

// TestAFlakyCheckIsNotSearched: before any swap, the failing checks run
// again on the copy as it is; the one that passes now is flaky, says so,
// and is not searched (a swap would blame an exercise by chance), while
// the one that fails again goes on to the search.
func TestAFlakyCheckIsNotSearched(t *testing.T) {
	bin := buildPackage(t, flakyAndBroken)
	env := []string{"FLAKY_MARK=" + filepath.Join(t.TempDir(), "mark")}
	first, err := runTests(bin, env, 0, 0, "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.Passed["TestFlaky"] || first.Passed["TestBroken"] {
		t.Fatalf("first run: %v; want both failing", first.Passed)
	}
	k := &code{s: &standIn{yours: map[string]string{}}, bin: bin, say: func(string, ...any) {}}
	outcomes := map[string]*outcome{"TestFlaky": {test: "TestFlaky"}, "TestBroken": {test: "TestBroken"}}
	still, err := k.confirm(outcomes, []string{"TestBroken", "TestFlaky"}, env, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(still, []string{"TestBroken"}) {
		t.Errorf("left for the search: %v; want [TestBroken]", still)
	}
	if o := outcomes["TestFlaky"]; o.located != Flaky || !strings.Contains(o.report, "Flaky:") {
		t.Errorf("TestFlaky: located %v, report %q; want flaky, and said", o.located, o.report)
	}
	if o := outcomes["TestBroken"]; o.located != NotLocated || o.report != "" {
		t.Errorf("TestBroken: located %v, report %q; want untouched", o.located, o.report)
	}
}
