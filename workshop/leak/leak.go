// Package leak checks that a chapter's tests leave no goroutine running:
// every informer, queue, watch and server a test starts must stop by the
// end of it. A goroutine left behind is a Stop that does not stop, or a
// channel nobody closes: in a controller, a slow leak per resync.
//
// A chapter calls it from its TestMain:
//
//	func TestMain(m *testing.M) { leak.VerifyTestMain(m) }
//
// It is our own twenty lines rather than go.uber.org/goleak: the check is
// one stack dump and a filter (docs/dependencies.md).
package leak

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// background lists goroutines that outlive every test by design, each
// with the reason it may.
var background = []string{
	"testing.(*M).",                            // the test binary itself
	"testing.tRunner",                          // a test still reporting its result
	"runtime.goexit",                           // a goroutine on its way out
	"os/signal.signal_recv",                    // the signal package's watcher
	"k8s.io/klog/v2.(*flushDaemon).run",        // klog's flush timer, process-wide
	"created by k8s.io/klog/v2.(*flushDaemon)", // the same, seen from its creator
	// Idle keep-alive connections in an HTTP client's pool (the end-to-end
	// tests' clients; client-go shares transports process-wide). The pool
	// owns and closes them; a watch or a request still open would also
	// show the goroutine of the code that reads it.
	"golang.org/x/net/http2.(*ClientConn).readLoop",
	"net/http.(*persistConn).readLoop",
	"net/http.(*persistConn).writeLoop",
}

// Header starts the report of a leak: the runner reads the dump after it.
const Header = "leak: goroutines still running after every test passed; a Stop or ShutDown did not stop them:"

// VerifyTestMain runs the tests, then fails the binary if any goroutine
// of the code under test is still running once they pass.
func VerifyTestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if left := Find(5 * time.Second); left != "" {
			fmt.Fprintf(os.Stderr, "%s\n\n%s\n", Header, left)
			code = 1
		}
	}
	os.Exit(code)
}

// Find waits up to patience for the goroutines other than this one and
// the background ones to end, and returns the stacks of those that did
// not ("" when none is left).
func Find(patience time.Duration) string {
	deadline := time.Now().Add(patience)
	for {
		left := running()
		if len(left) == 0 {
			return ""
		}
		if time.Now().After(deadline) {
			return strings.Join(left, "\n\n")
		}
		time.Sleep(20 * time.Millisecond) // outside any test: a grace period, not a timing assertion
	}
}

// Stacks returns every goroutine's stack, as runtime.Stack prints it, the
// calling goroutine's first.
func Stacks() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	return strings.Split(string(buf), "\n\n")
}

// running returns the stacks of the goroutines that are neither this one
// nor in background.
func running() []string {
	var left []string
	for _, g := range Stacks()[1:] { // the first is this goroutine
		if !isBackground(g) {
			left = append(left, strings.TrimSpace(g))
		}
	}
	return left
}

func isBackground(stack string) bool {
	for _, b := range background {
		if strings.Contains(stack, b) {
			return true
		}
	}
	return false
}
