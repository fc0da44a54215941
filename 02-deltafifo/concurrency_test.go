package deltafifo_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"example.com/walkthrough/workshop/scenario"
)

// These tests run goroutines against both implementations: a producer and
// consumers with real scheduling (run them with -race), and the blocking
// behaviour of Pop and Close inside synctest bubbles, where "blocked" is
// exact.

// queueKinds are the three queues the tests run: the classic one, the
// plain log, and the log in atomic mode that lets producers in while its
// single consumer works.
var queueKinds = []struct {
	name  string
	make  func(im impl) (queue, knownStore)
	stubs int // the last exercise the kind needs, for TestStress
}{
	{"DeltaFIFO", func(im impl) (queue, knownStore) {
		k := im.NewKnown()
		return im.NewDeltaFIFO(k, true), k
	}, 3},
	{"RealFIFO", func(im impl) (queue, knownStore) {
		k := im.NewKnown()
		return im.NewRealFIFO(k, realOptions{}), k
	}, 7},
	{"RealFIFO-atomic-unlock", func(im impl) (queue, knownStore) {
		return im.NewRealFIFO(nil, realOptions{Atomic: true, Unlock: true, Bookmarks: true}), im.NewKnown()
	}, 7},
}

// eachQueue runs body for every kind of queue, on the selected
// implementation (your copy too, under WALKTHROUGH_IMPL=exercise) and, on
// the reference, on client-go.
func eachQueue(t *testing.T, body func(t *testing.T, im impl, newQueue func() (queue, knownStore))) {
	for _, name := range selectedAndClientGo(t) {
		im := impls[name]
		for _, kind := range queueKinds {
			t.Run(name+"/"+kind.name, func(t *testing.T) {
				body(t, im, func() (queue, knownStore) { return kind.make(im) })
			})
		}
	}
}

// selectedAndClientGo names the implementations a test runs: the selected
// one, and client-go beside the reference (not beside your copy standing
// in for it: the runner has no use for it), to show the test holds for
// it.
func selectedAndClientGo(t *testing.T) []string {
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	if name == scenario.Reference && !scenario.OnYourCopy() {
		return []string{name, scenario.ClientGo}
	}
	return []string{name}
}

// TestStress runs producerAndConsumers on the selected implementation, so
// the runner runs it on your copy too (as a test of the last exercise each
// queue needs), and the races the queues' locks must settle: HasSynced
// asked while the first write syncs a DeltaFIFO (exercise 1) or a
// RealFIFO (7, the log it needs), and Resync or Bookmark beside the writes and the pops of a RealFIFO
// (exercise 8). On the reference it also runs client-go, to show the
// tests hold for it.
func TestStress(t *testing.T) {
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range queueKinds {
		check := strings.ToLower(kind.name) + "-every-change-once-in-order"
		scenario.Stress(t, kind.stubs, check, func(t *testing.T) {
			q, _ := kind.make(impls[name])
			producerAndConsumers(t, impls[name], q, kind.name)
		})
	}
	for _, kind := range queueKinds[:2] {
		// HasSynced is exercise 1's; a RealFIFO needs its log (7) too.
		check := strings.ToLower(kind.name) + "-has-synced-asked-while-written"
		scenario.Stress(t, map[string]int{"DeltaFIFO": 1, "RealFIFO": 7}[kind.name], check, func(t *testing.T) {
			hasSyncedAskedWhileWritten(t, impls[name], kind.make)
		})
	}
	for _, call := range besideTheWatch {
		scenario.Stress(t, 8, "realfifo-"+strings.ToLower(call)+"-beside-the-watch", func(t *testing.T) {
			callBesideTheWatch(t, impls[name], call)
		})
	}
	for _, kind := range queueKinds[:2] {
		// Delete is exercise 1's on a DeltaFIFO, which asks exercise 4
		// whether anyone heard of the key; 7's on a RealFIFO.
		check := strings.ToLower(kind.name) + "-delete-beside-add"
		scenario.Stress(t, map[string]int{"DeltaFIFO": 4, "RealFIFO": 7}[kind.name], check, func(t *testing.T) {
			deleteBesideAdd(t, impls[name], kind.make)
		})
	}
	scenario.Stress(t, 7, "realfifo-isclosed-asked-while-closing", func(t *testing.T) {
		isClosedAskedWhileClosing(t, impls[name])
	})
	if name == scenario.Reference {
		for _, kind := range queueKinds {
			t.Run("client-go/"+kind.name, func(t *testing.T) {
				q, _ := kind.make(impls[scenario.ClientGo])
				producerAndConsumers(t, impls[scenario.ClientGo], q, kind.name)
			})
		}
		for _, kind := range queueKinds[:2] {
			t.Run("client-go/"+strings.ToLower(kind.name)+"-has-synced-asked-while-written", func(t *testing.T) {
				hasSyncedAskedWhileWritten(t, impls[scenario.ClientGo], kind.make)
			})
		}
		for _, call := range besideTheWatch {
			t.Run("client-go/"+strings.ToLower(call)+"-beside-the-watch", func(t *testing.T) {
				callBesideTheWatch(t, impls[scenario.ClientGo], call)
			})
		}
		for _, kind := range queueKinds[:2] {
			t.Run("client-go/"+strings.ToLower(kind.name)+"-delete-beside-add", func(t *testing.T) {
				deleteBesideAdd(t, impls[scenario.ClientGo], kind.make)
			})
		}
		t.Run("client-go/realfifo-isclosed-asked-while-closing", func(t *testing.T) {
			isClosedAskedWhileClosing(t, impls[scenario.ClientGo])
		})
	}
}

