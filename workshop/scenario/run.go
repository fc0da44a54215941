package scenario

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cockroachdb/datadriven"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/klog/v2"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/todo"
)

// Driver runs one step of a scenario and returns its trace. A driver holds
// the state of one scenario file: a fresh one is made for every file.
// A malformed step (unknown command, bad argument) is the scenario
// author's mistake: report it with d.Fatalf(t, ...).
type Driver func(t testing.TB, d *datadriven.TestData) string

// Impls maps an implementation name to the function that starts a driver
// for one scenario file. A chapter's adapter files fill it in init().
type Impls map[string]func(t testing.TB, f *File) Driver

// Options change how a chapter's scenarios run.
type Options struct {
	// Bubble runs each scenario file inside a testing/synctest bubble, so
	// time moves only when every goroutine is blocked and steps such as
	// "advance 250ms" are exact.
	Bubble bool
	// Parallel runs the files side by side (t.Parallel), as many at once
	// as -test.parallel allows. For a chapter on a real clock whose files
	// each start a server of their own: they spend their time waiting for
	// timeouts, not computing. A file that sets a feature gate cannot run
	// beside others (the gates are global).
	Parallel bool
	// RecordedFrom names where the goldens were recorded, for a diff's
	// header: "client-go" when empty; chapter 07's come from
	// kube-apiserver.
	RecordedFrom string
}

// Run runs every scenario file of the chapter under test against the
// selected implementation, one subtest per file.
func Run(t *testing.T, impls Impls, opts Options) {
	name, err := Selected()
	if err != nil {
		t.Fatal(err)
	}
	RunImpl(t, impls, name, opts)
}

// RunImpl is Run against the implementation name, whatever is selected:
// chapter 07's end-to-end test replays its goldens against the real
// kube-apiserver this way.
func RunImpl(t *testing.T, impls Impls, name string, opts Options) {
	start, ok := impls[name]
	if !ok {
		t.Fatalf("this chapter has no %s adapter", name)
	}
	if (name == Exercise || OnYourCopy()) && rewriting() {
		t.Fatal("Goldens are recorded from client-go or the reference, never from an exercise copy. Run without -rewrite.")
	}
	chapter, err := ChapterDir()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Bubble {
		quietErrorHandlers(t)
	}
	paths, err := filepath.Glob(filepath.Join(chapter, "testdata", "scenarios", "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenario files in %s/testdata/scenarios", chapter)
	}
	sort.Strings(paths)
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			f, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if opts.Parallel {
				if len(f.Features) > 0 {
					t.Fatalf("%s sets feature gates, which are global: it cannot run beside other files (scenario.Options.Parallel)", filepath.Base(path))
				}
				t.Parallel()
			}
			for feature, on := range f.Features {
				clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.Feature(feature), on)
			}
			run := func(t *testing.T) { runFile(t, chapter, name, f, start, opts) }
			if opts.Bubble {
				synctest.Test(t, run)
			} else {
				run(t)
			}
		})
	}
}

// quietErrorHandlers swaps client-go's default error handlers for one that
// only logs, for the length of the test. The defaults rate-limit themselves
// with a sleep measured from a clock read outside the bubble; inside a
// synctest bubble that sleep lasts for decades.
func quietErrorHandlers(t *testing.T) {
	saved := utilruntime.ErrorHandlers
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{
		func(ctx context.Context, err error, msg string, kv ...any) {
			klog.FromContext(ctx).V(2).Info(msg, append(kv, "err", err)...)
		},
	}
	t.Cleanup(func() { utilruntime.ErrorHandlers = saved })
}

// runFile plays one scenario. It stops at the first step that diverges and
// reports that step alone: later steps build on its state, so their
// differences would only repeat the first one.
func runFile(t *testing.T, chapter, impl string, f *File, start func(testing.TB, *File) Driver, opts Options) {
	if opts.Bubble {
		// The watch starts in the cleanup registered last, so before the
		// driver's own, and ends in the one registered first, after them:
		// it bounds the whole teardown.
		stop := func() {}
		t.Cleanup(func() { stop() })
		defer func() { t.Cleanup(func() { stop = watchTeardown(f) }) }()
	}
	driver := start(t, f)
	rewrite := rewriting()
	var failure *divergence
	step := 0
	var before []string // the commands of the last stepsBefore steps played
	datadriven.RunTest(t, f.Path, func(t *testing.T, d *datadriven.TestData) string {
		step++
		if failure != nil {
			return d.Expected // already failed: leave the rest untouched
		}
		defer func() { before = lastOf(append(before, withInput(d.FullCmd(), d.Input)), stepsBefore) }()
		if opts.Bubble {
			defer watchStuck(d)()
		}
		got, panicked := play(t, driver, d)
		if panicked != nil && rewrite {
			t.Fatalf("%s: cannot record this step: %v", d.Pos, panicked)
		}
		if rewrite {
			return got
		}
		if panicked != nil || got != d.Expected {
			failure = &divergence{step: step, pos: d.Pos, cmd: d.FullCmd(), input: d.Input, before: before,
				comment: f.stepComment(d.Pos), want: d.Expected, got: got, panicked: panicked}
		}
		return d.Expected
	})
	if failure != nil {
		t.Fatal(report(chapter, impl, opts.RecordedFrom, f, failure))
	}
}

