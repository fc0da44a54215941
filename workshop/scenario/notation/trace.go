package notation

import (
	"fmt"
	"sync"
)

// Log collects values in the order any goroutine appends them, for a
// step to take: a trace's lines, or a driver's own records of what
// happened (a line and the object it is about).
type Log[T any] struct {
	mu    sync.Mutex
	items []T
}

// Append adds one value.
func (l *Log[T]) Append(v T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, v)
}

// Take returns the values and forgets them.
func (l *Log[T]) Take() []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.items
	l.items = nil
	return out
}

// Peek returns the values and keeps them: a step on a real clock looks
// until it sees what it expects, then drops what it showed.
func (l *Log[T]) Peek() []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]T(nil), l.items...)
}

// Drop forgets the first n values.
func (l *Log[T]) Drop(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = l.items[n:]
}

// Trace collects the lines of what happened, in order, from any goroutine:
// a server's requests, a store's calls, a watch's events.
type Trace struct {
	Log[string]
}

// Add appends one line.
func (t *Trace) Add(format string, args ...any) { t.Append(fmt.Sprintf(format, args...)) }

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
