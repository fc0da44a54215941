package scenario

import "testing"

// OursOnly runs test unless impl is client-go: a stress test that calls
// the chapter's own parts (its package, which your copy stands in for
// under the runner) judges the reference or your copy, not client-go.
func OursOnly(t *testing.T, impl string, test func(t *testing.T)) {
	t.Helper()
	if impl == ClientGo {
		t.Skip("it judges our own parts (the reference or your copy), not client-go's")
	}
	test(t)
}

// Held reports whether some goroutine holds l, without waiting for it:
// a test asks it from code that must run under l (an index function
// inside HandleDeltas, a process function inside Pop).
func Held(l interface {
	TryLock() bool
	Unlock()
}) bool {
	if l.TryLock() {
		l.Unlock()
		return false
	}
	return true
}
