package progress

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

// neverUnlocks is store.go with an Update that returns holding the lock,
// beside functions that release theirs every way they may.
const neverUnlocks = `package indexer

func (s *ThreadSafeStore) Update(key string, obj any) {
	s.mu.Lock()
	s.items[key] = obj
}

func (s *ThreadSafeStore) Get(key string) any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.items[key]
}

func (s *ThreadSafeStore) List() []any {
	s.mu.RLock()
	defer func() { s.mu.RUnlock() }()
	return nil
}

func (s *ThreadSafeStore) lockAndGet(key string) any {
	s.mu.Lock()
	return s.items[key]
}
`

// A stuck goroutine waits for a lock: the report names the function that
// took it and never released it, and proves that function the culprit.
func TestStuckNamesTheFunctionThatNeverUnlocks(t *testing.T) {
	k := testCode()
	k.s.files = map[string][]byte{"store.go": []byte(neverUnlocks)}
	text, owners, culprit := k.stuck("TestScenarios/x", "", dump, "1s")
	want := "Never released: ThreadSafeStore.Update (exercise 3) locks s.mu and has no Unlock for it\n" +
		"            03-indexer/exercise/store.go:4\n"
	if !strings.Contains(text, want) {
		t.Errorf("stuck reason lacks %q:\n%s", want, text)
	}
	if culprit != "ThreadSafeStore.Update" || !slices.Equal(owners, []int{3, 3}) {
		t.Errorf("culprit %q, owners %v; want ThreadSafeStore.Update, [3 3]", culprit, owners)
	}
}

