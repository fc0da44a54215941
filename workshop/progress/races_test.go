package progress

import (
	"slices"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/gotest"
)

// store.go as a learner might write it: Update forgot the lock that List
// takes. Line numbers matter: raceReport's frames point at 57 and 97.
func storeSource() []byte {
	lines := make([]string, 120)
	for i := range lines {
		lines[i] = ""
	}
	lines[0] = "package indexer"
	lines[54] = "func (s *ThreadSafeStore) Update(key string, obj any) {"
	lines[56] = "\ts.items[key] = obj"
	lines[57] = "}"
	lines[92] = "func (s *ThreadSafeStore) List() []any {"
	lines[93] = "\ts.mu.RLock()"
	lines[94] = "\tdefer s.mu.RUnlock()"
	lines[96] = "\treturn list(s.items)"
	lines[97] = "}"
	return []byte(strings.Join(lines, "\n"))
}

func TestRaceBlamesTheSideWithNoLock(t *testing.T) {
	k := testCode()
	k.s.files = map[string][]byte{"store.go": storeSource()}
	text, owners, fn := k.raced(raceReport)
	proved := fn != ""
	if !proved || !slices.Equal(owners, []int{3}) {
		t.Errorf("owners = %v (proved %v), want [3] proved: Update holds no lock, List does", owners, proved)
	}
	for _, want := range []string{
		"- write in ThreadSafeStore.Update (exercise 3), no lock held\n            03-indexer/exercise/store.go:57\n",
		"- previous read in ThreadSafeStore.List (exercise 6), under the read lock\n",
		"Take the lock the other side holds around the access with none.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("race reason lacks %q:\n%s", want, text)
		}
	}
}

// When the side with no lock is the reference's code to the letter and
// the side under a lock is not, the locked side reached into memory it
// does not own: trial Q's removeListener closed the pump's channel, and
// "take the lock" sent the learner to the pump, written as the reference's.
func TestRaceBlamesTheSideThatIsNotTheReferences(t *testing.T) {
	k := testCode()
	k.s.files = map[string][]byte{"store.go": storeSource()}
	reference := strings.Split(string(storeSource()), "\n")
	reference[96] = "\treturn nil"
	k.done = map[string][]byte{"exercise/store.go": []byte(strings.Join(reference, "\n"))}
	text, owners, fn := k.raced(raceReport)
	if fn != "ThreadSafeStore.List" || !slices.Equal(owners, []int{6}) {
		t.Errorf("put on %q, owners %v; want ThreadSafeStore.List, [6]: Update is the reference's, List is not\n%s", fn, owners, text)
	}
	if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, "The side with no lock, ThreadSafeStore.Update, is the reference's code") ||
		!strings.Contains(flat, "ThreadSafeStore.List (exercise 6), on the side under a lock, is not") {
		t.Errorf("the reason does not say why the locked side is blamed:\n%s", text)
	}
	// With Update written otherwise, the side with no lock is blamed, as
	// before.
	k = testCode()
	k.s.files = map[string][]byte{"store.go": storeSource()}
	reference[56] = "\ts.mu.Lock(); s.items[key] = obj; s.mu.Unlock()"
	k.done = map[string][]byte{"exercise/store.go": []byte(strings.Join(reference, "\n"))}
	if _, owners, fn := k.raced(raceReport); fn != "ThreadSafeStore.Update" || !slices.Equal(owners, []int{3}) {
		t.Errorf("put on %q, owners %v; want ThreadSafeStore.Update, [3]", fn, owners)
	}
}

