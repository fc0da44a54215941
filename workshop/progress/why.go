package progress

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/gotest"
	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/wrap"
)

// This file says why a test failed when the scenario harness's own report
// does not (a race, a stuck test, a crash, a leak, a plain test), cut down
// to the frames of your own code, and names the exercises those frames
// belong to.

// code is what a check knows of the code under test: which files are
// yours, and which exercise each of your functions belongs to.
type code struct {
	s     *standIn
	pkg   string         // the chapter's import path
	funcs map[string]int // function key ("threadSafeMap.Update") → exercise
	say   func(format string, args ...any)
	// idle says when a test binary that waits is stuck (idleFor).
	idle gotest.Idle
	// everySuspect: Options.EverySuspect, for narrow too (every function
	// of the exercise a suspect, as the tests of the tests search).
	everySuspect bool
	// asked is Options.Only: the exercise check NN N was asked about,
	// the one you are working on, so the likeliest suspect after those
	// the evidence names (bisect).
	asked int
	// passedPrints are Options.PassedPrints; printsNow, your code's sums
	// now (prints): unchanged says which exercises are as they passed.
	passedPrints, printsNow map[int]string
	// plainChecks are the binary's top-level checks, which the blame file
	// does not measure (plainChecks).
	plainChecks []string
	// done and stubs are the generated copy with every exercise done (the
	// reference's code) and with every one stubbed, made once per check.
	done, stubs map[string][]byte
	// notYours skips, in every run, the subtests that would run another
	// chapter's reference code against this one (referenceRuns).
	notYours string
	// bin is the check's test binary, built from your copy as it is.
	bin *gotest.Binary
	// Your literals and the texts of the reference's, read once per check
	// for every failing test's report (textOwners).
	literalsOnce sync.Once
	yourLiterals []literal
	refTexts     map[string]bool
	refFormats   map[string][]string // function → the reference's format strings in it
	refPrints    []*regexp.Regexp    // what each of the reference's format strings can print (strictFormat)
	// The functions of yours that keep a lock (keepers), read once per
	// check for every stuck or left-out test's report.
	keepersOnce sync.Once
	kept        []keeper
	// The functions whose reference code takes a lock, and the types
	// with a lock of their own, read once per check for every race's
	// report (readTakers).
	takersOnce sync.Once
	takers     map[string]bool
	lockOwners map[string]bool
	// The functions of yours that let go of their caller's lock for good
	// (releasers), read once per check for a crash's report.
	releasersOnce sync.Once
	released      []releaser
	// Who wakes which condition, in the reference and in your code
	// (neverWoken), read once per check.
	wake wakers
	// Whether each function of yours met in a stack is the reference's
	// to the letter (asWritten), found once per check.
	asWrittenMu sync.Mutex
	asWrittenOf map[string]bool
	// The functions outside every exercise that your copy changed
	// (givenChanged), read once per check.
	givenOnce sync.Once
	given     []string
	// The package's struct types and their fields' types, and its
	// methods' receiver names, read once per check for telling locks
	// apart (packageTypes).
	typesOnce  sync.Once
	fieldTypes map[string]map[string]string
	receivers  map[string]string
	// The texts the reference panics with on purpose (deliberatePanics),
	// read once per check.
	panicsOnce sync.Once
	panics     map[string]string
}

// yours keeps the frames of a stack that are in your files.
func (k *code) yours(frames []frame) []frame {
	var out []frame
	for _, f := range frames {
		if k.s.isYours(f.file) {
			out = append(out, f)
		}
	}
	return out
}

// owner is the exercise a frame's function belongs to, or 0.
func (k *code) owner(f frame) int { return k.funcs[funcKey(f.fn, k.pkg)] }

// where says where a frame is, for a person: "03-indexer/exercise/store.go:42
// in threadSafeMap.Update (exercise 3)".
func (k *code) where(f frame) string {
	return fmt.Sprintf("%s:%d in %s", k.s.translate(f.file), f.line, k.function(f))
}

