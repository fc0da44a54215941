// Your copy of ../waiting.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 05`
// checks your work, and `go run ./workshop/cmd/workshop hint 05 N` gives
// exercise N's hint.

package workqueue

import (
	"container/heap"
	"time"

	"example.com/walkthrough/workshop/todo"
)

// waiting is the set of items a delaying queue holds back until their
// ready time: a min-heap on ready time, so the next one due is always at
// the top, plus an index by item, so an item waits only once.
//
// An item added again while it waits keeps the earlier of its two ready
// times: "not before t" twice is "not before the earlier t".
//
// client-go: util/workqueue/delaying_queue.go (waitForPriorityQueue, insert)
type waiting[T comparable] struct {
	// entries is a heap (container/heap) ordered by readyAt. Every entry
	// is in byItem under its item, and entry.index is its position here.
	entries entryHeap[T]
	byItem  map[T]*entry[T]
}

// entry is one waiting item.
//
// client-go: util/workqueue/delaying_queue.go (waitFor)
type entry[T comparable] struct {
	item    T
	readyAt time.Time
	index   int // position in the heap, kept up to date by Swap and Push
}

func newWaiting[T comparable]() *waiting[T] {
	return &waiting[T]{byItem: map[T]*entry[T]{}}
}

// insert makes item wait until readyAt, or until its current ready time if
// that is earlier.
func (w *waiting[T]) insert(item T, readyAt time.Time) {
	// Exercise 9: insert makes item wait until readyAt, or until its current ready time if that is earlier.
	panic(todo.Exercise("05-workqueue", 9, "waiting.insert"))
}

// popReady removes and returns, earliest first, every item whose ready
// time is not after now.
func (w *waiting[T]) popReady(now time.Time) []T {
	var ready []T
	for len(w.entries) > 0 && !w.entries[0].readyAt.After(now) {
		e := heap.Pop(&w.entries).(*entry[T])
		delete(w.byItem, e.item)
		ready = append(ready, e.item)
	}
	return ready
}

// next returns the earliest ready time, if anything waits.
func (w *waiting[T]) next() (time.Time, bool) {
	if len(w.entries) == 0 {
		return time.Time{}, false
	}
	return w.entries[0].readyAt, true
}

// entryHeap implements heap.Interface: container/heap keeps the order,
// these methods say what the order is and keep entry.index right.
//
// client-go: util/workqueue/delaying_queue.go (waitForPriorityQueue)
type entryHeap[T comparable] []*entry[T]

func (h entryHeap[T]) Len() int { return len(h) }

// Less orders the heap by ready time, the earliest first.
func (h entryHeap[T]) Less(i, j int) bool {
	// Exercise 9: Less orders the heap by ready time, the earliest first.
	panic(todo.Exercise("05-workqueue", 9, "entryHeap.Less"))
}

// Swap swaps two entries and keeps each one's index current.
func (h entryHeap[T]) Swap(i, j int) {
	// Exercise 9: Swap swaps two entries and keeps each one's index current.
	panic(todo.Exercise("05-workqueue", 9, "entryHeap.Swap"))
}

// Push appends an entry, recording its index; container/heap calls it.
func (h *entryHeap[T]) Push(x any) {
	// Exercise 9: Push appends an entry, recording its index; container/heap calls it.
	panic(todo.Exercise("05-workqueue", 9, "entryHeap.Push"))
}

// Pop removes the last entry and marks it out of the heap;
// container/heap calls it.
func (h *entryHeap[T]) Pop() any {
	// Exercise 9: Pop removes the last entry and marks it out of the heap; container/heap calls it.
	panic(todo.Exercise("05-workqueue", 9, "entryHeap.Pop"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = heap.Fix
)