// stepsBefore is how many of the steps before a failing one its report
// shows: a "when a" that waits too long reads differently after a
// "forget a" (the 05 trial opened the file to find it); a drain's order
// is made by the add-after four steps up (trial K's was left out at
// three).
const stepsBefore = 5

// withInput is a step's command with the first lines of its input, as
// the report shows a step played before the failing one: "new-limiter"
// alone did not say which limiter (trial K).
func withInput(cmd, input string) string {
	const most = 2
	lines := strings.Split(strings.TrimRight(input, "\n"), "\n")
	if input == "" {
		return cmd
	}
	if len(lines) > most {
		more := len(lines) - most
		lines = append(lines[:most], fmt.Sprintf("… (%d more %s)", more, map[bool]string{true: "line", false: "lines"}[more == 1]))
	}
	return cmd + "\n" + strings.Join(lines, "\n")
}

// lastOf is the last n of list, or all of it.
func lastOf(list []string, n int) []string {
	return list[max(0, len(list)-n):]
}

// stuckAfter is how much fake time a step may take in a bubble. Fake time
// moves only while every goroutine in the bubble waits, so a step still
// running after a day is stuck: its goroutines wait for each other (a
// deadlock), or only for timers of a loop that never ends.
const stuckAfter = 24 * time.Hour

// watchStuck stops the test binary, with a message that says which step,
// when a step is stuck; the returned function ends the watch. Without it a
// stuck step never ends: the bubble's clock runs on, and the datadriven
// package's "still running" note (every 10s of fake time) fills memory.
// A panic on another goroutine is the only way out of a stuck step; the
// runner reports the binary's stop against this scenario.
func watchStuck(d *datadriven.TestData) (stop func()) {
	return panicAfterStuck(fmt.Sprintf("scenario step %s (%s) is stuck: after %s of fake time its goroutines were still waiting, for each other (a deadlock: a channel nobody reads, a lock never released) or only for the timers of a loop that never ends",
		filepath.Base(d.Pos), d.Cmd, stuckAfter))
}

// watchTeardown is watchStuck for what comes after the last step:
// stopping what the scenario started. A loop that ignores its cancelled
// context (a Reflector's Run that goes on listing after the test stopped
// it) keeps the bubble's clock running after the last step: the 01 trial
// waited 15 s, then 5 s for each of 20 scenarios, on a binary that
// printed nothing.
func watchTeardown(f *File) (stop func()) {
	return panicAfterStuck(fmt.Sprintf("%s: the scenario's steps are over, and stopping what it started (cancelling its context, closing its stop channel) did not finish in %s of fake time: a goroutine of yours goes on, a loop that does not return once it is told to stop",
		filepath.Base(f.Path), stuckAfter))
}

// panicAfterStuck panics with message, on a goroutine of its own, unless
// the returned function is called within stuckAfter of the bubble's time.
func panicAfterStuck(message string) (stop func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-time.After(stuckAfter):
			panic(message)
		}
	}()
	return func() { close(done) }
}

// stepPanic is a panic caught while a step ran.
type stepPanic struct {
	value any
	stack string
}

func (p *stepPanic) Error() string { return fmt.Sprint(p.value) }

// play runs one step, turning a panic into a value so an unfinished
// exercise or a bug in your code is reported, not crashed on.
func play(t *testing.T, driver Driver, d *datadriven.TestData) (got string, panicked *stepPanic) {
	defer func() {
		if v := recover(); v != nil {
			v, stack := uncaught(v, string(debug.Stack()))
			panicked = &stepPanic{value: v, stack: stack}
		}
	}()
	got = driver(t, d)
	if got != "" && !strings.HasSuffix(got, "\n") {
		got += "\n"
	}
	return got, nil
}

// notDone returns the unfinished exercise a panic came from, if it did.
func (p *stepPanic) notDone() *todo.NotDone {
	if p == nil {
		return nil
	}
	nd, _ := p.value.(*todo.NotDone)
	return nd
}

// ChapterDir finds the chapter a test runs in: the nearest directory above
// the working directory that has a go.mod.
func ChapterDir() (string, error) { return chapters.FindUp("go.mod") }
