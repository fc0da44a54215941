package workqueue

import (
	"container/heap"
	"time"
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
	// exercise:begin 9 The waiting heap: the earliest ready time wins
	// exercise:hint An item that already waits keeps the earlier of its two ready times. A new item
	//   goes on the heap.
	// exercise:hint You also fill in the heap methods of entryHeap: container/heap calls them.
	// exercise:hint The waiting goroutine calls Pop and Swap, so you finish all five functions
	//   before you run the scenarios.
	// exercise:deeper You look the item up in w.byItem. If readyAt is earlier, you set it and call
	//   heap.Fix(&w.entries, e.index).
	// exercise:deeper You add a new entry with heap.Push(&w.entries, e) and record it in w.byItem.
	// exercise:deeper Less compares readyAt with Before. Swap and Push keep each entry's index
	//   equal to its position.
	if e, ok := w.byItem[item]; ok {
		if readyAt.Before(e.readyAt) {
			e.readyAt = readyAt
			heap.Fix(&w.entries, e.index)
		}
		return
	}
	e := &entry[T]{item: item, readyAt: readyAt}
	heap.Push(&w.entries, e)
	w.byItem[item] = e
	// exercise:end 9
}

// popReady removes and returns, earliest first, every item whose ready
// time is not after now.
func (w *waiting[T]) popReady(now time.Time) []T {
	// exercise:begin 8
	var ready []T
	for len(w.entries) > 0 && !w.entries[0].readyAt.After(now) {
		e := heap.Pop(&w.entries).(*entry[T])
		delete(w.byItem, e.item)
		ready = append(ready, e.item)
	}
	return ready
	// exercise:end 8
}

// next returns the earliest ready time, if anything waits.
func (w *waiting[T]) next() (time.Time, bool) {
	// exercise:begin 8
	if len(w.entries) == 0 {
		return time.Time{}, false
	}
	return w.entries[0].readyAt, true
	// exercise:end 8
}

// entryHeap implements heap.Interface: container/heap keeps the order,
// these methods say what the order is and keep entry.index right.
//
// client-go: util/workqueue/delaying_queue.go (waitForPriorityQueue)
type entryHeap[T comparable] []*entry[T]

func (h entryHeap[T]) Len() int { return len(h) }

// Less orders the heap by ready time, the earliest first.
func (h entryHeap[T]) Less(i, j int) bool {
	// exercise:begin 9
	return h[i].readyAt.Before(h[j].readyAt)
	// exercise:end 9
}

// Swap swaps two entries and keeps each one's index current.
func (h entryHeap[T]) Swap(i, j int) {
	// exercise:begin 9
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
	// exercise:end 9
}

// Push appends an entry, recording its index; container/heap calls it.
func (h *entryHeap[T]) Push(x any) {
	// exercise:begin 9
	e := x.(*entry[T])
	e.index = len(*h)
	*h = append(*h, e)
	// exercise:end 9
}

// Pop removes the last entry and marks it out of the heap;
// container/heap calls it.
func (h *entryHeap[T]) Pop() any {
	// exercise:begin 9
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = nil
	e.index = -1
	*h = old[:len(old)-1]
	return e
	// exercise:end 9
}