// deleteBesideAdd: the Reflector's watch deletes while another writer
// adds (a relist, a second watch of the same queue). Delete first asks
// whether anyone has heard of the key (the queue's deltas, the known
// objects): that question reads what Add writes, so it must be asked
// under the lock Delete then writes under, not before it (a deletion
// decided on a stale answer is lost or doubled). Each round starts an
// Add of one key and a Delete of another at the same moment on a fresh
// queue; they share nothing but that lock, so the race detector reports
// a Delete that looks before it locks, whatever the timing. The known
// objects hold the deleted key, so its deletion is queued.
func deleteBesideAdd(t *testing.T, im impl, newQueue func(impl) (queue, knownStore)) {
	synctest.Test(t, func(t *testing.T) {
		for r := range 20 {
			q, known := newQueue(im)
			added, err := parseObject(im, fmt.Sprintf("ns/a@%d", r+1))
			if err != nil {
				t.Fatal(err)
			}
			gone, err := parseObject(im, "ns/b@1")
			if err != nil {
				t.Fatal(err)
			}
			if err := known.Add(gone); err != nil {
				t.Fatal(err)
			}
			atOnce(func() {
				if err := q.Add(added); err != nil {
					t.Errorf("Add: %v", err)
				}
			}, func() {
				if err := q.Delete(gone); err != nil {
					t.Errorf("Delete: %v", err)
				}
			})
			var popped []string // "Added", "Deleted": either order
			for range 2 {
				ds, err := q.Pop(func([]delta, bool) error { return nil })
				if err != nil || len(ds) == 0 {
					t.Fatalf("round %d: Pop: %v", r+1, err)
				}
				popped = append(popped, ds[len(ds)-1].Type)
			}
			if slices.Sort(popped); fmt.Sprint(popped) != "[Added Deleted]" {
				t.Fatalf("round %d: popped %v after an Add of ns/a beside a Delete of the known ns/b; want [Added Deleted]", r+1, popped)
			}
			q.Close()
		}
	})
}

