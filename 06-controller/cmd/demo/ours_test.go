//go:build ours

package main

import (
	"strings"
	"testing"
	"time"
)

// TestDemoOnOurServer runs the whole story on chapter 07's API server,
// started in this process, as make demo SERVER=ours does: every step
// catches up, the trace starts at the server's own start-up, and a change
// is traced from etcd's write to the worker's API call.
func TestDemoOnOurServer(t *testing.T) {
	var out strings.Builder
	start := time.Now()
	if err := run(&out, options{simulate: true}, nil); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	took := time.Since(start)
	for _, want := range []string{"API server on an embedded etcd", "create deployment web", "(simulated) deployment web: 2/2 available", "rollout no longer exists"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the demo's trace lacks %q:\n%s", want, out.String())
		}
	}
	t.Logf("the story took %v on our server", took.Round(time.Millisecond))
	checkStartsAtEtcd(t, out.String(), "3. Scale web to 4 replicas")
}

// checkStartsAtEtcd checks that the trace of the story's section titled
// title starts at etcd's write, and that the change goes on from there
// through chapter 07's server and every chapter's component to the
// worker's API call, in that order.
func checkStartsAtEtcd(t *testing.T, trace, title string) {
	t.Helper()
	_, section, ok := strings.Cut(trace, "── "+title+" ")
	if !ok {
		t.Fatalf("the trace has no section %q:\n%s", title, trace)
	}
	section, _, _ = strings.Cut(section, " done in ")
	var stages []string
	for _, line := range strings.Split(section, "\n")[1:] {
		// A line is "  0.250s etcd        web    PUT ...": the time, the
		// stage, the name; a wrapped line's continuation has no time.
		f := strings.Fields(line)
		if len(f) >= 2 && strings.HasSuffix(f[0], "s") && strings.Contains(f[0], ".") {
			stages = append(stages, f[1])
		}
	}
	if len(stages) == 0 || stages[0] != StageEtcd {
		t.Fatalf("section %q starts at %v, want etcd's write:\n%s", title, stages[:min(len(stages), 1)], section)
	}
	want := []string{StageEtcd, StageWatchCache, StageWatchServer, "reflector", "fifo", "indexer", "handler", "queue", "worker", "api"}
	next := 0
	for _, s := range stages {
		if next < len(want) && s == want[next] {
			next++
		}
	}
	if next < len(want) {
		t.Errorf("section %q goes through %v, which lacks %s after %v:\n%s", title, stages, want[next], want[:next], section)
	}
}