// No reference function keeps a lock, nor lets its caller's go for good:
// a keeper or a releaser in your copy is a bug, not a pattern the
// reference uses.
func TestNoReferenceFunctionKeepsALock(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	all, err := chapters.All(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		names, err := exgen.GoFiles(c.Dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			src, err := os.ReadFile(filepath.Join(c.Dir, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, kp := range keepersIn(src) {
				t.Errorf("%s/%s:%d: %s locks %s and never unlocks it", c.Name, name, kp.line, kp.fn, kp.lock)
			}
			for _, r := range releasersIn(src) {
				t.Errorf("%s/%s:%d: %s unlocks its caller's %s and never takes it back", c.Name, name, r.line, r.fn, r.lock)
			}
		}
	}
}

// Once a stuck test is proved to hang on a lock kept by exercise 3, the
// checks that run exercise 3's code are left out: they would wait too. So
// are the plain checks, which may (the blame file does not say).
func TestChecksThatWouldHangTooAreLeftOut(t *testing.T) {
	k := testCode()
	k.s.files = map[string][]byte{"store.go": []byte(neverUnlocks)}
	k.plainChecks = []string{"TestPlain"}
	blame := Blame{"TestScenarios/a": {1, 3}, "TestScenarios/b": {1}, "TestStress/exercise-3/x": {3}}
	got, proved := k.hangsLike(blame)(dump)
	if !proved {
		t.Error("a lock kept by Update is not taken as proved")
	}
	if want := []string{"TestPlain", "TestScenarios/a", "TestStress/exercise-3/x"}; !slices.Equal(got, want) {
		t.Errorf("left out %v, want %v", got, want)
	}
	text, _, culprit := k.hungReport("TestPlain", "TestScenarios/a", dump)
	if culprit == "" || !strings.Contains(text, "may take it too") {
		t.Errorf("report of a plain check left out: culprit %q:\n%s", culprit, text)
	}
	k = testCode() // no source: nothing proved, nothing left out
	if got, _ := k.hangsLike(blame)(dump); got != nil {
		t.Errorf("left out %v with no keeper", got)
	}
}

// A hang no lock proves (a pump that never stops, a loop that never ends)
// leaves out the checks that run its code once a second stuck test shows
// the same shape: your goroutines waiting at the same places. The 04 trial
// waited 3 minutes for 30 checks stuck like the first.
func TestAHangOfTheSameShapeTwiceLeavesOutTheRest(t *testing.T) {
	k := testCode() // no source: the lock is not proved kept
	k.plainChecks = []string{"TestPlain"}
	blame := Blame{"TestScenarios/a": {1, 3}, "TestScenarios/b": {1}, "TestStress/exercise-3/x": {3}}
	hangs := k.hangsLike(blame)
	if got, _ := hangs(dump); got != nil {
		t.Errorf("left out %v after one stuck test", got)
	}
	if got, proved := hangs(dump); !slices.Equal(got, []string{"TestPlain", "TestScenarios/a", "TestStress/exercise-3/x"}) || proved {
		t.Errorf("after the same hang twice, left out %v (proved %t), want TestPlain, TestScenarios/a and TestStress/exercise-3/x, not proved", got, proved)
	}
	text, owners, culprit := k.hungReport("TestScenarios/a", "TestScenarios/a", dump)
	if culprit != "" || !slices.Equal(owners, []int{3}) || !strings.Contains(text, "waiting at the same places") {
		t.Errorf("report of a check left out: culprit %q, owners %v:\n%s", culprit, owners, text)
	}
}

// A lock is kept where one return leaves it held, however many others
// release it; a branch's Unlock serves only the returns inside it.
func TestKeepersFollowEachReturn(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []keeper // fn and file left out
	}{
		{"every path unlocks", `
	q.mu.Lock()
	if q.dirty {
		q.mu.Unlock()
		return
	}
	q.mu.Unlock()`, nil},
		{"the early return keeps it", `
	q.mu.Lock()
	if q.dirty {
		q.queue = nil
		return
	}
	q.mu.Unlock()`, []keeper{{lock: "q.mu", line: 4, ret: 7}}},
		{"a branch unlocks, the end does not", `
	q.mu.Lock()
	if q.dirty {
		q.mu.Unlock()
	}`, []keeper{{lock: "q.mu", line: 4, ret: 8}}},
		{"deferred closure", `
	q.mu.RLock()
	defer func() { q.mu.RUnlock() }()
	if q.dirty {
		return
	}`, nil},
		{"deferred after the early return", `
	q.mu.Lock()
	if q.dirty {
		return
	}
	defer q.mu.Unlock()`, []keeper{{lock: "q.mu", line: 4, ret: 6}}},
		{"a goroutine's own body", `
	go func() {
		q.mu.Lock()
		q.queue = nil
	}()`, []keeper{{lock: "q.mu", line: 5}}},
		{"unlocked by a helper", `
	q.mu.Lock()
	q.unlockAndWake()`, nil},
	} {
		src := "package p\n\nfunc (q *Typed[T]) Done(item T) {" + tc.body + "\n}\n"
		got := keepersIn([]byte(src))
		for i := range got {
			if got[i].fn != "Typed.Done" {
				t.Errorf("%s: keeper of %q, want Typed.Done", tc.name, got[i].fn)
			}
			got[i].fn = ""
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: keepers %+v, want %+v\n%s", tc.name, got, tc.want, src)
		}
	}
}

// takesItTwice is store.go with an Update that calls Get while it holds
// the store's lock: Get waits for the lock its own caller holds.
const takesItTwice = `package indexer

func (s *ThreadSafeStore) Get(key string) any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.items[key]
}

func (s *ThreadSafeStore) Update(key string, obj any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Get(key) == nil {
		s.items[key] = obj
	}
}
`

const twiceDump = `goroutine 7 [sync.RWMutex.RLock, 1 minutes]:
sync.runtime_SemacquireRWMutexR(0xc0000a0e28?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/sema.go:100 +0x25
example.com/walkthrough/03-indexer.(*ThreadSafeStore).Get(0xc0000a0e00, {0x8c3a5e, 0x4})
	/w/03-indexer/store.go:4 +0x4e
example.com/walkthrough/03-indexer.(*ThreadSafeStore).Update(0xc0000a0e00, {0x8c3a5e, 0x4}, {0x0, 0x0})
	/w/03-indexer/store.go:12 +0x4e
created by example.com/walkthrough/03-indexer_test.TestX in goroutine 6
	/w/03-indexer/x_test.go:20 +0x9a
`

// A goroutine that waits for the lock a caller of its own holds: the
// report names the caller, and proves it.
func TestStuckNamesALockTakenTwice(t *testing.T) {
	k := testCode()
	k.s.files = map[string][]byte{"store.go": []byte(takesItTwice)}
	text, _, culprit := k.stuck("TestScenarios/x", "", twiceDump, "1s")
	want := "Taken twice: ThreadSafeStore.Update (exercise 3) holds the lock it then waits for"
	if !strings.Contains(text, want) || culprit != "ThreadSafeStore.Update" {
		t.Errorf("culprit %q; stuck reason lacks %q:\n%s", culprit, want, text)
	}
}

// A helper called with the lock held that calls a function which takes
// it: the helper is named, not the holder (trial K's startShutdown
// called ShuttingDown; the report named ShutDown).
func TestStuckNamesTheHelperThatTakesALockAgain(t *testing.T) {
	k := testCode()
	k.funcs["ThreadSafeStore.missing"] = 6
	src := strings.Replace(takesItTwice, "\tif s.Get(key) == nil {\n\t\ts.items[key] = obj\n\t}\n}\n",
		"\ts.missing(key, obj)\n}\n\nfunc (s *ThreadSafeStore) missing(key string, obj any) {\n\tif s.Get(key) == nil {\n\t\ts.items[key] = obj\n\t}\n}\n", 1)
	k.s.files = map[string][]byte{"store.go": []byte(src)}
	dump := strings.Replace(twiceDump, "example.com/walkthrough/03-indexer.(*ThreadSafeStore).Update(0xc0000a0e00, {0x8c3a5e, 0x4}, {0x0, 0x0})\n\t/w/03-indexer/store.go:12 +0x4e\n",
		"example.com/walkthrough/03-indexer.(*ThreadSafeStore).missing(0xc0000a0e00, {0x8c3a5e, 0x4}, {0x0, 0x0})\n\t/w/03-indexer/store.go:16 +0x4e\n"+
			"example.com/walkthrough/03-indexer.(*ThreadSafeStore).Update(0xc0000a0e00, {0x8c3a5e, 0x4}, {0x0, 0x0})\n\t/w/03-indexer/store.go:12 +0x4e\n", 1)
	text, owners, culprit := k.stuck("TestScenarios/x", "", dump, "1s")
	want := "Taken twice: ThreadSafeStore.Update (exercise 3) holds the lock, and ThreadSafeStore.missing (exercise 6), called\n" +
		"            under it, calls ThreadSafeStore.Get (exercise 3), which takes it again"
	if !strings.Contains(text, want) || culprit != "ThreadSafeStore.missing" || len(owners) == 0 || owners[0] != 6 {
		t.Errorf("culprit %q, owners %v; stuck reason lacks %q:\n%s", culprit, owners, want, text)
	}
}

// A function handed a held lock that unlocks it to let others in while it
// works must take it back before it returns; a deferred Lock does.
func TestReleasersIn(t *testing.T) {
	src := []byte(`package p

func (f *F) processLocked(process func() error) error {
	f.lock.Unlock()
	defer f.lock.Lock()
	return process()
}

func (f *F) forgets(process func() error) error {
	f.lock.Unlock()
	return process()
}

func (f *F) own() {
	f.lock.Lock()
	f.lock.Unlock()
}

func (f *F) unlockAndWake() {
	f.lock.Unlock()
}

func (f *F) twice() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.lock.Unlock()
}

func (f *F) letsOthersIn(callback func()) {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.lock.Unlock()
	callback()
	f.lock.Lock()
}
`)
	got := releasersIn(src)
	want := []releaser{{fn: "F.forgets", lock: "f.lock", line: 10}, {fn: "F.twice", lock: "f.lock", line: 26, twice: true}}
	if !slices.Equal(got, want) {
		t.Errorf("releasers %+v; want %+v: forgets lets its caller's lock go, twice unlocks before its deferred Unlock (the 05 trial's Done)", got, want)
	}
}

// A goroutine waits on startedCond; the reference's run wakes it twice,
// yours once (the Broadcast after starting is missing): run is named,
// and proves the exercise. A function that wakes it through a helper of
// yours is not named.
func TestNeverWokenNamesTheMissingWakeUp(t *testing.T) {
	k := testCode()
	k.funcs["sharedProcessor.run"], k.funcs["sharedProcessor.stop"], k.funcs["sharedProcessor.distribute"] = 5, 5, 6
	k.done = map[string][]byte{"exercise/store.go": []byte(`package p

func (p *sharedProcessor) run() {
	p.started = true
	p.startedCond.Broadcast()
	defer p.startedCond.Broadcast()
}

func (p *sharedProcessor) stop() { p.startedCond.Broadcast() }

func (p *sharedProcessor) distribute() {
	for !p.started {
		p.startedCond.Wait()
	}
}
`)}
	k.s.files = map[string][]byte{"store.go": []byte(`package p

func (p *sharedProcessor) run() {
	p.started = true
	defer p.startedCond.Broadcast()
}

func (p *sharedProcessor) stop() { p.wake() }

func (p *sharedProcessor) wake() { p.startedCond.Broadcast() }

func (p *sharedProcessor) distribute() {
	for !p.started {
		p.startedCond.Wait()
	}
}
`)}
	gs := []goroutine{{state: "sync.Cond.Wait (durable)", frames: []frame{{fn: "example.com/walkthrough/03-indexer.(*sharedProcessor).distribute", file: "/w/03-indexer/store.go", line: 14}}}}
	var b strings.Builder
	owners, culprit := k.neverWoken(&b, gs)
	if culprit != "sharedProcessor.run" || !slices.Equal(owners, []int{5}) {
		t.Errorf("culprit %q, owners %v; want sharedProcessor.run, [5]:\n%s", culprit, owners, b.String())
	}
	if want := "wakes it (Broadcast or Signal) once, where the reference's does twice"; !strings.Contains(b.String(), want) {
		t.Errorf("lacks %q:\n%s", want, b.String())
	}
}

// A goroutine waits for metricsDone; the reference's loop says Done to it
// as it returns, yours never does: the loop is named, and proves the
// exercise (trial K's ShutDown waited, and the report named it and the
// delaying queue's loop, both waiting). A WaitGroup your code starts its
// goroutines with (Go says Done) is not judged.
func TestNeverDoneNamesTheMissingDone(t *testing.T) {
	k := testCode()
	k.funcs["Typed.loop"], k.funcs["Typed.stop"] = 4, 1
	k.done = map[string][]byte{"exercise/store.go": []byte(`package p

func (q *Typed) loop() {
	defer q.metricsDone.Done()
	<-q.stop
}

func (q *Typed) stop() {
	q.metricsDone.Wait()
}
`)}
	yours := `package p

func (q *Typed) loop() {
	<-q.stop
}

func (q *Typed) stop() {
	q.metricsDone.Wait()
}
`
	k.s.files = map[string][]byte{"store.go": []byte(yours)}
	gs := []goroutine{{state: "sync.WaitGroup.Wait (durable)", frames: []frame{{fn: "example.com/walkthrough/03-indexer.(*Typed).stop", file: "/w/03-indexer/store.go", line: 8}}}}
	var b strings.Builder
	owners, culprit := k.neverWoken(&b, gs)
	if culprit != "Typed.loop" || !slices.Equal(owners, []int{4}) {
		t.Errorf("culprit %q, owners %v; want Typed.loop, [4]:\n%s", culprit, owners, b.String())
	}
	if want := "Never done: a goroutine of yours waits for metricsDone (a WaitGroup), and Typed.loop (exercise 4)\n          calls its Done nowhere, where the reference's does once."; !strings.Contains(b.String(), want) {
		t.Errorf("lacks %q:\n%s", want, b.String())
	}

	k = testCode()
	k.funcs["Typed.loop"], k.funcs["Typed.stop"] = 4, 1
	k.done = map[string][]byte{"exercise/store.go": []byte(strings.Replace(yours, "\t<-q.stop\n", "\tdefer q.metricsDone.Done()\n\t<-q.stop\n", 1))}
	k.s.files = map[string][]byte{"store.go": []byte(yours + "\nfunc (q *Typed) start() { q.metricsDone.Go(q.loop) }\n")}
	b.Reset()
	if owners, culprit := k.neverWoken(&b, gs); culprit != "" || len(owners) != 0 {
		t.Errorf("a WaitGroup started with Go: culprit %q, owners %v:\n%s", culprit, owners, b.String())
	}
}

// A goroutine that waits in a callback while its caller of yours holds
// the lock another goroutine waits for: the caller is named (the 02
// trial's PopBatch held f.lock across the batch's callback).
func TestHeldAcrossACallThatBlocks(t *testing.T) {
	k := testCode()
	k.funcs["ThreadSafeStore.Batch"] = 4
	src := make([]string, 40)
	src[0] = "package indexer"
	src[9] = "func (s *ThreadSafeStore) Update(key string, obj any) {"
	src[10] = "\ts.mu.Lock()" // line 11
	src[11] = "\tdefer s.mu.Unlock()"
	src[12] = "}"
	src[19] = "func (s *ThreadSafeStore) Batch(f func()) {"
	src[20] = "\ts.mu.Lock()"
	src[21] = "\tdefer s.mu.Unlock()"
	src[22] = "\tf()" // line 23
	src[23] = "}"
	k.s.files = map[string][]byte{"store.go": []byte(strings.Join(src, "\n"))}
	dump := `goroutine 7 [sync.Mutex.Lock]:
sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/sema.go:95 +0x25
example.com/walkthrough/03-indexer.(*ThreadSafeStore).Update(0xc0000a0e00, {0x8c3a5e, 0x4})
	/w/03-indexer/store.go:11 +0x4e

goroutine 8 [chan receive]:
example.com/walkthrough/03-indexer_test.TestX.func1()
	/w/03-indexer/x_test.go:20 +0x9a
example.com/walkthrough/03-indexer.(*ThreadSafeStore).Batch(0xc0000a0e00, 0x0)
	/w/03-indexer/store.go:23 +0x4e
`
	var b strings.Builder
	owners, culprit := k.lockCulprit(&b, parseDump(dump))
	if culprit != "ThreadSafeStore.Batch" || !slices.Equal(owners, []int{4}) {
		t.Errorf("culprit %q, owners %v; want ThreadSafeStore.Batch, [4]:\n%s", culprit, owners, b.String())
	}
	if want := "Held:     ThreadSafeStore.Batch (exercise 4) waits (chan receive) while s.mu is held"; !strings.Contains(b.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, b.String())
	}
}