// A write under RLock is the fault, whatever lock the other side holds:
// the 03 trial's Update under RLock read "under a lock" on both sides.
func TestRaceBlamesAWriteUnderTheReadLock(t *testing.T) {
	k := testCode()
	src := storeSource()
	lines := strings.Split(string(src), "\n")
	lines[55] = "\ts.mu.RLock(); defer s.mu.RUnlock()"
	k.s.files = map[string][]byte{"store.go": []byte(strings.Join(lines, "\n"))}
	text, owners, fn := k.raced(raceReport)
	if fn != "ThreadSafeStore.Update" || !slices.Equal(owners, []int{3}) {
		t.Errorf("put on %q, owners %v; want ThreadSafeStore.Update, [3]: it writes under RLock", fn, owners)
	}
	for _, want := range []string{
		"- write in ThreadSafeStore.Update (exercise 3), under the read lock only\n",
		"- previous read in ThreadSafeStore.List (exercise 6), under the read lock\n",
		"A write needs the write lock (Lock)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("race reason lacks %q:\n%s", want, text)
		}
	}
}

// A function named ...Locked leaves the lock to its caller: the race is
// blamed on the caller that took none.
func TestRaceBlamesTheCallerOfALockedFunction(t *testing.T) {
	k := testCode()
	k.funcs["cache.addLocked"] = 2
	report := strings.Replace(raceReport, "(*ThreadSafeStore).Update()", "(*cache).addLocked()", 1)
	k.s.files = map[string][]byte{"store.go": storeSource()}
	text, owners, fn := k.raced(report)
	proved := fn != ""
	if !proved || !slices.Equal(owners, []int{3}) {
		t.Errorf("owners = %v (proved %v), want [3] proved: cache.Update calls addLocked with no lock", owners, proved)
	}
	want := "called from cache.Update (exercise 3), which holds no lock there\n            03-indexer/exercise/indexer.go:88\n"
	if !strings.Contains(text, want) {
		t.Errorf("race reason lacks %q:\n%s", want, text)
	}
}

// A helper the reference calls with the lock already held (it takes
// none itself) leaves the lock to its caller: a race in it is put on the
// innermost caller whose reference takes the lock, as the 05 trial's
// AddAfter reading the heap's next before its Lock.
func TestRaceBlamesTheCallerThatShouldLock(t *testing.T) {
	k := testCode()
	k.s.files = map[string][]byte{"store.go": storeSource()}
	k.done = map[string][]byte{
		"exercise/store.go":   []byte("package p\n\nfunc (s *ThreadSafeStore) Update() { s.items[key] = obj }\n"),
		"exercise/indexer.go": []byte("package p\n\nfunc (c *cache) Update() {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n\tc.store.Update()\n}\n"),
	}
	text, _, fn := k.raced(raceReport)
	if fn != "cache.Update" {
		t.Errorf("put on %q, want cache.Update: the reference's ThreadSafeStore.Update takes no lock, its caller does", fn)
	}
	want := "called from cache.Update (exercise 3), which holds no lock there\n"
	if !strings.Contains(text, want) {
		t.Errorf("race reason lacks %q:\n%s", want, text)
	}
}

// A type with no lock of its own (03's storeIndex) is guarded by its
// caller's: a write in it, called from a store method holding the
// store's lock, ran under a lock (the 03 blank trial was told its Update
// held none). A type with its own lock (04's syncTracker) is guarded by
// that lock only.
func TestRaceInAnUnlockedTypeUnderItsCallersLock(t *testing.T) {
	report := strings.Replace(raceReport, `  example.com/walkthrough/03-indexer.(*ThreadSafeStore).Update()
      /w/03-indexer/store.go:57 +0x53`, `  example.com/walkthrough/03-indexer.(*storeIndex).updateOne()
      /w/03-indexer/index.go:9 +0x53
  example.com/walkthrough/03-indexer.(*ThreadSafeStore).Update()
      /w/03-indexer/store.go:57 +0x53`, 1)
	index := []byte("package indexer\n\ntype storeIndex struct {\n\tindices map[string]any\n}\n\nfunc (i *storeIndex) updateOne() {\n\n\ti.indices[\"k\"] = 1\n}\n")
	locked := strings.Replace(string(storeSource()), "obj any) {\n\n", "obj any) {\n\ts.mu.Lock()\n", 1) // line 56, before the write at 57
	for _, ownLock := range []bool{false, true} {
		k := testCode()
		k.s.yours["/w/03-indexer/index.go"] = "03-indexer/exercise/index.go"
		k.funcs["storeIndex.updateOne"] = 5
		k.s.files = map[string][]byte{"store.go": []byte(locked), "index.go": index}
		decl := "type storeIndex struct{ indices map[string]any }"
		if ownLock {
			decl = "type storeIndex struct{ mu sync.Mutex; indices map[string]any }"
		}
		k.done = map[string][]byte{"exercise/index.go": []byte("package indexer\n\n" + decl + "\n")}
		text, _, _ := k.raced(report)
		under := strings.Contains(text, "write in storeIndex.updateOne (exercise 5), under a lock")
		if under == ownLock {
			t.Errorf("storeIndex with a lock of its own %v: the write read as under a lock %v, want %v:\n%s", ownLock, under, !ownLock, text)
		}
		if !ownLock && strings.Contains(text, "which holds no lock there") {
			t.Errorf("Update holds the store's lock, yet the report says it holds none:\n%s", text)
		}
	}
}