// isClosedAskedWhileClosing: a consumer's loop asks IsClosed (client-go's
// processLoop does, after each failed Pop) while the informer's stop
// closes the queue from another goroutine. Both take the lock: the race
// detector reports an IsClosed that reads the flag without it.
func isClosedAskedWhileClosing(t *testing.T, im impl) {
	synctest.Test(t, func(t *testing.T) {
		for r := range 20 {
			q := im.NewRealFIFO(im.NewKnown(), realOptions{})
			atOnce(q.Close, func() {
				_ = q.IsClosed() // either answer: the Close may not have come yet
			})
			if !q.IsClosed() {
				t.Fatalf("round %d: IsClosed is false after Close returned", r+1)
			}
		}
	})
}

// atOnce runs each of fns on a goroutine of its own, all released at the
// same moment, and waits for them. Calls that share nothing but the
// queue's lock, started so, are reported by the race detector when one of
// them skips the lock, whatever the timing.
func atOnce(fns ...func()) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, fn := range fns {
		wg.Go(func() {
			<-start
			fn()
		})
	}
	close(start)
	wg.Wait()
}

// hasSyncedAskedWhileWritten: an informer asks HasSynced from goroutines
// of its own (WaitForCacheSync polls it) while the Reflector writes, and a
// write before any Replace syncs the queue at once (there is no initial
// list). So Add and HasSynced both take the queue's lock. Each round
// starts a writer and an asker at the same moment on a fresh queue;
// they share nothing but that lock, so the race detector reports either
// side that skips it, whatever the timing. After the write the queue is
// synced.
func hasSyncedAskedWhileWritten(t *testing.T, im impl, newQueue func(impl) (queue, knownStore)) {
	synctest.Test(t, func(t *testing.T) {
		const rounds = 20
		for r := range rounds {
			q, _ := newQueue(im)
			obj, err := parseObject(im, fmt.Sprintf("ns/a@%d", r+1))
			if err != nil {
				t.Fatal(err)
			}
			atOnce(func() {
				if err := q.Add(obj); err != nil {
					t.Errorf("Add: %v", err)
				}
			}, func() {
				_ = q.HasSynced() // either answer: the write may not have come yet
			})
			if !q.HasSynced() {
				t.Fatalf("round %d: HasSynced is false after an Add with no Replace before it", r+1)
			}
			q.Close()
		}
	})
}

// besideTheWatch are the calls a Reflector makes to its RealFIFO from
// beside the watch's writes: Resync from its resync goroutine, Bookmark
// from the watch's goroutine as a bookmark event comes.
var besideTheWatch = []string{"Resync", "Bookmark"}

// callBesideTheWatch: a Reflector calls Resync (or Bookmark) from one
// goroutine while another writes, and the consumer pops, all on one
// atomic RealFIFO with bookmarks on; each call appends to the log under
// the queue's lock. The three start at the same moment. The log must hand
// out every write, in order, and one SyncAll (or Bookmark) delta per
// call. The caller's goroutine shares nothing with the others but that
// lock: without it the race detector reports the log appended to while
// another goroutine reads it.
func callBesideTheWatch(t *testing.T, im impl, call string) {
	synctest.Test(t, func(t *testing.T) {
		const writes, resyncs = 200, 20
		q := im.NewRealFIFO(nil, realOptions{Atomic: true, Bookmarks: true})
		kind := map[string]string{"Resync": "SyncAll", "Bookmark": "Bookmark"}[call]
		defer q.Close()
		objs := make([]any, writes)
		for i := range objs {
			var err error
			if objs[i], err = parseObject(im, fmt.Sprintf("ns/k%d@%d", i%7, i+1)); err != nil {
				t.Fatal(err)
			}
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			<-start
			for _, obj := range objs {
				if err := q.Add(obj); err != nil {
					t.Errorf("Add: %v", err)
					return
				}
			}
		})
		wg.Go(func() {
			<-start
			for i := range resyncs {
				err := q.Resync
				if call == "Bookmark" {
					err = func() error { return q.Bookmark(fmt.Sprint(i + 1)) }
				}
				if err := err(); err != nil {
					t.Errorf("%s: %v", call, err)
					return
				}
			}
		})
		var written []string
		syncs := 0
		var handed atomic.Int64 // deltas popped so far, read when the consumer stalls
		popped := make(chan struct{})
		go func() {
			defer close(popped)
			<-start
			for len(written)+syncs < writes+resyncs {
				_, err := q.Pop(func(ds []delta, _ bool) error {
					handed.Add(int64(len(ds)))
					for _, d := range ds {
						if d.Type == kind {
							syncs++
						} else {
							written = append(written, formatObject(d.Object))
						}
					}
					return nil
				})
				if err != nil {
					return // closed: a delta was lost
				}
			}
		}()
		close(start)
		wg.Wait()
		// On the bubble's fake time a minute passes at once when nothing
		// else can happen: the consumer waits for a delta that never came.
		select {
		case <-popped:
		case <-time.After(time.Minute):
			stalled := handed.Load() // the consumer waits in Pop: read before Close wakes it
			q.Close()
			<-popped
			t.Errorf("the consumer stopped after %d of the %d deltas queued and waited in Pop while more were queued: a write or a %s appended without waking it (Broadcast)", stalled, writes+resyncs, call)
		}
		want := make([]string, writes)
		for i, obj := range objs {
			want[i] = formatObject(obj)
		}
		if !slices.Equal(written, want) || syncs != resyncs {
			t.Errorf("popped %d writes (in order: %t) and %d %s deltas; want every one of the %d writes in order and %d %s deltas",
				len(written), slices.Equal(written, want[:min(len(written), writes)]), syncs, kind, writes, resyncs, kind)
		}
	})
}

