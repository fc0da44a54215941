package watchserver_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// eventWait bounds how long a step waits for one event: generous, since
// the server is real; a correct run never gets near it.
const eventWait = 10 * time.Second

// driver plays one scenario file against one server.
type driver struct {
	t      testing.TB
	target target
	// base is the collection the steps act on: target.Base (ConfigMaps)
	// until a resource step names another; lease says it is Leases.
	base  string
	lease bool
	// custom says the resource is the Rollout, a custom resource;
	// deployment that it is Deployments, event that it is Events.
	custom, deployment, event bool
	norm                      *normaliser
	watches                   map[string]*openWatch
	// serveFirst starts the server's watch side before the first step;
	// watchSide says the file needs it at all.
	serveFirst, watchSide bool
	// lastWrite is the revision of the newest object a step has seen.
	lastWrite int64
	// causes: the current step asked (with `causes`) to see a failure
	// Status's causes, one line each, or "(no causes)".
	causes bool
}

func newDriver(t testing.TB, tg target) *driver {
	d := &driver{t: t, target: tg, base: tg.Base, norm: newNormaliser(), watches: map[string]*openWatch{}}
	t.Cleanup(func() {
		for _, w := range d.watches {
			w.body.Close()
		}
	})
	return d
}

// startDriver starts im's server for the file f and a driver on it.
func startDriver(t testing.TB, im impl, f *scenario.File) scenario.Driver {
	d := newDriver(t, im.Start(t))
	// For a scenario that needs the watch cache, the server is fully up
	// before the first step runs, as kube-apiserver is: its cache lists
	// before the scenario writes, so a watch from an early version is in
	// its window. It starts inside the first step, where an unfinished
	// exercise's panic is reported by the runner.
	d.serveFirst = slices.ContainsFunc(f.Exercises, func(n int) bool { return !slices.Contains(startsLazily, n) })
	d.watchSide = d.serveFirst && readsTheCache(t, f)
	return d.step
}

// readsTheCache says whether a scenario file reads another resource's
// watch cache: a step that watches or LISTs at resourceVersion=0. Only
// then does its resource step start that cache early: one started and
// never read applies the file's writes in the background while the steps
// go on, and whether it got to them before the file ended was a race
// (custom-resource-selectors needed exercise 5 in some runs, not others).
func readsTheCache(t testing.TB, f *scenario.File) bool {
	data, err := os.ReadFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "watch ") || strings.HasPrefix(line, "list ") && strings.Contains(line, " rv=0") {
			return true
		}
	}
	return false
}

func (d *driver) step(t testing.TB, td *datadriven.TestData) string {
	d.t = t
	if d.serveFirst {
		d.serveFirst = false
		d.serving()
	}
	d.causes = td.HasArg("causes")
	out := commands.Run(d, t, td)
	d.raisePanic()
	return out
}

// raisePanic raises the server's panic, if it had one, in the step: the
// runner reports it there with the exercise's frames.
func (d *driver) raisePanic() {
	if d.target.Panicked != nil {
		if v := d.target.Panicked(); v != nil {
			panic(v)
		}
	}
}

// send sends req and returns the response, or raises the server's panic
// if it panics before answering: a handler may wait for a lock the panic
// left held, and the step would wait with it (a double close in the
// cache's goroutine cost a check two 60 s waits). Closing the body ends
// the request.
func (d *driver) send(req *http.Request) *http.Response {
	ctx, cancel := context.WithCancel(req.Context())
	sent := make(chan struct{})
	go func() {
		select {
		case <-d.target.Panics: // nil for a server that cannot panic here
			cancel()
		case <-sent:
		}
	}()
	resp, err := d.target.HTTP.Do(req.WithContext(ctx))
	close(sent)
	if err != nil {
		cancel()
		d.raisePanic()
		d.t.Fatal(err)
	}
	resp.Body = cancelOnClose{resp.Body, cancel}
	return resp
}

// cancelOnClose is a response body that also ends its request's context.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b cancelOnClose) Close() error {
	defer b.cancel()
	return b.ReadCloser.Close()
}

func (d *driver) serving() {
	if d.target.Serving != nil {
		d.target.Serving(d.t)
	}
}

// do sends one request and returns the status code and body.
func (d *driver) do(method, url string, body []byte) (int, []byte) {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		d.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp := d.send(req)
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}
