// Your copy of ../observe.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 05`
// checks your work, and `go run ./workshop/cmd/workshop hint 05 N` gives
// exercise N's hint.

package workqueue

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// State is what a queue holds at one moment, as the step-through viewer
// (chapter 06's make demo VIEW=web) draws it.
//
// client-go: none; it only reads the queue, for the viewer.
type State[T comparable] struct {
	// Queue is waiting for a worker, oldest first.
	Queue []T
	// Dirty needs work and no worker has taken it yet (every queued item,
	// and items added again while processing); Processing is held by a
	// worker. Both are sorted by their printed form.
	Dirty, Processing []T
	// Waiting is held back by AddAfter, earliest first.
	Waiting []WaitingItem[T]
	// Requeues counts each item's rate-limited retries (NumRequeues), for
	// the items above with at least one; nil for a queue without a limiter.
	Requeues map[T]int
}

// WaitingItem is an item a delaying queue holds back, and when it is due.
//
// client-go: util/workqueue/delaying_queue.go (waitFor)
type WaitingItem[T comparable] struct {
	Item    T
	ReadyAt time.Time
}

// Observe reads the state of a queue this package made. It reports false
// for any other queue. Each part is read under that part's own lock, one
// after the other, so a queue in motion can show an item in two places.
func Observe[T comparable](q TypedInterface[T]) (State[T], bool) {
	var s State[T]
	var limiter TypedRateLimiter[T]
	if r, ok := q.(*rateLimitingQueue[T]); ok {
		limiter = r.limiter
		q = r.TypedDelayingInterface
	}
	if d, ok := q.(*delayingQueue[T]); ok {
		d.mu.Lock()
		for _, e := range d.waiting.entries {
			s.Waiting = append(s.Waiting, WaitingItem[T]{Item: e.item, ReadyAt: e.readyAt})
		}
		d.mu.Unlock()
		slices.SortFunc(s.Waiting, func(a, b WaitingItem[T]) int { return a.ReadyAt.Compare(b.ReadyAt) })
		q = d.TypedInterface
	}
	t, ok := q.(*Typed[T])
	if !ok {
		return State[T]{}, false
	}
	t.mu.Lock()
	s.Queue = slices.Clone(t.queue)
	for item := range t.dirty {
		s.Dirty = append(s.Dirty, item)
	}
	for item := range t.processing {
		s.Processing = append(s.Processing, item)
	}
	t.mu.Unlock()
	byPrint := func(a, b T) int { return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)) }
	slices.SortFunc(s.Dirty, byPrint)
	slices.SortFunc(s.Processing, byPrint)
	if limiter != nil {
		s.Requeues = map[T]int{}
		count := func(item T) {
			if n := limiter.NumRequeues(item); n > 0 {
				s.Requeues[item] = n
			}
		}
		for _, items := range [][]T{s.Queue, s.Dirty, s.Processing} {
			for _, item := range items {
				count(item)
			}
		}
		for _, w := range s.Waiting {
			count(w.Item)
		}
	}
	return s, true
}