// A loop of yours caught running in two stuck tests is the same hang,
// whatever the goroutines waiting on it wait for in each: the checks that
// run its exercise are left out after the second (trial V's dispatcher
// spinning on a closed channel cost 31 stops).
func TestASpinningLoopSeenTwiceLeavesOutTheRest(t *testing.T) {
	spin := func(waiter string) string {
		return "SIGQUIT: quit\n\ngoroutine 9 [running]:\n" +
			"example.com/walkthrough/03-indexer.(*ThreadSafeStore).List(0xc0000a0e00)\n\t/w/03-indexer/store.go:120 +0x4e\n" +
			"created by example.com/walkthrough/03-indexer_test.TestX in goroutine 6\n\t/w/03-indexer/x_test.go:20 +0x9a\n\n" +
			"goroutine 7 [" + waiter + "]:\n" +
			"example.com/walkthrough/03-indexer.(*ThreadSafeStore).Get(0xc0000a0e00, {0x8c3a5e, 0x4})\n\t/w/03-indexer/store.go:94 +0x4e\n" +
			"created by example.com/walkthrough/03-indexer_test.TestX in goroutine 6\n\t/w/03-indexer/x_test.go:21 +0x9a\n"
	}
	k := testCode()
	blame := Blame{"TestScenarios/a": {3, 6}, "TestScenarios/b": {3}}
	hangs := k.hangsLike(blame)
	if got, _ := hangs(spin("chan receive")); got != nil {
		t.Errorf("left out %v after one stuck test", got)
	}
	if got, proved := hangs(spin("select")); !slices.Equal(got, []string{"TestScenarios/a"}) || proved {
		t.Errorf("after the same loop running twice, left out %v (proved %t), want TestScenarios/a (it runs exercise 6's List), not proved", got, proved)
	}
}

