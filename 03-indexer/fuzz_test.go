package indexer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// FuzzIndexer plays the same random operation sequence on the reference
// and on client-go and compares every result and the whole state after
// every operation. `make test` runs the seed corpus; `make fuzz CH=03`
// searches for new sequences.
func FuzzIndexer(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 2, 3, 1, 1, 0, 3, 0, 5})
	f.Add([]byte{0, 0, 1, 0, 1, 2, 4, 3, 7, 2, 0, 1, 5, 0, 0, 6, 2, 2})
	f.Add([]byte{4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, ops []byte) {
		ours := newFuzzSide(impls[scenario.Reference])
		theirs := newFuzzSide(impls[scenario.ClientGo])
		for i := 0; i+2 < len(ops) && i < 300; i += 3 {
			op := fuzzOp{code: ops[i], key: ops[i+1], variant: ops[i+2], step: i/3 + 1}
			got, want := ours.apply(op), theirs.apply(op)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("after %s, %s and client-go differ (-client-go +%[2]s):\n%s", op, scenario.Ours(), diff)
			}
		}
	})
}

// fuzzOp is one decoded operation: what to do, to which key, with which
// labels and node.
type fuzzOp struct {
	code, key, variant byte
	step               int
}

var (
	fuzzKeys   = []string{"ns/a", "ns/b", "other/a", "c", "d", "ns/e"}
	fuzzLabels = []string{"", "app:web", "app:db", "app:web,tier:front", "tier:back"}
	fuzzNodes  = []string{"", "n1", "n2"}
)

// object renders the op's object in the scenario notation.
func (o fuzzOp) object() string {
	s := fmt.Sprintf("%s@%d", fuzzKeys[int(o.key)%len(fuzzKeys)], o.step)
	if l := fuzzLabels[int(o.variant)%len(fuzzLabels)]; l != "" {
		s += " labels=" + l
	}
	if n := fuzzNodes[int(o.variant/8)%len(fuzzNodes)]; n != "" {
		s += " node=" + n
	}
	return s
}

// fuzzOpNames names the operations, by code, as a failure report shows
// them (trial B read "op 2" and had to find out it was a delete).
var fuzzOpNames = []string{"add", "update", "delete", "replace with every other key from", "add-indexers byNode beside",
	"index byLabel", "index-keys namespace of", "get", "bookmark beside"}

// kind is the operation's code, an index into fuzzOpNames.
func (o fuzzOp) kind() int { return int(o.code) % len(fuzzOpNames) }

func (o fuzzOp) String() string {
	return fmt.Sprintf("step %d (%s %s)", o.step, fuzzOpNames[o.kind()], o.object())
}

// fuzzSide is one implementation being fuzzed.
type fuzzSide struct{ d *driver }

func newFuzzSide(im impl) *fuzzSide {
	return &fuzzSide{d: &driver{im: im, idx: im.NewIndexer(false, "byLabel", "namespace")}}
}

// apply runs op and returns what it returned plus the whole state.
func (s *fuzzSide) apply(o fuzzOp) string {
	obj, err := parseObject(s.d.im, o.object())
	if err != nil {
		panic(err)
	}
	var out string
	switch o.kind() {
	case 0:
		out = notation.Result(s.d.idx.Add(obj))
	case 1:
		out = notation.Result(s.d.idx.Update(obj))
	case 2:
		out = notation.Result(s.d.idx.Delete(obj))
	case 3: // replace with every other key, starting at the op's key
		var list []any
		for i := int(o.key) % 2; i < len(fuzzKeys); i += 2 {
			o2 := o
			o2.key = byte(i)
			item, _ := parseObject(s.d.im, o2.object())
			list = append(list, item)
		}
		out = notation.Result(s.d.idx.Replace(list, fmt.Sprint(o.step)))
	case 4:
		out = notation.Result(s.d.idx.AddIndexes("byNode"))
	case 5:
		out = setOrError(s.d.idx.Index("byLabel", obj))
	case 6:
		keys, err := s.d.idx.IndexKeys("namespace", strings.Split(fuzzKeys[int(o.key)%len(fuzzKeys)], "/")[0])
		out = valueOrError(fmt.Sprintf("%q", keys), err)
	case 7:
		out = found(s.d.idx.Get(obj))
	case 8:
		s.d.idx.Bookmark(fmt.Sprint(o.step))
		out = "ok"
	}
	return out + "\nrv=" + s.d.idx.LastStoreSyncResourceVersion() + "\n" + s.d.dump()
}