func TestLockedAt(t *testing.T) {
	src := []byte(`package p

func a() {
	mu.Lock()
	x = 1
	mu.Unlock()
	x = 2
	defer mu.Unlock()
	mu.RLock()
	defer mu.RUnlock()
	x = 3
	go func() {
		x = 4
	}()
}

func bLocked() {
	x = 5
}

func c() {
	func() {
		mu.Lock()
		defer mu.Unlock()
		x = 6
	}()
}
`)
	// Line 13 and 25 are in function literals: their frames are the
	// literals'. Line 27 is c's frame, calling the literal: the literal's
	// lock is not c's.
	for line, want := range map[int]bool{5: true, 7: false, 11: true, 13: false, 18: false, 25: true, 27: false} {
		closure := line == 13 || line == 25
		if lock, _ := lockedAt(src, line, closure); (lock != "") != want {
			t.Errorf("line %d (closure %t): locked = %q, want %v", line, closure, lock, want)
		}
	}
	for fn, want := range map[string]bool{"p.c": false, "p.c.func1": true, "p.(*T).m.deferwrap2": true, "p.(*T).m": false, "p.a.gowrap1": true} {
		if inClosure(fn) != want {
			t.Errorf("inClosure(%q) = %v, want %v", fn, !want, want)
		}
	}
}

func TestShareRacesGivesEveryRacedTestTheReport(t *testing.T) {
	res := &gotest.Result{Output: map[string]string{
		"TestA": "    testing.go:1712: " + raceMark + "\n",
		"TestB": raceReport + "    testing.go:1712: " + raceMark + "\n",
		"TestC": "--- PASS\n",
	}}
	shareRaces(res)
	if len(parseRaces(res.Output["TestA"])) != 1 {
		t.Errorf("TestA was not given the run's race report:\n%s", res.Output["TestA"])
	}
	if len(parseRaces(res.Output["TestB"])) != 1 {
		t.Errorf("TestB's report was doubled:\n%s", res.Output["TestB"])
	}
	if strings.Contains(res.Output["TestC"], "DATA RACE") {
		t.Errorf("TestC did not race, yet was given the report")
	}
}

// A lock counts for an access when a method of the same type holds it:
// the processor's lock, held while it calls a listener's tracker, does not
// guard the tracker's count.
func TestReceiverOf(t *testing.T) {
	for fn, want := range map[string]string{
		"example.com/walkthrough/04-processor.(*sharedProcessor).distribute":       "sharedProcessor",
		"example.com/walkthrough/04-processor.(*sharedProcessor).distribute.func1": "sharedProcessor",
		"example.com/walkthrough/04-processor.syncTracker.hasSynced":               "syncTracker",
		"example.com/walkthrough/05-workqueue.(*Typed[...]).Add":                   "Typed",
		"example.com/walkthrough/04-processor.newSharedProcessor":                  "",
		"example.com/walkthrough/04-processor.newSharedProcessor.func2":            "",
		"example.com/walkthrough/04-processor.newSharedProcessor.func2.1":          "",
	} {
		if got := receiverOf(fn); got != want {
			t.Errorf("receiverOf(%q) = %q, want %q", fn, got, want)
		}
	}
}