// Every check warns of a function of yours that keeps a lock, whether or
// not a check took that path (trial V's not-ready return in Cache.List
// passed every check).
func TestUnreleasedWarnsWhateverTheChecksSay(t *testing.T) {
	k := testCode()
	k.s.files = map[string][]byte{"store.go": []byte(neverUnlocks)}
	got := k.unreleased()
	if want := (KeptLock{"ThreadSafeStore.Update (exercise 3) locks s.mu and has no Unlock for it", "03-indexer/exercise/store.go:4"}); len(got) != 1 || got[0] != want {
		t.Errorf("warnings: %q; want %q", got, want)
	}
	k = testCode() // no source of yours: nothing to warn of
	if got := k.unreleased(); len(got) != 0 {
		t.Errorf("warnings with no source: %q", got)
	}
}

// A read lock taken twice (a query that calls another under its RLock)
// waits only while a writer waits between the two: the stuck test is
// reported, but the checks that run the same code with no writer are not
// left out as if they would hang too (trial B's objects calling Get: every
// scenario read as failing beside the stress test that got stuck).
func TestAReadLockTakenTwiceLeavesNoCheckOut(t *testing.T) {
	k := testCode()
	src := strings.Replace(takesItTwice, "\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n", "\ts.mu.RLock()\n\tdefer s.mu.RUnlock()\n", 1)
	k.s.files = map[string][]byte{"store.go": []byte(src)}
	text, _, culprit := k.stuck("TestScenarios/x", "", twiceDump, "1s")
	if culprit != "ThreadSafeStore.Update" || !strings.Contains(text, "A read lock taken again waits only once a writer waits") {
		t.Errorf("culprit %q; the report does not say a read lock was taken twice:\n%s", culprit, text)
	}
	blame := Blame{"TestScenarios/a": {1, 3}, "TestStress/exercise-3/x": {3}}
	if got, proved := k.hangsLike(blame)(twiceDump); got != nil || proved {
		t.Errorf("a read lock taken twice left out %v (proved %t); want none", got, proved)
	}
	k.s.files = map[string][]byte{"store.go": []byte(takesItTwice)} // Lock, then RLock: always stuck
	if got, proved := k.hangsLike(blame)(twiceDump); len(got) == 0 || !proved {
		t.Errorf("a write lock then a read lock left out %v (proved %t); want the checks that run it, proved", got, proved)
	}
}

// A function that unlocks with a plain Unlock, never a deferred one, is
// found at its Lock; one that defers it, even in a function literal, is
// not.
func TestPlainUnlocks(t *testing.T) {
	src := []byte("package p\n\n" +
		"func (s *S) Plain() {\n\ts.mu.Lock()\n\ts.x++\n\ts.mu.Unlock()\n}\n\n" +
		"func (s *S) Deferred() {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n}\n\n" +
		"func (s *S) InALiteral() {\n\ts.mu.RLock()\n\tdefer func() { s.mu.RUnlock() }()\n}\n")
	got := plainUnlocks(src)
	if len(got) != 1 || got[0].fn != "S.Plain" || got[0].lock != "s.mu" || got[0].line != 4 {
		t.Errorf("plainUnlocks = %+v, want S.Plain's s.mu at line 4 alone", got)
	}
	plain, deferred := unlocks(src)
	if !plain["S.Plain s.mu"] || !deferred["S.Deferred s.mu"] || !deferred["S.InALiteral s.mu"] || plain["S.InALiteral s.mu"] {
		t.Errorf("unlocks: plain %v, deferred %v", plain, deferred)
	}
}
