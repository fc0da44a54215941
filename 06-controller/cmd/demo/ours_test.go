//go:build ours

package main

import (
	"strings"
	"testing"
	"time"
)

// TestDemoOnOurServer runs the whole story on chapter 07's API server,
// started in this process, as make demo SERVER=ours does: every step
// catches up, and the trace starts at the server's own start-up.
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
}
