package scenario

import (
	"fmt"
	"runtime/debug"
	"strings"

	"example.com/walkthrough/workshop/todo"
)

// Caught is a panic caught on a goroutine of the code under test (a
// waiting Pop, an informer's loop, a server's handler), kept with that
// goroutine's stack so the step that raises it again reports where it
// happened, not where it was raised: "index out of range" under the
// frame of your Pop, not under the driver's.
type Caught struct {
	Value any
	Stack string
}

func (c *Caught) Error() string { return fmt.Sprint(c.Value) }

// Report is the panic as a failure report shows it: its value, then the
// chapter's frames it went through, which the runner reads to name the
// exercise. A test that catches a panic it cannot raise again on its own
// goroutine (a worker's, heard by a Crashed hook inside a bubble) fails
// with it.
func (c *Caught) Report() string {
	return panicReport(c.Value, c.Stack)
}

// panicReport is a "Panic:" block: the value, and the chapter's frames of
// stack under it.
func panicReport(value any, stack string) string {
	return fmt.Sprintf("  Panic:    %v\n%s", value, indent(chapterFrames(stack), "            "))
}

// Catch wraps a value recover returned, with the stack of the goroutine
// that panicked; call it in the deferred function that recovered, while
// that stack is still there. nil stays nil, and a value already caught
// (raised again, and caught again) keeps its first stack.
func Catch(v any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case *Caught:
		return v
	}
	return &Caught{Value: v, Stack: fromPanic(string(debug.Stack()))}
}

// fromPanic cuts, from a stack taken while panicking, the frames of the
// recovery (debug.Stack, Catch, the deferred function, panic itself):
// the frame the panic came from is then the first.
func fromPanic(stack string) string {
	header, frames, ok := strings.Cut(stack, "\n")
	if !ok {
		return stack
	}
	i := strings.Index(frames, "panic(")
	if i < 0 || i > 0 && frames[i-1] != '\n' {
		return stack
	}
	rest := frames[i:]
	for range 2 { // panic's function line and its file:line
		_, rest, _ = strings.Cut(rest, "\n")
	}
	return header + "\n" + rest
}

// uncaught is the panic value and the stack to report for v, recovered
// on the step's goroutine with stack: a Caught gives its own.
func uncaught(v any, stack string) (any, string) {
	if c, ok := v.(*Caught); ok {
		return c.Value, c.Stack
	}
	return v, stack
}

// NotDoneIn returns the unfinished exercise v, a recovered value, is the
// stub of, caught on another goroutine or not.
func NotDoneIn(v any) (*todo.NotDone, bool) {
	v, _ = uncaught(v, "")
	nd, ok := v.(*todo.NotDone)
	return nd, ok
}
