package processor

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
	// exercise:begin 1 Grow a ring buffer instead of blocking
	// exercise:hint When the ring is full, move its items in order into storage twice as big (16 if
	//   it had none), then put the new item after the last one.
	// exercise:deeper The oldest item is at data[beg]; the next free slot is (beg+readable) modulo
	//   the capacity. After growing, copy the items starting at index 0 and set beg to 0.
	if r.readable == len(r.data) {
		size := 2 * len(r.data)
		if size == 0 {
			size = defaultRingSize
		}
		grown := make([]any, size)
		n := copy(grown, r.data[r.beg:])
		copy(grown[n:], r.data[:r.beg])
		r.data, r.beg = grown, 0
	}
	r.data[(r.beg+r.readable)%len(r.data)] = item
	r.readable++
	// exercise:end 1
}

// Read removes and returns the oldest item, or reports false when empty.
func (r *RingBuffer) Read() (any, bool) {
	// exercise:begin 1
	if r.readable == 0 {
		return nil, false
	}
	item := r.data[r.beg]
	r.data[r.beg] = nil // let the garbage collector have it
	r.beg = (r.beg + 1) % len(r.data)
	r.readable--
	return item, true
	// exercise:end 1
}

// Len is the number of items held.
func (r *RingBuffer) Len() int { return r.readable }

// Cap is the number of items the ring holds before it grows.
func (r *RingBuffer) Cap() int { return len(r.data) }
