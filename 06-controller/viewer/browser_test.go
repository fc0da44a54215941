package viewer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"example.com/walkthrough/06-controller/viewer"
	"example.com/walkthrough/06-controller/viewer/browsertest"
)

// recordedTrace is the demo's story on the embedded API server, recorded
// by make viewer-trace. The browser test steps through it; the docs'
// stills are taken from it.
const recordedTrace = "testdata/demo.jsonl"

// recordedOursTrace is the same story on chapter 07's server, recorded by
// make viewer-trace SERVER=ours: its changes start at etcd.
const recordedOursTrace = "testdata/demo-ours.jsonl"

// serveTrace replays the recorded trace on a free loopback port.
func serveTrace(t testing.TB) (*viewer.Server, []viewer.Step) {
	t.Helper()
	return serveTraceFile(t, recordedTrace)
}

// serveTraceFile replays the trace in path on a free loopback port.
func serveTraceFile(t testing.TB, path string) (*viewer.Server, []viewer.Step) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (record it with make viewer-trace SERVER=fake, or make viewer-trace for chapter 07's server)", err)
	}
	defer f.Close()
	rec, err := viewer.Replay(f)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := viewer.Serve("127.0.0.1:0", rec, "../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	steps, _, _ := rec.Steps(0)
	return srv, steps
}

