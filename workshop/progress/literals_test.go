package progress

import (
	"slices"
	"strings"
	"testing"
)

const yourServer = `package watchserver

func validate(rv string) error {
	if rv == "" {
		return fmt.Errorf("resourceVersion: Forbidden: sendInitialEvents needs a match %q", rv)
	}
	return errors.New("a perfectly ordinary text")
}
`

const referenceServer = `package watchserver

func validate(rv string) error {
	if rv == "" {
		return fmt.Errorf("resourceVersion: Forbidden: sendInitialEvents requires setting resourceVersionMatch %q", rv)
	}
	return errors.New("a perfectly ordinary text")
}
`

func literalCode() *code {
	s := &standIn{dir: "/w/07-watchserver",
		files: map[string][]byte{"server.go": []byte(yourServer)},
		yours: map[string]string{"/w/07-watchserver/server.go": "07-watchserver/exercise/server.go"},
	}
	return &code{s: s, pkg: "example.com/walkthrough/07-watchserver",
		funcs: map[string]int{"validate": 2},
		done:  map[string][]byte{"exercise/server.go": []byte(referenceServer)},
	}
}

func TestTextThatDivergedNamesTheLiteralThatWroteIt(t *testing.T) {
	k := literalCode()
	report := "  Recorded: 422 resourceVersion: Forbidden: sendInitialEvents requires setting resourceVersionMatch \"\"\n" +
		"  Got:      422 resourceVersion: Forbidden: sendInitialEvents needs a match \"\"\n"
	found, ids := k.textOwners(report)
	if !slices.Equal(ids, []int{2}) {
		t.Fatalf("ids = %v, want [2]: the literal only your validate has", ids)
	}
	text := k.wroteIt(found)
	for _, want := range []string{"Written:  by validate (exercise 2), 07-watchserver/exercise/server.go:5:\n", `"resourceVersion: Forbidden: sendInitialEvents needs a match %q", a text the reference never writes`} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
}

func TestTextTheReferenceAlsoWritesIsNoEvidence(t *testing.T) {
	k := literalCode()
	// "a perfectly ordinary text" is the reference's too; a trace diff's
	// added line holds it, but it proves nothing.
	report := "  Trace (-recorded from kube-apiserver, +your copy):\n    - 200 fine\n    + 500 a perfectly ordinary text\n"
	if _, ids := k.textOwners(report); len(ids) != 0 {
		t.Errorf("ids = %v, want none", ids)
	}
	// Nor is a text the recorded run holds as well.
	report = "  Recorded: x sendInitialEvents needs a match\n  Got:      y sendInitialEvents needs a match\n"
	if _, ids := k.textOwners(report); len(ids) != 0 {
		t.Errorf("ids = %v, want none: the text is in the recording too", ids)
	}
}

func TestAPlainTestsWholeOutputIsWhatYourCodeMadeItPrint(t *testing.T) {
	k := literalCode()
	output := `server_test.go:120: sendInitialEvents without NotOlderThan: 422 {"message":"resourceVersion: Forbidden: sendInitialEvents needs a match \"\""}`
	if _, ids := k.textOwners(output); !slices.Equal(ids, []int{2}) {
		t.Errorf("ids = %v, want [2]", ids)
	}
}

// A format string is evidence as a whole: "index %q does not exist"
// printed a text whose pieces ("does not exist") the reference's own
// format has too (the 03 trial's error for an unknown index got no
// Written: line).
func TestAFormatStringIsEvidenceWhole(t *testing.T) {
	k := literalCode()
	k.s.files["server.go"] = []byte("package p\n\nfunc validate(name string) error {\n\treturn fmt.Errorf(\"index %q does not exist\", name)\n}\n")
	k.done["exercise/server.go"] = []byte("package p\n\nfunc validate(name string) error {\n\treturn fmt.Errorf(\"Index with name %s does not exist\", name)\n}\n")
	report := "  Recorded: error: Index with name byFoo does not exist\n  Got:      error: index \"byFoo\" does not exist\n"
	found, ids := k.textOwners(report)
	if !slices.Equal(ids, []int{2}) || len(found) != 1 || found[0].text != "index %q does not exist" {
		t.Errorf("found %+v (exercises %v); want validate's \"index %%q does not exist\"", found, ids)
	}
}

// A literal your code only compares with is read, not written: the 07
// trial's validate checked a query value against "NotOlderThan" (the
// reference compares with a constant), and a trace line carrying that
// value was put on it.
func TestALiteralYourCodeComparesWithWroteNothing(t *testing.T) {
	k := literalCode()
	k.s.files["server.go"] = []byte(`package watchserver

func validate(match string) error {
	if match != "NotOlderThan" {
		return nil
	}
	switch match {
	case "NotOlderThanEver":
	}
	return nil
}
`)
	report := "  Trace (-recorded from kube-apiserver, +your copy):\n    - GET ?watch=1\n    + GET ?resourceVersionMatch=NotOlderThanEver&watch=1\n"
	if found, ids := k.textOwners(report); len(ids) != 0 {
		t.Errorf("ids = %v (%v), want none: a compared literal writes nothing", ids, found)
	}
}

// A one-word literal (an enum value the reference names by its constant)
// is no evidence in a plain test's output, where every request line that
// carries it counts (the 07 trial's []string{"Exact", "NotOlderThan", ""}
// in validate was blamed for three bugs of other exercises); a phrase
// still is.
func TestAOneWordLiteralIsNoEvidenceInAPlainTest(t *testing.T) {
	k := literalCode()
	k.s.files["server.go"] = []byte(`package watchserver

func validate(match string) []string {
	return []string{"Exact", "NotOlderThan", "resourceVersionMatch is forbidden here"}
}
`)
	if found, ids := k.textOwners("    list_test.go:40: GET /api?resourceVersionMatch=NotOlderThan: watch ended early\n"); len(ids) != 0 {
		t.Errorf("ids = %v (%v), want none: one word in a plain test's output", ids, found)
	}
	if _, ids := k.textOwners("    list_test.go:40: 422: resourceVersionMatch is forbidden here\n"); len(ids) == 0 {
		t.Errorf("a phrase of validate's in a plain test's output was not put on it")
	}
}

