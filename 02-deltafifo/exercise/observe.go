// Your copy of ../observe.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 02`
// checks your work, and `go run ./workshop/cmd/workshop hint 02 N` gives
// exercise N's hint.

package deltafifo

import (
	"k8s.io/apimachinery/pkg/api/meta"
)

// Pending is one entry of a queue as the step-through viewer (chapter
// 06's make demo VIEW=web) draws it: a key and the deltas waiting under
// it, oldest first, each as its type and the object's resourceVersion
// ("Added 12"). A DeltaFIFO has one entry per key; a RealFIFO's log has
// one per delta, so a key can appear more than once. A whole-list delta
// (ReplacedAll, SyncAll, Bookmark) has no key.
//
// client-go: none; it only reads the queue, for the viewer.
type Pending struct {
	Key    string   `json:"key"`
	Deltas []string `json:"deltas"`
}

// Pending lists what waits in the queue, in the order Pop hands it out.
// It takes the queue's lock, so it must not be called from inside Pop's
// process function, which runs under that lock.
func (f *DeltaFIFO) Pending() []Pending {
	f.lock.Lock()
	defer f.lock.Unlock()
	out := make([]Pending, 0, len(f.queue))
	for _, key := range f.queue {
		p := Pending{Key: key}
		for _, d := range f.items[key] {
			p.Deltas = append(p.Deltas, DescribeDelta(d))
		}
		out = append(out, p)
	}
	return out
}

// Pending lists the log, oldest first. It takes the queue's lock: call it
// from inside Pop's process function only on an atomic RealFIFO that
// unlocks while processing.
func (f *RealFIFO) Pending() []Pending {
	f.lock.Lock()
	defer f.lock.Unlock()
	out := make([]Pending, 0, len(f.items))
	for _, d := range f.items {
		out = append(out, Pending{Key: PendingKey(d.Object), Deltas: []string{DescribeDelta(d)}})
	}
	return out
}

// DescribeDelta is how Pending shows a delta: its type and, when it has
// one, the resourceVersion it carries.
func DescribeDelta(d Delta) string {
	switch info := d.Object.(type) {
	case ReplacedAllInfo:
		return string(d.Type) + " " + info.ResourceVersion
	case BookmarkInfo:
		return string(d.Type) + " " + info.ResourceVersion
	case DeletedFinalStateUnknown:
		return string(d.Type) + " (tombstone)"
	}
	if m, err := meta.Accessor(d.Object); err == nil {
		return string(d.Type) + " " + m.GetResourceVersion()
	}
	return string(d.Type)
}

// PendingKey is how Pending keys an object: namespace/name (or a
// tombstone's key), read from the object itself rather than through the
// queue's key function, so the viewer works over a learner's queue whose
// key function is not written yet. A whole-list delta's object has none.
func PendingKey(obj any) string {
	if t, ok := obj.(DeletedFinalStateUnknown); ok {
		return t.Key
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	if m.GetNamespace() == "" {
		return m.GetName()
	}
	return m.GetNamespace() + "/" + m.GetName()
}
