// Package browsertest drives the step-through viewer's page in headless
// Chromium for tests: it finds and starts the browser, reads what the page
// shows, and says what the page must show for a step.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"example.com/walkthrough/06-controller/viewer"
)

// BrowserPath finds a headless-capable Chromium. Without one the test
// fails where a browser is required (CI sets WALKTHROUGH_BROWSER=required)
// and skips elsewhere, saying how to get one.
func BrowserPath(t testing.TB) string {
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

// New starts headless Chromium with the flags a closed, sandboxed
// machine needs: no background networking, no sandbox (CI runs as root),
// a fresh profile.
func New(t testing.TB, width, height int) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(BrowserPath(t)),
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

// OnScreen reads every list the page draws: data-list name → item texts.
const OnScreen = `(() => {
  const out = {};
  for (const e of document.querySelectorAll("[data-list]")) {
    out[e.dataset.list] = e.tagName === "UL" ? [...e.querySelectorAll("li")].map((li) => li.textContent) : [e.textContent];
  }
  out["step"] = [document.body.dataset.step];
  return out;
})()`

// Expected is what the page must show for step s: the same lists, built
// from the trace in Go with the page's text rules (app.js, text).
func Expected(s viewer.Step) map[string][]string {
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
	if srv := s.State.Server; srv != nil {
		items("etcd", srv.Etcd)
		for _, c := range srv.Caches {
			out["watchcache/"+c.Resource+"/window"] = []string{c.Window}
			items("watchcache/"+c.Resource+"/ring", c.Ring)
			items("watchcache/"+c.Resource+"/watchers", c.Watchers)
		}
		items("watchserver", srv.Frames)
	}
	return out
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Load opens url and waits until the page has every step of a finished
// trace.
func Load(ctx context.Context, url string) error {
	return chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(`body[data-loaded="true"]`))
}

// Read returns what the page shows now, as OnScreen reads it.
func Read(ctx context.Context) (map[string][]string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[map[string][]string](OnScreen))
}