// One producer writes a stream of adds and updates over a few keys while
// consumers pop concurrently; then it closes the queue. Every change must
// come out exactly once, in order per key, and a RealFIFO must keep the
// producer's order across keys too. An unlocking RealFIFO gets one
// consumer, as it requires. TestStress runs it.
func producerAndConsumers(t *testing.T, im impl, q queue, kind string) {
	consumers := 3
	if strings.HasSuffix(kind, "unlock") {
		consumers = 1
	}
	const keys, rounds = 7, 150
	var produced []string
	for r := range rounds {
		for k := range keys {
			produced = append(produced, fmt.Sprintf("ns/k%d@%d", k, r))
		}
	}

	var mu sync.Mutex // guards popped (process may run unlocked)
	var popped []string
	var wg sync.WaitGroup
	for range consumers {
		wg.Go(func() {
			for {
				_, err := q.Pop(func(ds []delta, _ bool) error {
					mu.Lock()
					defer mu.Unlock()
					for _, d := range ds {
						popped = append(popped, formatObject(d.Object))
					}
					return nil
				})
				if err != nil {
					return // closed and empty
				}
			}
		})
	}
	for i, text := range produced {
		obj, _ := parseObject(im, text)
		write := q.Add
		if i >= keys {
			write = q.Update
		}
		if err := write(obj); err != nil {
			t.Errorf("write %s: %v", text, err)
		}
	}
	q.Close()
	wg.Wait()

	if q.Kind == "RealFIFO" {
		if !slices.Equal(popped, produced) {
			t.Fatalf("a RealFIFO must hand out every delta in order: %s", firstDifference(popped, produced))
		}
		return
	}
	// A DeltaFIFO may merge, but per key the order is the producer's.
	perKey := func(list []string) map[string][]string {
		m := map[string][]string{}
		for _, s := range list {
			k, _, _ := strings.Cut(s, "@")
			m[k] = append(m[k], s)
		}
		return m
	}
	got, want := perKey(popped), perKey(produced)
	for k := range want {
		if !slices.Equal(got[k], want[k]) {
			t.Fatalf("key %s, every delta once and in order: %s", k, firstDifference(got[k], want[k]))
		}
	}
}

