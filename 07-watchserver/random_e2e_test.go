package watchserver_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/cluster"
	"example.com/walkthrough/workshop/scenario"
)

// TestE2ERandomSequencesAgree plays random request sequences, written in
// the scenario files' commands, against our server and the real
// kube-apiserver of make e2e, step by step, and fails at the first step
// whose answers differ: creates, updates at current, stale and malformed
// versions, deletes, gets, LISTs with every combination of
// resourceVersion, resourceVersionMatch, limit, continue and selectors,
// and short watches (timeoutSeconds=1) from every kind of version, with
// and without initial events and bookmarks. A divergence is printed as a
// scenario file to paste into testdata/scenarios and record.
//
// WALKTHROUGH_RANDOM_SEQUENCES sets how many sequences (default 12), and
// WALKTHROUGH_RANDOM_SEED the first seed (default 1): a failure names its
// seed, which replays it.
func TestE2ERandomSequencesAgree(t *testing.T) {
	cluster.Require(t)
	if scenario.Rewriting() {
		t.Skip("nothing to record")
	}
	count, first := envInt(t, "WALKTHROUGH_RANDOM_SEQUENCES", 12), envInt(t, "WALKTHROUGH_RANDOM_SEED", 1)
	start, steps := time.Now(), 0
	for seed := first; seed < first+count; seed++ {
		script := randomSequence(uint64(seed), 24)
		steps += len(script)
		at, ours, theirs := firstDivergence(t, script)
		if at < 0 {
			continue
		}
		// Once more, from fresh servers: a divergence that does not come
		// back is timing (a compaction of kube-apiserver's etcd, a slow
		// machine), not behaviour.
		if again, _, _ := firstDivergence(t, script); again < 0 {
			t.Logf("seed %d: step %d differed once, then not again (timing): ours %q, kube-apiserver %q", seed, at+1, ours, theirs)
			continue
		}
		t.Errorf("seed %d (WALKTHROUGH_RANDOM_SEED=%d WALKTHROUGH_RANDOM_SEQUENCES=1 replays it): step %d differs.\n"+
			"kube-apiserver:\n%s\nours:\n%s\nThe sequence up to it, as a scenario file:\n\n%s",
			seed, seed, at+1, indentLines(theirs), indentLines(ours), asScenario(script[:at+1]))
	}
	t.Logf("%d sequences, %d steps each side, in %s", count, steps, time.Since(start).Round(time.Second))
}

// firstDivergence plays script against our server and kube-apiserver,
// each fresh, and returns the index of the first step whose answers
// differ, with both answers; -1 when none does.
func firstDivergence(t *testing.T, script []datadriven.TestData) (int, string, string) {
	var at int = -1
	var ours, theirs string
	t.Run("sequence", func(t *testing.T) {
		a := newDriver(t, impls[scenario.Reference].Start(t))
		b := newDriver(t, impls[scenario.ClientGo].Start(t))
		a.serving()
		play := func(d *driver, i int) string {
			td := script[i] // each side gets its own copy
			if td.Cmd == "end" && d.watches[scenario.Arg(t, &td, "id")] == nil {
				return "(no watch open)" // the watch was refused
			}
			return d.step(t, &td)
		}
		for i := range script {
			x, y := alike(play(a, i)), alike(play(b, i))
			if x != y {
				at, ours, theirs = i, x, y
				return
			}
		}
	})
	return at, ours, theirs
}

// currentVersion is the cache's version in a 504's message:
// kube-apiserver's counts every resource's writes, ours only ConfigMaps'.
var currentVersion = regexp.MustCompile(`current: \S+`)

// alike takes out of an answer what differs for a reason that is no
// behaviour of the server's.
func alike(out string) string {
	return currentVersion.ReplaceAllString(out, "current: #")
}

// randomSequence is n steps drawn from seed: names and labels from small
// sets, so that objects collide, versions from those the sequence has
// made (as labels) and from the kinds a client may send.
func randomSequence(seed uint64, n int) []datadriven.TestData {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	pick := func(options ...string) string { return options[r.IntN(len(options))] }
	writes, watches, lists := 0, 0, 0
	version := func() string {
		options := []string{"", "0", "abc", "99999999999"}
		if writes > 0 {
			newest := fmt.Sprintf("r%d", writes)
			options = append(options, newest, newest, fmt.Sprintf("r%d", 1+r.IntN(writes)))
		}
		return pick(options...)
	}
	var script []datadriven.TestData
	step := func(cmd, input string, args ...string) {
		td := datadriven.TestData{Pos: fmt.Sprintf("random seed %d", seed), Cmd: cmd, Input: input}
		for i := 0; i+1 < len(args); i += 2 {
			if args[i+1] == "" {
				continue
			}
			if args[i+1] == "!" { // a bare flag
				td.CmdArgs = append(td.CmdArgs, datadriven.CmdArg{Key: args[i]})
				continue
			}
			td.CmdArgs = append(td.CmdArgs, datadriven.CmdArg{Key: args[i], Vals: []string{args[i+1]}})
		}
		script = append(script, td)
	}
	flag := func(p float64) string {
		if r.Float64() < p {
			return "!"
		}
		return ""
	}
	for len(script) < n {
		name := pick("a", "b", "c")
		switch k := r.IntN(100); {
		case k < 25:
			step("create", fmt.Sprintf("k=%d", r.IntN(3)), "name", name, "labels", pick("", "app=web", "app=db"))
			writes++
		case k < 40:
			step("update", fmt.Sprintf("k=%d", r.IntN(3)), "name", name, "labels", pick("", "app=web"), "rv", pick("", "", version()))
			writes++
		case k < 48:
			step("delete", "", "name", name)
			writes++
		case k < 53:
			step("get", "", "name", name)
		case k < 80:
			cont := ""
			if lists > 0 && r.IntN(4) == 0 {
				cont = pick(fmt.Sprintf("c%d", lists), "garbage")
			}
			step("list", "", "rv", version(), "match", pick("", "", "NotOlderThan", "Exact", "Bogus"),
				"limit", pick("", "", "1", "2"), "continue", cont, "selector", pick("", "", "app=web"), "causes", flag(0.3))
			lists++
		default:
			watches++
			id := fmt.Sprintf("w%d", watches)
			step("watch", "", "id", id, "rv", version(), "timeout", "1", "bookmarks", flag(0.5),
				"initial", pick("", "", "true", "false"), "match", pick("", "", "Exact"), "selector", pick("", "app=web"), "causes", flag(0.3))
			step("end", "", "id", id)
		}
	}
	return script
}

// asScenario prints steps as a scenario file's, with blank expectations:
// record them with make golden CH=07.
func asScenario(steps []datadriven.TestData) string {
	var b strings.Builder
	for _, td := range steps {
		b.WriteString(td.FullCmd() + "\n")
		if td.Input != "" {
			b.WriteString(td.Input + "\n")
		}
		b.WriteString("----\n\n")
	}
	return b.String()
}

func indentLines(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}

// envInt reads a whole number from the environment, or gives def.
func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s=%q: want a whole number", name, v)
	}
	return n
}
