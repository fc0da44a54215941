package viewer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
)

// recordedTrace is the demo's story on the embedded API server, recorded
// by make viewer-trace. The browser test steps through it; the docs'
// stills are taken from it.
const recordedTrace = "testdata/demo.jsonl"

// browserPath finds a headless-capable Chromium. Without one the test
// fails where a browser is required (CI sets WALKTHROUGH_BROWSER=required)
// and skips elsewhere, saying how to get one.
func browserPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("WALKTHROUGH_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium found for the viewer's browser test. Install Debian's: sudo apt-get install chromium " +
		"(or set WALKTHROUGH_CHROMIUM to a Chrome or Chromium binary)"
	if os.Getenv("WALKTHROUGH_BROWSER") == "required" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// newBrowser starts headless Chromium with the flags a closed, sandboxed
// machine needs: no background networking, no sandbox (CI runs as root),
// a fresh profile.
func newBrowser(t testing.TB, width, height int) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browserPath(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("font-render-hinting", "none"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	return ctx
}

// serveTrace replays the recorded trace on a free loopback port.
func serveTrace(t testing.TB) (*Server, []Step) {
	t.Helper()
	f, err := os.Open(recordedTrace)
	if err != nil {
		t.Fatalf("%v (record it with make viewer-trace)", err)
	}
	defer f.Close()
	rec, err := Replay(f)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Serve("127.0.0.1:0", rec, "../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	steps, _, _ := rec.Steps(0)
	return srv, steps
}

// onScreen reads every list the page draws: data-list name → item texts.
const onScreen = `(() => {
  const out = {};
  for (const e of document.querySelectorAll("[data-list]")) {
    out[e.dataset.list] = e.tagName === "UL" ? [...e.querySelectorAll("li")].map((li) => li.textContent) : [e.textContent];
  }
  out["step"] = [document.body.dataset.step];
  return out;
})()`

// expected is what the page must show for step s: the same lists, built
// from the trace in Go with the page's text rules (app.js, text).
func expected(s Step) map[string][]string {
	out := map[string][]string{"step": {fmt.Sprint(s.Seq)}}
	items := func(name string, list []string) {
		if len(list) == 0 {
			list = []string{"empty"}
		}
		out[name] = list
	}
	for _, inf := range s.State.Informers {
		r := inf.Resource
		line := inf.Reflector.Phase
		if inf.Reflector.ResourceVersion != "" {
			line += " · rv " + inf.Reflector.ResourceVersion
		}
		out["reflector/"+r] = []string{line}
		var fifo, objects, index []string
		for _, e := range inf.FIFO {
			key := e.Key
			if key == "" {
				key = "(all)"
			}
			fifo = append(fifo, key+": "+strings.Join(e.Deltas, ", "))
		}
		for _, o := range inf.Indexer {
			objects = append(objects, o.Key+" rv "+o.ResourceVersion)
		}
		for _, i := range inf.Indexes {
			for _, v := range i.Values {
				index = append(index, i.Name+"="+v.Value+": "+strings.Join(v.Keys, " "))
			}
		}
		items("fifo/"+r, fifo)
		items("indexer/"+r, objects)
		items("index/"+r, index)
		items("handler/"+r, inf.Handler)
	}
	q := s.State.Queue
	items("queue/queue", q.Queue)
	items("queue/dirty", q.Dirty)
	items("queue/processing", q.Processing)
	var waiting, requeues []string
	for _, w := range q.Waiting {
		waiting = append(waiting, fmt.Sprintf("%s in %d ms", w.Key, w.ReadyMS))
	}
	for _, k := range sortedKeys(q.Requeues) {
		requeues = append(requeues, fmt.Sprintf("%s: %d", k, q.Requeues[k]))
	}
	items("queue/waiting", waiting)
	items("queue/requeues", requeues)
	items("api", s.State.API)
	return out
}

// TestBrowserStepsThroughTrace drives the page in headless Chromium: it
// loads the recorded trace, steps forward through the whole story with
// the forward button and back with the back button, and at every step
// checks that what the page shows (Reflector, FIFO, Indexer, handlers,
// workqueue, workers, API writes) is that step's recorded state. It saves
// a screenshot at the first step of each part of the story.
func TestBrowserStepsThroughTrace(t *testing.T) {
	srv, steps := serveTrace(t)
	ctx := newBrowser(t, 1400, 900)
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
		got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][]string](onScreen))
		if err != nil {
			t.Fatalf("step %d: read the page: %v", i+1, err)
		}
		if diff := cmp.Diff(expected(steps[i]), got); diff != "" {
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
