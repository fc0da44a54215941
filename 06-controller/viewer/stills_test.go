package viewer_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"example.com/walkthrough/06-controller/viewer"
	"example.com/walkthrough/06-controller/viewer/browsertest"
)

var writeStills = flag.Bool("write-stills", false, "redraw the chapter docs' viewer stills (make stills)")

// stills are the chapter docs' pictures of the viewer: for each chapter,
// the moment its component acts while the demo scales web to 4 replicas.
// Chapter 07's is taken from the story on its own server, at the moment
// its watch cache applies the change.
var stills = []struct{ chapter, stage, trace string }{
	{"01", "reflector", recordedTrace}, {"02", "fifo", recordedTrace}, {"03", "indexer", recordedTrace},
	{"04", "handler", recordedTrace}, {"05", "queue", recordedTrace}, {"06", "worker", recordedTrace},
	{"07", "watchcache", recordedOursTrace},
}

// stillsSection is the part of the demo's story the stills show.
const stillsSection = "Scale web to 4 replicas"

const (
	stillsDir   = "../../docs/img"
	stillsStamp = "../../docs/img/viewer-stills.sha256"
)

// stillStep is the step chapter's still shows: the first step of its
// stage in stillsSection.
func stillStep(steps []viewer.Step, stage string) (viewer.Step, error) {
	for _, s := range steps {
		if s.Title == stillsSection && s.Stage == stage {
			return s, nil
		}
	}
	return viewer.Step{}, fmt.Errorf("the trace has no %s step in %q", stage, stillsSection)
}

// stillsInputs hashes what the stills are drawn from: the recorded trace,
// the page, and this file's choice of steps.
func stillsInputs(t testing.TB) string {
	t.Helper()
	h := sha256.New()
	add := func(name string, data []byte) {
		fmt.Fprintf(h, "%s %d\n", name, len(data))
		h.Write(data)
	}
	for _, name := range []string{recordedTrace, recordedOursTrace, "stills_test.go"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		add(name, data)
	}
	err := fs.WalkDir(os.DirFS("."), "web", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		add(path, data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestStillsFresh fails when the trace, the page or the choice of steps
// changed since the stills were drawn. It needs no browser.
func TestStillsFresh(t *testing.T) {
	want := stillsInputs(t)
	got, err := os.ReadFile(stillsStamp)
	if err != nil || strings.TrimSpace(string(got)) != want {
		t.Fatalf("the viewer stills in docs/img are stale: the recorded trace or the page changed since they were drawn.\n" +
			"Run make stills (it needs Chromium: sudo apt-get install chromium) and commit docs/img.")
	}
	for _, s := range stills {
		if _, err := os.Stat(stillPath(s.chapter)); err != nil {
			t.Fatalf("%v: run make stills", err)
		}
	}
}

func stillPath(chapter string) string {
	return filepath.Join(stillsDir, "viewer-"+chapter+".png")
}

// TestStills draws the stills (with -write-stills) in headless Chromium.
func TestStills(t *testing.T) {
	if !*writeStills {
		t.Skip("make stills draws them (-write-stills)")
	}
	ctx := browsertest.New(t, 1400, 700)
	if err := os.MkdirAll(stillsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range stills {
		srv, steps := serveTraceFile(t, s.trace)
		step, err := stillStep(steps, s.stage)
		if err != nil {
			t.Fatal(err)
		}
		url := fmt.Sprintf("%s?step=%d", srv.URL, step.Seq)
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(`body[data-loaded="true"]`)); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(stillPath(s.chapter), png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: step %d (%s %s), %d KB", stillPath(s.chapter), step.Seq, step.Stage, step.Message, len(png)/1024)
	}
	if err := os.WriteFile(stillsStamp, []byte(stillsInputs(t)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
