package deltafifo_test

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"example.com/walkthrough/workshop/scenario"
)

// FuzzDeltaFIFO and FuzzRealFIFO play the same random operation sequence
// on the reference and on client-go, inside a synctest bubble, and compare
// after every operation: its result, every popped Deltas or batch (with
// isInInitialList and HasSynced), every error, whether a Pop is left
// waiting, and the consumer's cache. `make test` runs the seed corpus;
// `make fuzz CH=02` searches for new sequences.
//
// Where client-go's order is a Go map's order, the fuzz avoids it: the
// consumer caches list their keys sorted, and a DeltaFIFO Replace drops at
// most one queued key unless the queue was drained first.
func FuzzDeltaFIFO(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 1, 0, 0, 6, 0, 0, 2, 0, 0, 6, 0, 0})
	f.Add([]byte{3, 0, 1, 0, 0, 2, 0, 4, 0, 1, 6, 0, 0, 6, 0, 0, 6, 0, 0, 5, 0, 0, 6, 0, 0})
	f.Add([]byte{1, 4, 0, 2, 6, 0, 0, 0, 1, 0, 2, 1, 0, 3, 1, 0, 6, 0, 0, 4, 2, 2, 6, 1, 0, 6, 0, 0})
	f.Add([]byte{2, 0, 0, 0, 0, 3, 0, 2, 3, 1, 4, 4, 0, 6, 0, 0, 7, 0, 0, 5, 0, 0, 8, 0, 0, 6, 0, 0, 6, 0, 0})
	f.Fuzz(func(t *testing.T, ops []byte) { fuzzFIFO(t, "DeltaFIFO", ops) })
}

func FuzzRealFIFO(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 2, 0, 0, 4, 1, 5, 6, 0, 0, 6, 0, 0, 6, 0, 0})
	f.Add([]byte{1, 0, 0, 0, 4, 0, 1, 5, 0, 0, 9, 0, 7, 10, 0, 0, 10, 0, 0, 10, 0, 0})
	f.Add([]byte{2, 4, 0, 31, 0, 1, 0, 1, 2, 0, 10, 0, 0, 10, 0, 0, 3, 3, 0, 10, 0, 0, 5, 0, 0, 10, 0, 0})
	f.Add([]byte{3, 0, 2, 0, 2, 3, 0, 4, 0, 6, 10, 0, 0, 5, 0, 0, 6, 0, 0, 8, 0, 0, 6, 0, 0, 6, 0, 0})
	f.Fuzz(func(t *testing.T, ops []byte) { fuzzFIFO(t, "RealFIFO", ops) })
}

// fuzzFIFO decodes ops: the first byte picks the queue's options, then
// every three bytes are one operation (what, which key, a variant).
func fuzzFIFO(t *testing.T, kind string, ops []byte) {
	if len(ops) == 0 {
		return
	}
	synctest.Test(t, func(t *testing.T) {
		mode := ops[0]
		ours := newFuzzSide(impls[scenario.Reference], kind, mode)
		theirs := newFuzzSide(impls[scenario.ClientGo], kind, mode)
		defer ours.f.q.Close()
		defer theirs.f.q.Close()
		for i := 1; i+2 < len(ops) && i < 300; i += 3 {
			op := fuzzOp{code: ops[i], key: ops[i+1], variant: ops[i+2], step: i/3 + 1}
			got, want := ours.apply(op), theirs.apply(op)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s (mode %d): after %s, %s and client-go differ (-client-go +%[4]s):\n%s", kind, mode, op, scenario.Ours(), diff)
			}
		}
	})
}

// fuzzOp is one decoded operation.
type fuzzOp struct {
	code, key, variant byte
	step               int
}

var fuzzKeys = []string{"ns/a", "ns/b", "ns/c", "d", "ns/e"}

func (o fuzzOp) keyName() string { return fuzzKeys[int(o.key)%len(fuzzKeys)] }

// object is the op's object: its key at a resource version that says
// which step made it.
func (o fuzzOp) object() string { return fmt.Sprintf("%s@%d", o.keyName(), o.step) }

// fuzzOpNames names the operations, by code, as a failure report shows
// them, not as "op 2" (03's trial).
var fuzzOpNames = []string{"add", "update", "delete", "delete a tombstone of", "replace, from", "resync, at",
	"pop, at", "pop failing, at", "close, at", "bookmark, at", "pop-batch, at"}

// kind is the operation's code, an index into fuzzOpNames.
func (o fuzzOp) kind() int { return int(o.code) % len(fuzzOpNames) }

func (o fuzzOp) String() string {
	return fmt.Sprintf("step %d (%s %s, variant %d)", o.step, fuzzOpNames[o.kind()], o.object(), o.variant)
}

// sortedKnown lists its keys sorted, so that what a queue reads from the
// known objects comes in the same order on both sides.
type sortedKnown struct{ knownStore }

func (s sortedKnown) ListKeys() []string {
	keys := s.knownStore.ListKeys()
	sort.Strings(keys)
	return keys
}

// fuzzSide is one implementation being fuzzed: a driver with one queue.
type fuzzSide struct {
	d *driver
	f *fifo
}

