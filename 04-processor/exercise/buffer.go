// Your copy of ../buffer.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import "example.com/walkthrough/workshop/todo"

// defaultRingSize is the capacity a ring with no storage grows to first.
const defaultRingSize = 16

// initialBufferSize is the capacity each listener's ring starts with.
const initialBufferSize = 1024

// RingBuffer is a first-in, first-out queue that never refuses a write: when
// it is full it doubles. A listener keeps one between distribute and its
// handler, so a handler that falls behind costs memory, never a blocked
// informer.
//
// The items live in data[beg], data[beg+1], ... wrapping around at len(data).
// It is not safe for concurrent use: only the listener's pop goroutine
// touches it.
//
// upstream: k8s.io/utils/buffer/ring_growing.go (TypedRingGrowing), which
// client-go's processorListener keeps in its pendingNotifications
type RingBuffer struct {
	data     []any
	beg      int // index of the oldest item
	readable int // number of items held; readable <= len(data)
}

func NewRingBuffer(initialSize int) *RingBuffer {
	return &RingBuffer{data: make([]any, initialSize)}
}

// Write appends item, doubling the storage first if it is full.
func (r *RingBuffer) Write(item any) {
	// Exercise 1: Write appends item, doubling the storage first if it is full.
	panic(todo.Exercise("04-processor", 1, "RingBuffer.Write"))
}

// Read removes and returns the oldest item, or reports false when empty.
func (r *RingBuffer) Read() (any, bool) {
	// Exercise 1: Read removes and returns the oldest item, or reports false when empty.
	panic(todo.Exercise("04-processor", 1, "RingBuffer.Read"))
}

// Len is the number of items held.
func (r *RingBuffer) Len() int { return r.readable }

// Cap is the number of items the ring holds before it grows.
func (r *RingBuffer) Cap() int { return len(r.data) }

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