// TestBrowserStepsThroughTrace drives the page in headless Chromium: it
// loads the recorded trace, steps forward through the whole story with
// the forward button and back with the back button, and at every step
// checks that what the page shows (Reflector, FIFO, Indexer, handlers,
// workqueue, workers, API writes) is that step's recorded state. It saves
// a screenshot at the first step of each part of the story.
func TestBrowserStepsThroughTrace(t *testing.T) {
	srv, steps := serveTrace(t)
	ctx := browsertest.New(t, 1400, 900)
	shots := screenshotDir(t)

	start := time.Now()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(`body[data-loaded="true"]`),
	); err != nil {
		t.Fatalf("load the viewer: %v", err)
	}
	t.Logf("the page loaded %d steps in %s", len(steps), time.Since(start).Round(time.Millisecond))

	check := func(i int, how string) {
		got, err := browsertest.Read(ctx)
		if err != nil {
			t.Fatalf("step %d: read the page: %v", i+1, err)
		}
		if diff := cmp.Diff(browsertest.Expected(steps[i]), got); diff != "" {
			t.Fatalf("stepping %s to step %d (%s %q), the page does not show the trace's state (-trace +page):\n%s",
				how, i+1, steps[i].Stage, steps[i].Message, diff)
		}
	}
	check(0, "to the start")
	section := 0
	for i := 1; i < len(steps); i++ {
		if err := chromedp.Do(ctx, chromedp.Click("#forward")); err != nil {
			t.Fatal(err)
		}
		check(i, "forward")
		if steps[i].Section != section {
			section = steps[i].Section
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(shots, fmt.Sprintf("section-%d-step-%03d.png", section, i+1))
			if err := os.WriteFile(name, png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := len(steps) - 2; i >= 0; i-- {
		if err := chromedp.Do(ctx, chromedp.Click("#back")); err != nil {
			t.Fatal(err)
		}
		check(i, "back")
	}
	t.Logf("stepped forward and back through %d steps; screenshots in %s", len(steps), shots)
}

// screenshotDir is where the browser test saves its screenshots:
// .cache/viewer at the workshop's root, kept after the test.
func screenshotDir(t testing.TB) string {
	dir, err := filepath.Abs("../../.cache/viewer")
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBrowserFollowAndJump checks the page's other ways to move: "next
// step of" a component lands on that component's next step, and
// following one object steps only through that object's steps and marks
// it in every list.
func TestBrowserFollowAndJump(t *testing.T) {
	srv, steps := serveTrace(t)
	ctx := browsertest.New(t, 1400, 900)
	if err := browsertest.Load(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	at := func() viewer.Step {
		t.Helper()
		seq, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.step`))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range steps {
			if fmt.Sprint(s.Seq) == seq {
				return s
			}
		}
		t.Fatalf("the page shows step %q, which the trace does not have", seq)
		return viewer.Step{}
	}
	for _, stage := range []string{"fifo", "indexer", "handler", "queue", "worker", "api", "reflector"} {
		from := at()
		if err := chromedp.Do(ctx, chromedp.Click(`[data-jump="`+stage+`"]`)); err != nil {
			t.Fatal(err)
		}
		want := from
		for _, s := range steps[from.Seq:] {
			if s.Stage == stage || stage == "api" && (s.Stage == "event" || s.Stage == "cluster") {
				want = s
				break
			}
		}
		if got := at(); got.Seq != want.Seq {
			t.Fatalf("from step %d, next step of %s went to step %d (%s), want %d (%s)", from.Seq, stage, got.Seq, got.Stage, want.Seq, want.Stage)
		}
	}

	const key = "demo/web"
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => { const f = document.getElementById("follow");
		f.value = "`+key+`"; f.dispatchEvent(new Event("change")); })()`)); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if err := chromedp.Do(ctx, chromedp.Click("#forward")); err != nil {
			t.Fatal(err)
		}
		if s := at(); s.Key != key {
			t.Fatalf("following %s, forward went to step %d about %q", key, s.Seq, s.Key)
		}
	}
	marked, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("li.followed")].map((li) => li.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range marked {
		if !strings.Contains(text, key) {
			t.Errorf("following %s, the page marks %q", key, text)
		}
	}
	if len(marked) == 0 {
		t.Errorf("following %s, the page marks nothing at step %d", key, at().Seq)
	}
}

// TestBrowserFollowsOneChangeFromEtcd follows demo/web through one change
// of the story on chapter 07's server (scaling web to 4): from etcd's
// write of the Rollout, through the watch cache and the WatchServer's
// frame, to the Reflector and on to the worker's API call. At every step
// the page shows the trace's state, chapter 07's boxes included, and
// highlights the box of the step's stage.
func TestBrowserFollowsOneChangeFromEtcd(t *testing.T) {
	srv, steps := serveTraceFile(t, recordedOursTrace)
	var first viewer.Step
	for _, s := range steps {
		if s.Title == stillsSection && s.Stage == "etcd" && s.Key == "demo/web" {
			first = s
			break
		}
	}
	if first.Seq == 0 {
		t.Fatalf("%s has no etcd step of demo/web in %q", recordedOursTrace, stillsSection)
	}
	ctx := browsertest.New(t, 1400, 900)
	if err := browsertest.Load(ctx, fmt.Sprintf("%s?step=%d", srv.URL, first.Seq)); err != nil {
		t.Fatal(err)
	}
	const key = "demo/web"
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => { const f = document.getElementById("follow");
		f.value = "`+key+`"; f.dispatchEvent(new Event("change")); })()`)); err != nil {
		t.Fatal(err)
	}
	// component is the box a stage lights up (app.js, components).
	component := map[string]string{"event": "api", "cluster": "api"}
	var walked []string
	for step := first; ; {
		got, err := browsertest.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(browsertest.Expected(step), got); diff != "" {
			t.Fatalf("following %s to step %d (%s %q), the page does not show the trace's state (-trace +page):\n%s",
				key, step.Seq, step.Stage, step.Message, diff)
		}
		box := step.Stage
		if c, ok := component[box]; ok {
			box = c
		}
		hot, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".component.hot")].map((b) => b.dataset.component)`))
		if err != nil {
			t.Fatal(err)
		}
		if len(hot) != 1 || hot[0] != box {
			t.Fatalf("step %d (%s): the page highlights %v, want the %s box", step.Seq, step.Stage, hot, box)
		}
		if step.Key != key {
			t.Fatalf("following %s, the page went to step %d about %q", key, step.Seq, step.Key)
		}
		if len(walked) == 0 || walked[len(walked)-1] != step.Stage {
			walked = append(walked, step.Stage)
		}
		if step.Stage == "api" {
			break
		}
		if len(walked) > 20 {
			t.Fatalf("following %s from step %d, no API call after %v", key, first.Seq, walked)
		}
		if err := chromedp.Do(ctx, chromedp.Click("#forward")); err != nil {
			t.Fatal(err)
		}
		seq, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.step`))
		if err != nil {
			t.Fatal(err)
		}
		step = steps[atoi(t, seq)-1]
	}
	want := []string{"etcd", "watchcache", "watchserver", "reflector", "fifo", "indexer", "handler", "queue", "worker", "api"}
	if !slices.Equal(walked, want) {
		t.Errorf("following %s from etcd's write, the page went through %v, want %v", key, walked, want)
	}
	t.Logf("followed %s from step %d (%s) to the API call: %v", key, first.Seq, first.Message, walked)
}

func atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("the page's step %q is not a number", s)
	}
	return n
}