func newFuzzSide(im impl, kind string, mode byte) *fuzzSide {
	d := newDriver(im)
	f := &fifo{name: "q", cache: sortedKnown{im.NewKnown()}}
	if kind == "DeltaFIFO" {
		var known knownStore
		if mode&1 == 0 {
			known = f.cache
		}
		f.q = im.NewDeltaFIFO(known, mode&2 == 0)
	} else {
		switch mode % 4 {
		case 0:
			f.q = im.NewRealFIFO(f.cache, realOptions{})
		case 1:
			f.q = im.NewRealFIFO(nil, realOptions{Atomic: true, Bookmarks: true})
		case 2:
			f.q = im.NewRealFIFO(nil, realOptions{Atomic: true, Unlock: true, Bookmarks: true})
		case 3:
			f.q = im.NewRealFIFO(nil, realOptions{Atomic: true})
		}
	}
	d.fifos = []*fifo{f}
	return &fuzzSide{d: d, f: f}
}

// apply runs op and returns everything it showed, then the queue's and
// the consumer's state.
func (s *fuzzSide) apply(o fuzzOp) string {
	out := s.do(o)
	synctest.Wait()
	return strings.Join(append(out, s.state()...), "\n")
}

// do runs op and returns what it showed.
func (s *fuzzSide) do(o fuzzOp) []string {
	im, q := s.d.im, s.f.q
	obj, _ := parseObject(im, o.object())
	switch o.kind() {
	case 0:
		if o.variant%8 == 7 {
			obj = "str" // no metadata: every write refuses it
		}
		return []string{result(q.Add(obj))}
	case 1:
		return []string{result(q.Update(obj))}
	case 2:
		return []string{result(q.Delete(obj))}
	case 3:
		var last any
		if o.variant%2 == 0 {
			last = obj
		}
		return []string{result(q.Delete(im.Tombstone(o.keyName(), last)))}
	case 4:
		return s.replace(o)
	case 5:
		return []string{result(q.Resync())}
	case 6:
		return s.pop(nil)
	case 7:
		return s.pop(errors.New("process failed"))
	case 8:
		if o.variant%4 == 0 {
			q.Close()
			return []string{"closed"}
		}
	case 9:
		if q.Bookmark != nil {
			return []string{result(q.Bookmark(fmt.Sprint(o.step)))}
		}
	case 10:
		if q.PopBatch != nil && s.f.waiting == nil {
			return []string{"pop-batch: " + s.wait(func() string { return s.d.popBatch(s.f, nil) })}
		}
	}
	return nil
}

// pop pops once, processing with failWith as the error, unless a Pop is
// already waiting.
func (s *fuzzSide) pop(failWith error) []string {
	if s.f.waiting != nil {
		return []string{"a Pop is already waiting"}
	}
	return []string{"pop: " + s.wait(func() string { return s.d.pop(s.f, failWith, false, false) })}
}

// wait runs call as the consumer: its line, or "blocked" while it waits.
func (s *fuzzSide) wait(call func() string) string {
	line, returned := s.d.async(s.f, call)
	if !returned {
		return "blocked"
	}
	return line
}

// state reports a waiting Pop that returned, then the queue's and the
// consumer's state.
func (s *fuzzSide) state() []string {
	var out []string
	if w := s.f.waiting; w != nil && isDone(w.done) {
		s.f.waiting = nil
		if w.panicked != nil {
			panic(w.panicked)
		}
		out = append(out, "the waiting Pop returned: "+w.line)
	}
	q := s.f.q
	out = append(out, fmt.Sprintf("synced=%t closed=%t waiting=%t", q.HasSynced(), q.IsClosed(), s.f.waiting != nil))
	var cache []string
	for _, k := range s.f.cache.ListKeys() {
		obj, _, _ := s.f.cache.GetByKey(k)
		cache = append(cache, formatObject(obj))
	}
	return append(out, "cache: "+strings.Join(cache, " "))
}

// replace picks a list. A RealFIFO gets any subset of the keys. A
// DeltaFIFO gets every key but at most one, or, after a drain, an empty
// list: its tombstones for queued keys come in map order, so at most one
// queued key may be dropped.
func (s *fuzzSide) replace(o fuzzOp) []string {
	var names []string
	var out []string
	switch {
	case s.f.q.Kind == "RealFIFO":
		for i, k := range fuzzKeys {
			if o.variant&(1<<i) != 0 {
				names = append(names, k)
			}
		}
	case o.variant%3 == 0:
		for _, k := range fuzzKeys {
			if k != o.keyName() {
				names = append(names, k)
			}
		}
	case o.variant%3 == 1:
		names = fuzzKeys
	default:
		// Drain: pop until a Pop waits (or the closed queue says so).
		for s.f.waiting == nil && len(out) < 20 {
			line, returned := s.d.async(s.f, func() string { return s.d.pop(s.f, nil, false, false) })
			if !returned {
				line = "blocked"
			}
			out = append(out, "drain: "+line)
			if strings.HasPrefix(line, "error:") {
				break
			}
		}
	}
	var list []any
	for _, k := range names {
		obj, _ := parseObject(s.d.im, fmt.Sprintf("%s@%d", k, o.step))
		list = append(list, obj)
	}
	return append(out, result(s.f.q.Replace(list, fmt.Sprint(o.step))))
}
