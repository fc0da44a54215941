package scenario

import (
	"strings"
	"testing"
)

// A step's panic shows the frames of the chapter's code, as
// debug.Stack prints them: a goroutine line first, then a function line
// and its tab-indented file:line per frame. The two trials of
// 2026-11-27 saw "Panic: index out of range" with no frame at all: the
// pairs were read one line off.
func TestChapterFramesKeepsTheChaptersCode(t *testing.T) {
	stack := "goroutine 7 [running]:\n" +
		"runtime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\n" +
		"example.com/walkthrough/workshop/scenario.play.func1()\n\t/w/workshop/scenario/run.go:196 +0x45\n" +
		"example.com/walkthrough/02-deltafifo.(*DeltaFIFO).Pop(0xc000)\n\t/w/02-deltafifo/deltafifo.go:201 +0x1f3\n" +
		"example.com/walkthrough/02-deltafifo_test.(*driver).pop(...)\n\t/w/02-deltafifo/scenario_pop_test.go:105 +0x212\n"
	got := chapterFrames(stack)
	want := "example.com/walkthrough/02-deltafifo.(*DeltaFIFO).Pop(0xc000)\n  /w/02-deltafifo/deltafifo.go:201 +0x1f3\n" +
		"example.com/walkthrough/02-deltafifo_test.(*driver).pop(...)\n  /w/02-deltafifo/scenario_pop_test.go:105 +0x212\n"
	if got != want {
		t.Errorf("chapterFrames:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(got, "workshop/scenario") {
		t.Errorf("the harness's own frame is shown:\n%s", got)
	}
}

// A panic caught on another goroutine keeps that goroutine's frames from
// the one that panicked on: the recovery's own frames are cut.
func TestCatchKeepsWhereItPanicked(t *testing.T) {
	done := make(chan any)
	go func() {
		defer func() { done <- Catch(recover()) }()
		var s []int
		_ = s[len(s)] // index out of range, here
	}()
	c, ok := (<-done).(*Caught)
	if !ok {
		t.Fatal("Catch did not wrap the panic")
	}
	frames := chapterFrames(strings.ReplaceAll(c.Stack, "example.com/walkthrough/workshop/scenario.", "example.com/walkthrough/01-listwatch."))
	first, _, _ := strings.Cut(frames, "\n")
	if !strings.Contains(first, "TestCatchKeepsWhereItPanicked.func1") || strings.Contains(first, "func1.1") {
		t.Errorf("the first frame is not where it panicked:\n%s", c.Stack)
	}
	if Catch(c) != c {
		t.Error("a panic caught twice lost its first stack")
	}
	if v, ok := NotDoneIn(c); ok || v != nil {
		t.Error("an index panic taken for a stub")
	}
}

// The steps played before a failing one show their input's first lines:
// "1 new-limiter" alone did not say which limiter (trial K), and five of
// them, as a drain's order is made by an add-after four steps up.
func TestStepsBeforeShowTheirInput(t *testing.T) {
	before := []string{withInput("new-limiter", "fast-slow(1ms, 1s, 2)\n"), withInput("list", "a\nb\nc\nd\n"), "advance 1s"}
	var b strings.Builder
	writeStep(&b, "fast-slow.txt:11", "your copy", &File{}, &divergence{step: 4, cmd: "when a repeat=4", before: before})
	want := "  After:    1 new-limiter\n" +
		"              fast-slow(1ms, 1s, 2)\n" +
		"            2 list\n" +
		"              a\n" +
		"              b\n" +
		"              … (2 more lines)\n" +
		"            3 advance 1s\n" +
		"  Step 4:   when a repeat=4\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("report:\n%s\nwant it to end:\n%s", b.String(), want)
	}
	if stepsBefore < 5 {
		t.Errorf("stepsBefore = %d: a drain's order is made four steps up", stepsBefore)
	}
}
