package watchserver_test

import (
	"os"
	"strings"
	"testing"
)

// rssKB reads this process's resident set size from /proc (Linux only).
func rssKB() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

// TestEmbeddedEtcdStarts is what every other test relies on; with -v it
// prints the figures the chapter doc quotes: time to ready, and RSS before
// and after. RSS is the whole process's: run it alone
// (-run TestEmbeddedEtcdStarts) for the figures of one etcd.
func TestEmbeddedEtcdStarts(t *testing.T) {
	t.Parallel()
	before := rssKB()
	e := startEtcd(t)
	t.Logf("start → ready %v; RSS %s before, %s after", e.Started, before, rssKB())
	if _, err := e.Client.Get(t.Context(), "probe"); err != nil {
		t.Fatal(err)
	}
}