// owners lists, in order of first appearance, the exercises of frames.
func (k *code) owners(frames []frame) []int {
	var out []int
	seen := map[int]bool{}
	for _, f := range frames {
		if id := k.owner(f); id != 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// waits says, for a goroutine's state in a dump, what it is waiting for and
// the likeliest reason it waits forever.
func waits(state string) string {
	// In a synctest bubble a wait only the bubble can end is "durable":
	// the same wait.
	state = strings.TrimSuffix(state, " (durable)")
	switch {
	case strings.Contains(state, "Mutex") || strings.Contains(state, "RLock") || strings.Contains(state, "Lock"):
		// A panic that unwinds past an Unlock not deferred leaves the lock
		// held with no holder left to show (trial B's Update that
		// unlocked at its end, past an index function that panics).
		return "waits for a lock: one never released (a missing Unlock, an Unlock a panic\n" +
			"              skipped as it was not deferred, or a lock taken twice)?"
	case strings.HasPrefix(state, "sync.Cond.Wait"):
		// Or woken, and the loop around Wait found nothing changed: the
		// 02 trial's Close broadcast without setting closed.
		return "waits on a condition: a Broadcast or Signal never sent, or the state\n" +
			"              it waits for never set (a flag left false, a Close never called)?"
	case strings.HasPrefix(state, "sync.WaitGroup.Wait"):
		return "waits for goroutines that never finish?"
	case state == "chan receive" || state == "chan receive (nil chan)":
		return "waits to receive: a channel nobody sends on or closes?"
	case state == "chan send" || state == "chan send (nil chan)":
		return "waits to send: a channel nobody reads any more?"
	case state == "select" || state == "select (no cases)":
		return "waits in a select: for a channel nobody closes, or a stop that never comes?"
	case strings.HasPrefix(state, "semacquire"):
		return "waits for a lock or a WaitGroup that is never released?"
	case strings.HasPrefix(state, "sleep"):
		return "sleeps in a loop that never ends?"
	case isRunning(state):
		// It was not waiting when the test stopped: it runs and runs.
		return "never waits: a loop that never ends? (a receive from a closed channel\n" +
			"              returns at once, again and again; a select with a default spins;\n" +
			"              two loops hand the same value back and forth)"
	}
	return "is " + state + "."
}

// stepAt finds the scenario step a test's output was at: datadriven echoes
// each step's position as it runs.
var stepAt = regexp.MustCompile(`(\S+\.txt):(\d+):`)

// stuck explains a test stopped for printing nothing: where your
// goroutines were waiting, and which function of yours never released the
// lock they wait for (culprit, when that is one function).
func (k *code) stuck(test, output, dump string, quiet string) (text string, owners []int, culprit string) {
	var b strings.Builder
	where := shownName(test)
	if m := stepAt.FindAllStringSubmatch(output, -1); m != nil {
		last := m[len(m)-1]
		where = fmt.Sprintf("the step at %s:%s", filepath.Base(last[1]), last[2])
	}
	fmt.Fprintf(&b, "Stuck:    %s made no progress for %s, so it was stopped.\n", where, quiet)
	gs := parseDump(dump)
	keepers, culprit := k.holdersBack(&b, gs)
	shown, owners := k.waiting(&b, gs, culprit != "")
	if shown == 0 {
		// A goroutine running on another thread when the binary stopped
		// has no stack in the dump: the 01 trial's pager, looping on
		// the same page, read as "nothing of yours".
		b.WriteString("          No goroutine was seen waiting in your code: it waited for something\n" +
			"          your code should have done (closed a channel, returned, called back), or\n" +
			"          a loop of yours never ended (a running goroutine's stack cannot be read).\n")
	}
	return b.String(), append(keepers, owners...), culprit
}

// crashed explains a panic that stopped the test binary; culprit is the
// one function of yours that never released a lock a deadlock waits for.
func (k *code) crashed(crash, dump string) (text string, owners []int, culprit string) {
	var b strings.Builder
	raw := strings.TrimPrefix(crash, "panic: ")
	leaked := strings.Contains(crash, "blocked goroutines remain") // synctest's check when a test's bubble ends
	if leaked {
		// What it means first: the 07 trial met "main bubble goroutine"
		// as the first words of a report on a send that ignored done.
		b.WriteString("Leak:     the test ended while goroutines it started still waited: each should\n" +
			"          return once what started it stops (a stop channel, ShutDown, a context).\n")
		b.WriteString("          (testing/synctest's words: \"deadlock: main bubble goroutine has exited\n" +
			"          but blocked goroutines remain\")\n")
	} else {
		// A harness panic can be a paragraph (a stuck step says why): wrapped
		// under its label, as the rest of a report. The scenario harness's
		// own stop of a stuck step is a Stuck: (trial K read "Panic:" and
		// looked for a panic of its code).
		label := "Panic:    "
		if strings.Contains(raw, " is stuck: ") || strings.Contains(raw, "stopping what it started") {
			label = "Stuck:    "
		}
		b.WriteString(wrap.Label(label, raw, 78) + "\n")
	}
	gs := parseDump(dump)
	if len(gs) == 0 {
		return b.String(), nil, ""
	}
	mine := k.yours(gs[0].frames) // the first goroutine of a crash dump is the one that panicked
	for i, f := range mine {
		if i == 4 {
			break
		}
		fmt.Fprintf(&b, "          at %s\n", k.where(f))
	}
	owners = k.owners(mine)
	if unlockedFree(crash) {
		if strings.Contains(crash, "RUnlock of unlocked") && strings.Contains(dump, "sync.(*Cond).Wait") {
			// Trial I's distribute took the write lock to wait on a Cond
			// made on the read side: the crash names no lock of its own.
			b.WriteString("          Cond:     the Cond waited on is made on a read lock (RLocker): Wait\n" +
				"          gives back a read lock, and found none held. Wait holding RLock,\n" +
				"          not Lock.\n")
		}
		var released []int
		released, culprit = k.unlockedCulprit(&b)
		owners = append(released, owners...)
	}
	if strings.Contains(crash, "deadlock") || strings.Contains(crash, "all goroutines are asleep") || strings.Contains(crash, "stopping what it started") {
		var keepers []int
		keepers, culprit = k.holdersBack(&b, gs[1:])
		_, waiters := k.waiting(&b, gs[1:], culprit != "")
		owners = append(append(keepers, owners...), waiters...)
	}
	return b.String(), owners, culprit
}

// raced explains the race detector's reports in a test's output. An
// access made under no lock of your code names the function that should
// have taken one: the innermost of your frames not named ...Locked (such a
// function leaves the lock to its caller). When every access with no lock
// held names the same exercise, that exercise is proved the culprit; else
// every exercise the accesses pass through is only a suspect.
func (k *code) raced(output string) (text string, owners []int, culprit string) {
	races := parseRaces(output)
	if len(races) == 0 {
		return "", nil, ""
	}
	var b strings.Builder
	b.WriteString("Race:     two goroutines used the same memory at once, at least one writing,\n" +
		"          with no lock held by both (found by the race detector):\n")
	culprits := map[int]bool{} // the exercises of the functions that took no lock
	var culpritFuncs []string  // those functions, first seen first
	var noLock []frame         // the functions that took no lock
	var underLock [][]frame    // the frames of yours of each access under a lock
	locked := false
	writeUnderRead := false // a write made under RLock: its function is the culprit
	said := map[string]bool{}
	for _, a := range races[0].accesses {
		mine := k.yours(a.frames)
		if len(mine) == 0 {
			if len(a.frames) > 0 {
				fmt.Fprintf(&b, "          - %s in %s\n            (not your code; the caller's lock matters)\n", a.what, a.frames[0].fn)
			}
			continue
		}
		owners = append(owners, k.owners(mine)...)
		at := mine[0]
		var text strings.Builder
		held, readOnly, holder := k.underLock(mine)
		switch {
		case held && readOnly && strings.Contains(a.what, "write"):
			// RLock lets every other reader in: a write under it is
			// the fault (the 03 trial read "under a lock" on both
			// sides of a write in an RLocked Replace).
			writeUnderRead = true
			fmt.Fprintf(&text, " in %s, under the read lock only\n            %s\n", k.function(at), k.path(at))
			if holder != at {
				fmt.Fprintf(&text, "            called from %s, which took RLock, not Lock\n            %s\n", k.function(holder), k.path(holder))
			}
			culprits[k.owner(holder)] = true
			if fn := funcKey(holder.fn, k.pkg); !slices.Contains(culpritFuncs, fn) {
				culpritFuncs = append(culpritFuncs, fn)
			}
		case held:
			locked = true
			underLock = append(underLock, mine)
			lock := "a lock" // trial S read "under a lock" for a read under RLock
			if readOnly {
				lock = "the read lock"
			}
			fmt.Fprintf(&text, " in %s, under %s\n            %s\n", k.function(at), lock, k.path(at))
		default:
			fmt.Fprintf(&text, " in %s, no lock held\n            %s\n", k.function(at), k.path(at))
			missing := k.shouldHaveLocked(mine)
			if missing != at {
				fmt.Fprintf(&text, "            called from %s, which holds no lock there\n            %s\n", k.function(missing), k.path(missing))
			}
			culprits[k.owner(missing)] = true
			noLock = append(noLock, missing)
			if fn := funcKey(missing.fn, k.pkg); !slices.Contains(culpritFuncs, fn) {
				culpritFuncs = append(culpritFuncs, fn)
			}
		}
		if said[text.String()] {
			fmt.Fprintf(&b, "          - %s the same way, in another goroutine\n", a.what)
			continue
		}
		said[text.String()] = true
		fmt.Fprintf(&b, "          - %s%s", a.what, text.String())
	}
	if len(culprits) == 1 && !culprits[0] {
		for id := range culprits {
			owners, culprit = []int{id}, culpritFuncs[0]
		}
		other, trespasser := k.trespasser(noLock, underLock)
		switch {
		case trespasser && !writeUnderRead:
			// Trial Q's removeListener closed the channel the pump owns:
			// "take the lock" sent the learner to the pump, written as the
			// reference's is, to lock what needs no lock.
			owners, culprit = []int{k.owner(other)}, funcKey(other.fn, k.pkg)
			why := fmt.Sprintf("The side with no lock, %s, is the reference's code to the letter; %s, on the side under a lock, is not: it reaches memory the other side owns (a channel or a field that is not its to touch?).",
				funcKey(noLock[0].fn, k.pkg), k.function(other))
			b.WriteString("          " + strings.Join(scenario.Fold(why, reportWidth-10), "\n          ") + "\n")
		case writeUnderRead:
			b.WriteString("          A write needs the write lock (Lock): the read lock (RLock) lets\n" +
				"          every other reader in at the same time.\n")
		case locked:
			b.WriteString("          Take the lock the other side holds around the access with none.\n")
		default:
			b.WriteString("          Neither side holds a lock: take the lock that guards this memory\n" +
				"          where your code takes none.\n")
		}
	}
	if n := len(races); n > 1 {
		fmt.Fprintf(&b, "          (%d more race %s in this test)\n", n-1, map[bool]string{true: "report", false: "reports"}[n == 2])
	}
	return b.String(), dedupe(owners), culprit
}

// trespasser finds, in a race whose accesses with no lock are all in
// functions of yours that are the reference's to the letter, the one
// function of yours under a lock that is not, innermost first on each
// locked side's stack: the reference's side needs no lock for memory it
// owns, so the other side reached into it (trial Q's add wrote the ring
// buffer only the pump may touch, through RingBuffer.Write, itself the
// reference's).
func (k *code) trespasser(noLock []frame, underLock [][]frame) (frame, bool) {
	if len(noLock) == 0 || k.everySuspect {
		return frame{}, false
	}
	for _, f := range noLock {
		if !k.asWritten(f) {
			return frame{}, false
		}
	}
	var found []frame
	for _, stack := range underLock {
		i := slices.IndexFunc(stack, func(f frame) bool { return k.owner(f) != 0 && !k.asWritten(f) })
		if i >= 0 && !slices.ContainsFunc(found, func(g frame) bool { return g.fn == stack[i].fn }) {
			found = append(found, stack[i])
		}
	}
	if len(found) != 1 {
		return frame{}, false
	}
	return found[0], true
}

// asWritten reports whether f's function in your copy has the reference's
// body, spaces aside.
func (k *code) asWritten(f frame) bool {
	base := filepath.Base(f.file)
	key := funcKey(f.fn, k.pkg)
	k.asWrittenMu.Lock()
	defer k.asWrittenMu.Unlock()
	if same, ok := k.asWrittenOf[base+" "+key]; ok {
		return same
	}
	mine, gen := k.s.files[base], k.done[filepath.Join(exgen.ExerciseDir, base)]
	same := mine != nil && gen != nil && key != "" && len(exgen.Changed(mine, gen, []string{key})) == 0
	if k.asWrittenOf == nil {
		k.asWrittenOf = map[string]bool{}
	}
	k.asWrittenOf[base+" "+key] = same
	return same
}

// function names a frame's function for a person, with its exercise:
// "ThreadSafeStore.Update (exercise 3)".
func (k *code) function(f frame) string {
	name := funcKey(f.fn, k.pkg)
	if name == "" {
		name = f.fn[strings.LastIndex(f.fn, "/")+1:]
	}
	if id := k.owner(f); id != 0 {
		name += fmt.Sprintf(" (exercise %d)", id)
	}
	return name
}

// path is where a frame is, in your file: "03-indexer/exercise/store.go:57".
func (k *code) path(f frame) string {
	return k.s.translate(fmt.Sprintf("%s:%d", f.file, f.line))
}

// dedupe keeps the first of each id, in order.
func dedupe(ids []int) []int {
	var out []int
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// waiting writes, for up to four goroutines in your code, where each is
// and what it waits for; it returns how many it wrote and the exercises
// of their frames. With the lock's keeper found, only those waiting for a
// lock are shown: a loop idle in its select is no suspect then (the 05
// trial read the delaying queue's waitingLoop under a missing Unlock in
// Add).
func (k *code) waiting(b *strings.Builder, gs []goroutine, locksOnly bool) (shown int, owners []int) {
	// Those waiting for a lock first: the others most often wait on them;
	// then those that wait while holding a lock of their own (the 04
	// trial's removeListener, waiting for a handler under the processor's
	// lock, was left out past the fourth); then those serving a request,
	// which a test waits for when it closes its server (the 07 trial's
	// watch handler that ignored the client leaving came after four idle
	// goroutines of the cache, and the blame went to the cache); then the
	// rest.
	rank := func(g goroutine) int {
		switch {
		case isLockWait(g.state):
			return 0
		case isRunning(g.state):
			// A goroutine of yours that was running when the step stopped
			// spins, and the ones waiting wait for it (trial I's pump that
			// offered the same notification again and again came fifth,
			// after four goroutines waiting for it, and was left out).
			return 1
		case k.heldWhileWaiting(g) != "":
			return 2
		case servesRequest(g):
			return 3
		}
		return 4
	}
	gs = slices.Clone(gs)
	slices.SortStableFunc(gs, func(a, b goroutine) int { return rank(a) - rank(b) })
	said := map[string]bool{} // two listeners' pumps waiting in the same select are one line
	for _, g := range gs {
		mine := k.yours(g.frames)
		if len(mine) == 0 || shown == 4 || locksOnly && !isLockWait(g.state) {
			continue
		}
		reason := waits(g.state)
		if locksOnly {
			// The lines above already say why the lock is not let go: the
			// guesses of waits would only repeat themselves (trial B read
			// four of them under a lock taken twice).
			reason = "waits for a lock (see above)"
		}
		line := fmt.Sprintf("          A goroutine at %s\n            %s\n", k.where(mine[0]), reason)
		if said[line] {
			continue
		}
		said[line] = true
		shown++
		b.WriteString(line)
		if lock := k.heldWhileWaiting(g); lock != "" {
			fmt.Fprintf(b, "              It holds %s while it waits: whoever needs %s waits too.\n", lock, lock)
		}
		if k.owner(mine[0]) == 0 && isChannelWait(g.state) {
			// Trial E's pump that never closed its channel showed only the
			// given relay that ranged over it, with nothing to say the fix
			// was elsewhere.
			b.WriteString("              That is given code: the send or close it waits for is for code of\n" +
				"              yours to do (a goroutine that returns without closing its channel?).\n")
		}
		owners = append(owners, k.owners(mine)...)
	}
	return shown, owners
}

// isRunning reports whether a goroutine's state in a dump is not a wait:
// it was running, or ready to, when the binary was stopped.
func isRunning(state string) bool { return state == "runnable" || state == "running" }

// isChannelWait reports whether a goroutine's state is a wait on a
// channel: a receive, a send or a select.
func isChannelWait(state string) bool {
	state = strings.TrimSuffix(state, " (durable)")
	return strings.HasPrefix(state, "chan receive") || strings.HasPrefix(state, "chan send") || strings.HasPrefix(state, "select")
}

// servesRequest reports whether a goroutine runs an HTTP handler: net/http
// (or its HTTP/2 server) called into the code below it.
func servesRequest(g goroutine) bool {
	return slices.ContainsFunc(g.frames, func(f frame) bool {
		return strings.HasPrefix(f.fn, "net/http.") && (strings.Contains(f.fn, ").serve") || strings.Contains(f.fn, "runHandler")) ||
			strings.HasPrefix(f.fn, "golang.org/x/net/http2.") && strings.Contains(f.fn, "runHandler")
	})
}

// heldWhileWaiting names the lock a goroutine's innermost function of
// yours holds (taken before the line it waits at, not let go since) while
// it waits for something that is not a lock; "" when none.
func (k *code) heldWhileWaiting(g goroutine) string {
	if isLockWait(g.state) || strings.HasPrefix(g.state, "sync.Cond.Wait") {
		return "" // Cond.Wait lets its lock go while it waits
	}
	mine := k.yours(g.frames)
	if len(mine) == 0 {
		return ""
	}
	return k.heldAt(mine[0])
}

// leaked explains goroutines of yours left running after what after says:
// every test had passed, or one test in a process of its own.
func (k *code) leaked(leak, after string) (string, []int) {
	var b strings.Builder
	const label = "Leak:     "
	what := scenario.Fold("goroutines of your code were still running after "+after+": a Stop, ShutDown or cancel that did not stop them.", reportWidth-2-len(label))
	b.WriteString(label + strings.Join(what, "\n"+strings.Repeat(" ", len(label))) + "\n")
	gs := parseDump(leak)
	keepers, _ := k.lockCulprit(&b, gs)
	_, owners := k.waiting(&b, gs, false)
	return b.String(), append(keepers, owners...)
}

// leakLine heads the leak check's report as testLine heads a test's: what
// failed, and where it runs. Trial W (F7): every other report starts with
// "TestX failed (file):", and the leak one started straight at "Leak:".
func (k *code) leakLine() string {
	if file, ok := strings.CutPrefix(k.testLine("TestMain"), "TestMain failed ("); ok {
		return "Leak check failed (TestMain in " + file
	}
	return "Leak check failed (TestMain):\n"
}

// klogLine is a line klog wrote (client-go's and etcd's libraries log
// with it): "E1129 14:02:11.123456   4242 leaderelection.go:473] ...". It
// says nothing of why the test failed, and a report leaves it out (trial
// C read a lease error in the middle of one).
var klogLine = regexp.MustCompile(`^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w.-]+:\d+\] `)

// plain is a plain test's failure: its own lines, the first and the last
// ones when there are many. The last are kept because a test says why it
// failed (t.Fatal) after what it logged on the way.
func (k *code) plain(output string) (string, []int) {
	var lines []string
	for _, line := range strings.Split(withoutEchoes(output), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") || klogLine.MatchString(t) {
			continue
		}
		lines = append(lines, shorten(k.s.translate(strings.TrimPrefix(line, "    "))))
	}
	if len(lines) == 0 {
		return "", nil
	}
	head, tail := 4, 8
	if slices.Contains(lines, "got:") && slices.Contains(lines, "want:") {
		// An example's output against its own: the lines that differ
		// may be anywhere in either (the 05 trial's were the ones left
		// out, and the want block lost its label).
		head, tail = 30, 30
	}
	if len(lines) > head+tail+1 {
		if changed := diffLines(lines); changed != nil {
			// A diff (cmp.Diff's, a fuzz target's) says what diverged in
			// its - and + lines, wherever they are: trial I's FuzzInformer
			// report kept its first and last lines and left the first
			// change out.
			lines = aroundChanges(lines, changed)
		} else {
			cut := len(lines) - head - tail
			lines = append(append(lines[:head:head], fmt.Sprintf("… (%d lines left out)", cut)), lines[len(lines)-tail:]...)
		}
	}
	var b strings.Builder
	b.WriteString("Failed:\n")
	for _, line := range lines {
		b.WriteString(foldProse(line))
	}
	return b.String(), nil
}

// echoHeader is the first two lines of datadriven's echo of a step it
// ran, logged under -v by a test that plays scenario files itself: the
// test's file:line with nothing after it, then the step's file:line.
var echoHeader = regexp.MustCompile(`^(\s*)\w+_test\.go:\d+: ?\n\s+\S+\.txt:\d+:$`)

// withoutEchoes is a test's output without datadriven's echoes of the
// steps it ran (each step's header, command and output, indented under
// it), which say what ran, not why it failed: trial L2's TestDifferential
// showed 1,459 lines of them around its one reason, "Run did not return
// within a minute of its context ending", which was left out.
func withoutEchoes(output string) string {
	lines := strings.Split(output, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		var m []string
		if i+1 < len(lines) {
			m = echoHeader.FindStringSubmatch(lines[i] + "\n" + lines[i+1])
		}
		if m == nil {
			out = append(out, lines[i])
			continue
		}
		// Past the header, the echo goes on while its lines are blank or
		// indented further than the header's first line.
		for i++; i+1 < len(lines) && (strings.TrimSpace(lines[i+1]) == "" || indentOf(lines[i+1]) > len(m[1])); i++ {
		}
	}
	return strings.Join(out, "\n")
}

// indentOf is how many spaces and tabs line starts with.
func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " \t")) }

