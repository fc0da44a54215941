package notation

import (
	"fmt"
	"sync"
)

// Trace collects the lines of what happened, in order, from any goroutine:
// a server's requests, a store's calls, a watch's events.
type Trace struct {
	mu    sync.Mutex
	lines []string
}

// Add appends one line.
func (t *Trace) Add(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, fmt.Sprintf(format, args...))
}

// Take returns the lines and forgets them.
func (t *Trace) Take() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.lines
	t.lines = nil
	return out
}

// Peek returns the lines and keeps them: a step on a real clock looks
// until it sees what it expects, then drops what it showed.
func (t *Trace) Peek() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.lines...)
}

// Drop forgets the first n lines.
func (t *Trace) Drop(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = t.lines[n:]
}

// OrNone is lines, or "(none)" when there are none.
func OrNone(lines []string) []string {
	if len(lines) == 0 {
		return []string{"(none)"}
	}
	return lines
}

// Result is "ok", or "error: " and the error's text.
func Result(err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return "ok"
}
