// Your copy of ../ring.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"math"
	"sort"
	"time"

	"example.com/walkthrough/workshop/todo"
)

// eventRing is the watch cache's window of recent events, oldest first: a
// watch from a version inside it is replayed from memory. Its capacity
// follows the age of what it holds, as kube-apiserver's does: it starts at
// the smallest (History, 100) and doubles, up to MaxHistory (102,400),
// whenever it is full and its oldest event is younger than
// EventFreshDuration (75 s), so an event is dropped only once it is that
// old or the ring is as big as it gets. When even the newest quarter of a
// full ring is older than that, the ring halves again: a burst of writes
// does not hold memory for ever.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/watch_cache_history.go
// (watchCacheHistory)
type eventRing struct {
	slots []ringEvent // len(slots) is the capacity
	// start and end count every event ever added: the window is
	// [start, end), and event i is in slots[i % capacity].
	start, end int
	min, max   int
	fresh      time.Duration
	// dropped says whether an event fell out of the window since the
	// last reset: the window then starts at its oldest event, not at the
	// list the cache was primed with.
	dropped bool
}

// ringEvent is an event and when the cache received it.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/watch_cache.go (watchCacheEvent)
type ringEvent struct {
	Event
	at time.Time
}

func newEventRing(smallest, largest int, fresh time.Duration) *eventRing {
	return &eventRing{slots: make([]ringEvent, smallest), min: smallest, max: max(smallest, largest), fresh: fresh}
}

// add puts ev at the end of the window, received at now, first resizing
// the ring by the age of what it holds; a full ring then drops its oldest.
func (r *eventRing) add(ev Event, now time.Time) {
	r.resize(now)
	if r.full() {
		r.start++
		r.dropped = true
	}
	r.slots[r.end%len(r.slots)] = ringEvent{Event: ev, at: now}
	r.end++
}

// resize doubles a full ring whose oldest event is still fresh, and halves
// a full ring whose newest quarter is already stale.
func (r *eventRing) resize(now time.Time) {
	if !r.full() {
		return
	}
	capacity := len(r.slots)
	switch {
	case now.Sub(r.slots[r.start%capacity].at) < r.fresh:
		r.resizeTo(min(capacity*2, r.max))
	case now.Sub(r.slots[(r.end-capacity/4)%capacity].at) > r.fresh:
		r.resizeTo(max(capacity/2, r.min))
	}
}

// resizeTo moves the window into a ring of the given capacity; a smaller
// one keeps the newest events.
func (r *eventRing) resizeTo(capacity int) {
	if capacity == len(r.slots) {
		return
	}
	if r.end-r.start > capacity {
		r.start = r.end - capacity
	}
	slots := make([]ringEvent, capacity)
	for i := r.start; i < r.end; i++ {
		slots[i%capacity] = r.slots[i%len(r.slots)]
	}
	r.slots = slots
}

func (r *eventRing) full() bool { return r.end-r.start == len(r.slots) }

// reset empties the window: a new list starts a new history.
func (r *eventRing) reset() {
	r.start, r.dropped = r.end, false
	clear(r.slots)
}

// oldest is the oldest event in the window, if any.
func (r *eventRing) oldest() (Event, bool) {
	if r.start == r.end {
		return Event{}, false
	}
	return r.slots[r.start%len(r.slots)].Event, true
}

// interval is a stretch [from, to) of the ring's window, counted as start
// and end are, that a watcher replays: it reads it a chunk at a time, as it
// sends, rather than copying it all under the lock when the watch starts.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/watch_cache_interval.go
// (watchCacheInterval, historyCacheIntervalSource)
type interval struct{ from, to int }

// replayChunk is how many events a watcher reads from its interval at a
// time (kube-apiserver's bufferSize).
const replayChunk = 100

// after is the interval of the window's events newer than rv.
func (r *eventRing) after(rv int64) interval {
	first := r.start + sort.Search(r.end-r.start, func(i int) bool {
		return r.slots[(r.start+i)%len(r.slots)].RV > rv
	})
	return interval{from: first, to: r.end}
}

// read takes up to n events from the front of iv. ok is false when the
// window has moved past iv's front since (the ring dropped those events, or
// shrank over them, or was reset by a relist): what it would read now is
// other events, so the watcher must end.
func (r *eventRing) read(iv *interval, n int) (events []Event, ok bool) {
	if iv.from < r.start {
		return nil, false
	}
	for ; iv.from < iv.to && len(events) < n; iv.from++ {
		events = append(events, r.slots[iv.from%len(r.slots)].Event)
	}
	return events, true
}

// watchChanSize is a new watcher's input buffer: about one second of the
// window (its capacity over EventFreshDuration), at least 10 and at most
// 100, kube-apiserver's rule for a resource with no indexed field, such as
// ConfigMaps.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/watch_cache_history.go
// (watchCacheHistory.suggestedWatchChannelSize)
func (r *eventRing) watchChanSize() int {
	size := int(math.Ceil(float64(len(r.slots)) / r.fresh.Seconds()))
	return min(max(size, 10), 100)
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = math.Ceil
	_ = sort.Search
)
