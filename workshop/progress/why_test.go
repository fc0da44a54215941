package progress

import (
	"strings"
	"testing"
)

// klog's lines (client-go's, etcd's libraries) say nothing of why a test
// failed: a report leaves them out (trial C read a lease error in one).
func TestReportsLeaveOutKlogLines(t *testing.T) {
	out := "    x_test.go:12: want 1, got 2\n" +
		"E1129 14:02:11.123456   4242 leaderelection.go:473] \"Error retrieving lease lock\" err=\"x\"\n" +
		"I1129 14:02:11.5   17 reflector.go:225] \"Failed to watch\"\n"
	got := cleanReport(out)
	if strings.Contains(got, "leaderelection") || strings.Contains(got, "reflector.go") || !strings.Contains(got, "want 1, got 2") {
		t.Errorf("cleanReport kept klog's lines or lost the test's:\n%s", got)
	}
	k := testCode()
	if text, _ := k.plain(out); strings.Contains(text, "leaderelection") || !strings.Contains(text, "want 1, got 2") {
		t.Errorf("plain kept klog's lines or lost the test's:\n%s", text)
	}
}