// A format string whose verbs alone differ from the reference's fits the
// recorded text too: trial J's %s for %q got no Written: line.
func TestAVerbThatPrintsOtherwiseIsEvidence(t *testing.T) {
	k := literalCode()
	k.s.files["server.go"] = []byte("package p\n\nfunc validate(name string) error {\n\treturn fmt.Errorf(\"index %s does not exist\", name)\n}\n")
	k.done["exercise/server.go"] = []byte("package p\n\nfunc validate(name string) error {\n\treturn fmt.Errorf(\"index %q does not exist\", name)\n}\n")
	report := "  Recorded: error: index \"byFoo\" does not exist\n  Got:      error: index byFoo does not exist\n"
	found, ids := k.textOwners(report)
	if !slices.Equal(ids, []int{2}) || len(found) != 1 || found[0].instead != "index %q does not exist" {
		t.Fatalf("found %+v (exercises %v); want validate's \"index %%s does not exist\", instead of %%q", found, ids)
	}
	if text := k.wroteIt(found); !strings.Contains(text, "\"index %s does not exist\", where the reference writes\n          \"index %q does not exist\": its verbs print the recorded text") {
		t.Errorf("Written: line:\n%s", text)
	}
	// A %v for a %s prints the same: a line that diverged elsewhere is
	// no evidence against it.
	k = literalCode()
	k.s.files["server.go"] = []byte("package p\n\nfunc validate(name string) error {\n\treturn fmt.Errorf(\"index %v does not exist\", name)\n}\n")
	k.done["exercise/server.go"] = []byte("package p\n\nfunc validate(name string) error {\n\treturn fmt.Errorf(\"index %s does not exist\", name)\n}\n")
	report = "  Recorded: 404 index byFoo does not exist\n  Got:      500 index byFoo does not exist\n"
	if found, ids := k.textOwners(report); len(ids) != 0 {
		t.Errorf("found %+v (exercises %v); want none", found, ids)
	}
}

// A literal of yours is no evidence where the reference's own format
// prints the line too, or where its own format did not print it. Each
// case is one of trial L2's false blames: yours, the reference's, the
// output that blamed yours.
func TestLiteralsThatAreNoEvidence(t *testing.T) {
	for _, c := range []struct{ name, yours, reference, output string }{{
		// deploymentChanges blamed for every failure of TestDifferential
		// (a plain test: all its output counts).
		name:      "a line the reference's format prints too",
		yours:     `func changes(a, b int) string { return fmt.Sprintf("replicas %d→%d", a, b) }`,
		reference: `func changes(a string, b int) string { return fmt.Sprintf("replicas %s→%d", a, b) }`,
		output:    "    differential_test.go:52: steps differ:\n      event Normal Updated demo/web: replicas 2→4\n    other_test.go:9: Run did not return\n",
	}, {
		// "available" found in the Rollout status a step printed, and
		// updateStatus blamed for syncHandler's bug.
		name:      "a piece its format did not print",
		yours:     `func changes(n int) { tracef("update status: %d available", n) }`,
		reference: `func changes(n int) { tracef("update status: available %d", n) }`,
		output:    "  Trace (-recorded from client-go, +your copy):\n    - error: not managed by Rollout\n    + update rollout/status demo/clash available=0 observed=1\n",
	}, {
		// A trace line that fit a step's own output, in a report whose
		// cause was exercise 1's.
		name:      "a trace diff's line the reference's format prints too",
		yours:     `func changes(ns, n string) { tracef("create deployment %s/%s", ns, n) }`,
		reference: `func changes(n string) { tracef("create deployment %s", n) }`,
		output:    "  Trace (-recorded from client-go, +your copy):\n    - (no writes)\n    + create deployment demo/web replicas=1 image=nginx:1.27\n",
	}} {
		t.Run(c.name, func(t *testing.T) {
			k := literalCode()
			k.s.files["server.go"] = []byte("package watchserver\n\n" + c.yours + "\n")
			k.done["exercise/server.go"] = []byte("package watchserver\n\n" + c.reference + "\n")
			k.funcs["changes"] = 4
			if found, ids := k.textOwners(c.output); len(ids) != 0 {
				t.Errorf("ids = %v, want none\n%s", ids, k.wroteIt(found))
			}
		})
	}
}

// datadriven echoes each step a test plays under -v: what ran, not why
// it failed, and neither evidence nor a reason to show.
func TestEchoedStepsAreLeftOut(t *testing.T) {
	output := strings.Join([]string{
		"    differential_test.go:43: ",
		"        testdata/scenarios/conflict.txt:7:",
		"          start",
		"          ----",
		"          started",
		"    differential_test.go:43: ",
		"        testdata/scenarios/conflict.txt:11:",
		"          create rollout demo/web",
		"          ----",
		"",
		"    scenario_lifecycle_test.go:141: Run did not return within a minute of its context ending.",
		"    differential_test.go:43: ",
		"        testdata/scenarios/tombstone.txt:33:",
		"          tombstone deployment demo/other",
		"          ----",
		"          queued: (nothing)",
	}, "\n")
	want := "    scenario_lifecycle_test.go:141: Run did not return within a minute of its context ending."
	if got := withoutEchoes(output); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