// firstDifference says where got first differs from want: the first delta
// out of place, or the one missing or extra at the end, and both counts.
func firstDifference(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("delta #%d popped was %s, want %s (%d popped, %d written)", i+1, got[i], want[i], len(got), len(want))
		}
	}
	if len(got) < len(want) {
		return fmt.Sprintf("%d popped of %d written; the first missing is %s", len(got), len(want), want[len(got)])
	}
	return fmt.Sprintf("%d popped of %d written; the first extra is %s", len(got), len(want), got[len(want)])
}

// Pop on an empty queue blocks, durably, until a write arrives; then it
// returns exactly that write.
func TestPopBlocksUntilAWrite(t *testing.T) {
	eachQueue(t, func(t *testing.T, im impl, newQueue func() (queue, knownStore)) {
		synctest.Test(t, func(t *testing.T) {
			q, _ := newQueue()
			defer q.Close()
			var got []delta
			done := make(chan error)
			go func() {
				_, err := q.Pop(func(ds []delta, _ bool) error { got = ds; return nil })
				done <- err
			}()
			synctest.Wait()
			select {
			case err := <-done:
				t.Fatalf("Pop on an empty queue returned (%v); it must block", err)
			default:
			}
			obj, _ := parseObject(im, "ns/a@1")
			if err := q.Add(obj); err != nil {
				t.Fatal(err)
			}
			if err := <-done; err != nil {
				t.Fatalf("Pop after an Add: %v", err)
			}
			if s := formatDeltas(got); s != "ns/a: Added ns/a@1" {
				t.Fatalf("Pop handed out %q", s)
			}
		})
	})
}

// Close wakes every blocked Pop with the closed-queue error, and IsClosed
// reports it.
func TestCloseWakesEveryPop(t *testing.T) {
	eachQueue(t, func(t *testing.T, im impl, newQueue func() (queue, knownStore)) {
		synctest.Test(t, func(t *testing.T) {
			q, _ := newQueue()
			errs := make(chan error, 3)
			for range 3 {
				go func() {
					_, err := q.Pop(func([]delta, bool) error { return nil })
					errs <- err
				}()
			}
			synctest.Wait()
			if len(errs) != 0 || q.IsClosed() {
				t.Fatalf("before Close: %d Pops returned, IsClosed=%t", len(errs), q.IsClosed())
			}
			q.Close()
			synctest.Wait()
			if len(errs) != 3 || !q.IsClosed() {
				t.Fatalf("after Close: %d of 3 Pops returned, IsClosed=%t", len(errs), q.IsClosed())
			}
			for range 3 {
				if err := <-errs; err == nil || err.Error() != "DeltaFIFO: manipulating with closed queue" {
					t.Fatalf("a woken Pop returned %v", err)
				}
			}
		})
	})
}

// With UnlockWhileProcessing, a producer can write while process runs,
// in Pop (exercise 7) and in PopBatch (exercise 10): the write returns
// before process does.
func TestUnlockWhileProcessingLetsProducersIn(t *testing.T) {
	for _, name := range selectedAndClientGo(t) {
		im := impls[name]
		for _, pop := range []string{"Pop", "PopBatch"} {
			t.Run(name+"/"+pop, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					q := im.NewRealFIFO(nil, realOptions{Atomic: true, Unlock: true})
					defer q.Close()
					a, _ := parseObject(im, "ns/a@1")
					b, _ := parseObject(im, "ns/b@2")
					c, _ := parseObject(im, "ns/c@3")
					_ = q.Add(a)
					if pop == "PopBatch" {
						_ = q.Add(b) // two keys: a batch, not a single
					}
					release := make(chan struct{})
					process := func([]delta, bool) error { <-release; return nil }
					go func() {
						if pop == "Pop" {
							_, _ = q.Pop(process)
						} else {
							_ = q.PopBatch(process, process)
						}
					}()
					synctest.Wait() // inside process now
					written := make(chan error, 1)
					go func() { written <- q.Add(c) }()
					synctest.Wait()
					if len(written) != 1 {
						t.Fatalf("Add waited for %s's process: the lock was held while processing, though UnlockWhileProcessing is on", pop)
					}
					close(release)
				})
			})
		}
	}
}
