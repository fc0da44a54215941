package workqueue_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"example.com/walkthrough/workshop/scenario"
)

// FuzzWorkqueue plays the same random operation sequence on the reference
// and on client-go, both rate-limiting queues in one synctest bubble, and
// compares every result and the observable state after every operation.
// `make test` runs the seed corpus; `make fuzz CH=05` searches for new
// sequences.
func FuzzWorkqueue(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 1, 0, 0, 0, 2, 0, 1, 0})
	f.Add([]byte{4, 24, 4, 9, 7, 3, 1, 0, 5, 1, 2, 0, 7, 5, 1, 0, 6, 1, 2, 0})
	f.Add([]byte{5, 0, 5, 0, 5, 0, 7, 4, 1, 0, 2, 0, 5, 0, 7, 4, 7, 5, 1, 0, 6, 0, 8, 0, 1, 0})
	f.Add([]byte{0, 1, 0, 2, 1, 0, 0, 1, 3, 2, 1, 0, 1, 0, 2, 0, 2, 1, 8, 16, 1, 0, 1, 0})
	f.Add([]byte{0, 3, 4, 40, 4, 19, 4, 3, 7, 2, 7, 3, 7, 4, 1, 0, 2, 0, 1, 0, 2, 0, 1, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		synctest.Test(t, func(t *testing.T) {
			ours := newFuzzSide(t, impls[scenario.Reference])
			theirs := newFuzzSide(t, impls[scenario.ClientGo])
			for i := 0; i+1 < len(ops) && i < 400; i += 2 {
				op := fuzzOp{code: ops[i], arg: ops[i+1], step: i/2 + 1}
				var got, want string
				if op.code%9 == 7 {
					// Time is shared: advance it once, then look at both.
					time.Sleep(op.advance())
					synctest.Wait()
					got, want = "advanced", "advanced"
				} else {
					got, want = ours.apply(op), theirs.apply(op)
					synctest.Wait()
				}
				got += "\n" + ours.state()
				want += "\n" + theirs.state()
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("after %s, %s and client-go differ (-client-go +%[2]s):\n%s", op, scenario.Ours(), diff)
				}
			}
		})
	})
}

// fuzzOp is one decoded operation: what to do, and an argument byte that
// picks the key, the delay or the held item.
type fuzzOp struct {
	code, arg byte
	step      int
}

var (
	fuzzKeys     = []string{"a", "b", "c", "d"}
	fuzzDelays   = []time.Duration{-time.Millisecond, 0, time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond, time.Second}
	fuzzAdvances = []time.Duration{time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 50 * time.Millisecond, 250 * time.Millisecond, time.Second}
	// fuzzLimiter mixes a per-item limiter with a small bucket, so both
	// kinds of wait come up in a few dozen operations.
	fuzzLimiter = "max-of(exponential(5ms, 1s), bucket(50, 5))"
)

func (o fuzzOp) key() string            { return fuzzKeys[int(o.arg)%len(fuzzKeys)] }
func (o fuzzOp) delay() time.Duration   { return fuzzDelays[int(o.arg/4)%len(fuzzDelays)] }
func (o fuzzOp) advance() time.Duration { return fuzzAdvances[int(o.arg)%len(fuzzAdvances)] }
func (o fuzzOp) String() string {
	names := []string{"Add", "Get", "Done(held)", "Done(any)", "AddAfter", "AddRateLimited", "Forget", "advance", "ShutDown/NumRequeues"}
	return fmt.Sprintf("step %d (%s, key %s, delay %s, advance %s)", o.step, names[o.code%9], o.key(), o.delay(), o.advance())
}

// fuzzSide is one implementation being fuzzed.
type fuzzSide struct {
	q    handle
	held []string
}

func newFuzzSide(t *testing.T, im impl) *fuzzSide {
	spec, err := parseLimiter(fuzzLimiter)
	if err != nil {
		t.Fatal(err)
	}
	s := &fuzzSide{q: im.NewQueue(rateLimitingQueue, "fuzz", im.NewLimiter(spec))}
	t.Cleanup(func() {
		s.q.ShutDown()
		for _, item := range s.held {
			s.q.Done(item)
		}
	})
	return s
}

// apply runs op and returns what it returned.
func (s *fuzzSide) apply(o fuzzOp) string {
	switch o.code % 9 {
	case 0:
		s.q.Add(o.key())
		return "ok"
	case 1: // Get, only when it cannot block
		if s.q.Len() == 0 {
			return "(empty)"
		}
		item, shutdown := s.q.Get()
		if !shutdown {
			s.held = append(s.held, item)
		}
		return fmt.Sprintf("%q %t", item, shutdown)
	case 2: // Done, on an item a worker holds
		if len(s.held) == 0 {
			return "(nothing held)"
		}
		i := int(o.arg) % len(s.held)
		item := s.held[i]
		s.held = slices.Delete(s.held, i, i+1)
		s.q.Done(item)
		return "done " + item
	case 3: // Done on any key: misuse, but client-go defines what it does
		if i := slices.Index(s.held, o.key()); i >= 0 {
			s.held = slices.Delete(s.held, i, i+1)
		}
		s.q.Done(o.key())
		return "ok"
	case 4:
		s.q.AddAfter(o.key(), o.delay())
		return "ok"
	case 5:
		s.q.AddRateLimited(o.key())
		return "ok"
	case 6:
		s.q.Forget(o.key())
		return "ok"
	case 8:
		if o.arg%16 == 0 {
			s.q.ShutDown()
			return "shut down"
		}
		return strconv.Itoa(s.q.NumRequeues(o.key()))
	}
	panic("unreachable")
}

// state is everything observable without changing the queue: its length,
// the requeue counts, whether it is shutting down, and its metrics.
func (s *fuzzSide) state() string {
	var b strings.Builder
	fmt.Fprintf(&b, "len=%d shutting-down=%t held=%q\n", s.q.Len(), s.q.ShuttingDown(), s.held)
	for _, k := range fuzzKeys {
		fmt.Fprintf(&b, "requeues %s=%d\n", k, s.q.NumRequeues(k))
	}
	// The unfinished-work gauge sums ages in map order: round away the
	// last bits, which depend on that order.
	metrics := s.q.Metrics()
	for name, m := range metrics {
		m.Value, _ = strconv.ParseFloat(strconv.FormatFloat(m.Value, 'g', 9, 64), 64)
		metrics[name] = m
	}
	b.WriteString(formatMetrics(metrics))
	return b.String()
}
