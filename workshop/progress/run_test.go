package progress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/gotest"
)

// sideBySide is a package whose two checks run in parallel: one crashes
// the binary from a goroutine of its own while the other is still
// running, as a stub's panic in a watch cache's goroutine does in
// chapter 07.
const sideBySide = `package p

import (
	"testing"
	"time"
)

func TestInnocent(t *testing.T) {
	t.Parallel()
	time.Sleep(300 * time.Millisecond)
}

func TestCrasher(t *testing.T) {
	t.Parallel()
	t.Log("tempdir", t.TempDir())
	done := make(chan struct{})
	go func() {
		time.Sleep(50 * time.Millisecond)
		panic("not done: exercise 5")
	}()
	<-done
}
`

// TestCrashAmidParallelChecksRerunsThemOneAtATime: the check that kept
// running beside the crash is not blamed for it; run again alone, it
// passes, and only the crasher carries the crash.
func TestCrashAmidParallelChecksRerunsThemOneAtATime(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module p\n\ngo 1.25\n", "p_test.go": sideBySide} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	bin, build, err := gotest.Build(dir, nil)
	if err != nil || bin == nil {
		t.Fatalf("build: %v %s", err, build)
	}
	defer bin.Remove()
	res, err := runTests(bin, nil, 0, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed["TestInnocent"] {
		t.Errorf("TestInnocent ran beside the crash and was judged by it: %q", res.CrashOf["TestInnocent"])
	}
	if res.Passed["TestCrasher"] || !strings.Contains(res.CrashOf["TestCrasher"], "not done: exercise 5") {
		t.Errorf("TestCrasher: passed %v, crash %q; want failed with its panic", res.Passed["TestCrasher"], res.CrashOf["TestCrasher"])
	}
	// The crash left its temporary directory behind, inside the
	// binary's own, which Remove deletes.
	_, after, ok := strings.Cut(res.Output["TestCrasher"], "tempdir ")
	left := strings.Fields(after)
	if !ok || len(left) == 0 {
		t.Fatalf("TestCrasher did not say its temporary directory:\n%s", res.Output["TestCrasher"])
	}
	if _, err := os.Stat(left[0]); err != nil {
		t.Fatalf("%s: %v; want it left behind by the crash until Remove", left[0], err)
	}
	bin.Remove()
	if _, err := os.Stat(left[0]); !os.IsNotExist(err) {
		t.Errorf("%s is still there after Remove (%v)", left[0], err)
	}
}

// TestPlainFailureKeepsTheReason: a failing plain test that logged much on
// the way still shows the line that says why, its last.
func TestPlainFailureKeepsTheReason(t *testing.T) {
	var out strings.Builder
	out.WriteString("=== RUN   TestX\n")
	for i := range 30 {
		out.WriteString("    x_test.go:5: step " + string(rune('a'+i%26)) + "\n")
	}
	out.WriteString("    x_test.go:9: events: [MODIFIED], want MODIFIED DELETED\n--- FAIL: TestX (0.01s)\n")
	k := &code{s: &standIn{yours: map[string]string{}}}
	got, _ := k.plain(out.String())
	if !strings.Contains(got, "want MODIFIED DELETED") || !strings.Contains(got, "(19 lines left out)") || strings.Count(got, "\n") != 14 {
		t.Errorf("plain report:\n%s", got)
	}
}
