package main

import (
	"io"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"example.com/walkthrough/06-controller/viewer"
	"example.com/walkthrough/06-controller/viewer/browsertest"
	"example.com/walkthrough/workshop/cluster"
)

// TestViewerLive opens the step-through viewer in headless Chromium before
// the demo starts on the embedded API server, so every step reaches the
// page live, and checks that the page followed the story to its last step
// and shows that step's state.
func TestViewerLive(t *testing.T) { viewLive(t, "") }

// TestE2EViewerLive is the same on the local control plane (make e2e),
// as make demo CLUSTER=local VIEW=web runs it.
func TestE2EViewerLive(t *testing.T) {
	cluster.Require(t)
	viewLive(t, os.Getenv(cluster.EnvKubeconfig))
}

func viewLive(t *testing.T, kubeconfig string) {
	rec := viewer.NewRecorder(nil)
	srv, err := viewer.Serve("127.0.0.1:0", rec, "")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := browsertest.New(t, 1400, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatalf("open the live viewer: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`viewer.wasLive === true`)); err != nil {
		t.Fatalf("the page did not connect to the live demo: %v", err)
	}
	start := time.Now()
	if err := run(io.Discard, options{kubeconfig: kubeconfig, simulate: true}, rec); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`body[data-loaded="true"]`)); err != nil {
		t.Fatal(err)
	}
	steps, _, _ := rec.Steps(0)
	last := steps[len(steps)-1]
	got, err := browsertest.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(browsertest.Expected(last), got); diff != "" {
		t.Fatalf("after the demo's %d steps, the live page does not show the last step (-want +page):\n%s", len(steps), diff)
	}
	t.Logf("the page followed %d steps live (the story took %s)", len(steps), took.Round(time.Millisecond))
}