// diffLines returns which of a test's lines are a diff's changes (a line
// that starts, past its indent, with "- " or "+ ", cmp.Diff's "-\t"), or
// nil when none is.
func diffLines(lines []string) []bool {
	var changed []bool
	found := false
	for i, line := range lines {
		t := strings.TrimLeft(line, " \t")
		if len(t) >= 2 && (t[0] == '-' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t') {
			if changed == nil {
				changed = make([]bool, len(lines))
			}
			changed[i], found = true, true
		}
	}
	if !found {
		return nil
	}
	return changed
}

// aroundChanges keeps, of a test's lines, its first two (what failed), each
// change of a diff with two lines either side, up to maxChanges changes,
// and its last three (a diff's end, or what the test said after it); what
// is left out between is counted.
func aroundChanges(lines []string, changed []bool) []string {
	const context, maxChanges = 2, 12
	keep := make([]bool, len(lines))
	for _, i := range []int{0, 1, len(lines) - 3, len(lines) - 2, len(lines) - 1} {
		if i >= 0 && i < len(lines) {
			keep[i] = true
		}
	}
	changes := 0
	for i := range lines {
		if !changed[i] || changes == maxChanges {
			continue
		}
		changes++
		for j := max(0, i-context); j <= min(len(lines)-1, i+context); j++ {
			keep[j] = true
		}
	}
	var out []string
	for i := 0; i < len(lines); {
		if keep[i] {
			out = append(out, lines[i])
			i++
			continue
		}
		j := i
		for j < len(lines) && !keep[j] {
			j++
		}
		out = append(out, fmt.Sprintf("… (%d lines left out)", j-i))
		i = j
	}
	return out
}

// reportWidth is the widest line a report should have (the runner's).
const reportWidth = 80

// foldProse lays one line of a test's output under the report's two-space
// margin. A line of prose too wide for the report is folded, continuing
// four spaces further in; one indented already (a diff, a dump) keeps its
// layout.
func foldProse(line string) string {
	const margin, more = "  ", "      "
	if len(margin+line) <= reportWidth || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
		return margin + line + "\n"
	}
	return margin + strings.Join(scenario.Fold(line, reportWidth-len(more)), "\n"+more) + "\n"
}

// shorten cuts the middle out of a very long line, such as a whole Pod a
// test printed as got or want: its start says what was compared, its end
// most often why it failed (scenario.CutMiddle, as a scenario's trace).
func shorten(line string) string {
	if testMessage.MatchString(line) && utf8.RuneCountInString(line) <= 700 && !strings.ContainsAny(line, "{&") {
		// A test's own sentence, not a dump: its middle is often the
		// why (trial C lost "the controller has returned" to the cut).
		return line
	}
	return scenario.CutMiddle(line)
}

// indentReason lays a reason under the two-space margin of a report.
func indentReason(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// observedPanic is client-go's log of a panic it recovered
// (utilruntime.HandleCrash, before it panics again): one klog line whose
// stack trace goes on, a frame per two lines, to a line ">".
var observedPanic = regexp.MustCompile(`"Observed a panic" panic="((?:[^"\\]|\\.)*)"`)

// condensePanicLogs puts each of client-go's logs of a recovered panic in a
// test's output as two lines: the panic, and where in your code it was
// raised. Whole, it is thirty lines and more of stack before the test's
// own words (trial G read 999 lines left out, where "was told of ns/p10
// twice" was the reason).
func (k *code) condensePanicLogs(output string) string {
	lines := strings.Split(output, "\n")
	var out []string
	first := map[string]int{} // a panic and its place → its line in out
	times := map[string]int{}
	for i := 0; i < len(lines); i++ {
		m := observedPanic.FindStringSubmatch(lines[i])
		end := i
		for m != nil && end < len(lines) && strings.TrimSpace(lines[end]) != ">" {
			end++
		}
		if m == nil || end == len(lines) {
			out = append(out, lines[i])
			continue
		}
		margin := lines[i][:indentOf(lines[i])]
		msg, err := strconv.Unquote(`"` + m[1] + `"`)
		if err != nil {
			msg = m[1]
		}
		where := ""
		if mine := k.yours(parseFrames(lines[i : end+1])); len(mine) > 0 {
			where = k.where(mine[0])
		}
		i = end
		key := msg + "\x00" + where
		if times[key]++; times[key] > 1 {
			continue // one report of each, with its count
		}
		first[key] = len(out)
		out = append(out, margin+"client-go recovered a panic and logged it (HandleCrash): "+msg)
		if where != "" {
			out = append(out, margin+"  raised at "+where)
		}
		if fn := k.deliberate(msg); fn != "" {
			out = append(out, margin+"  (the reference's "+fn+" panics so too, on purpose:", margin+"  its callers broke the rule it checks)")
		}
	}
	for key, n := range times {
		if n > 1 {
			out[first[key]] += fmt.Sprintf(" (%d times)", n)
		}
	}
	return strings.Join(out, "\n")
}
