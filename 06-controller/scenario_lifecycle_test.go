package controller_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/06-controller/fakeapi"
	"example.com/walkthrough/workshop/scenario"
)

// lifecycleCommands start the controller, stop it, and move its clock.
var lifecycleCommands = []scenario.Command[*driver]{
	{Name: "start", Run: (*driver).start,
		Usage: `start [workers=N] [max-retries=M] [resync=D]
Builds the controller on its informers and queue, with N workers (2 by
default), MaxRetries M (the controller's default when 0 or left out) and
informers that resync every D (never when left out);
starts the informers and waits for them to sync, then runs the controller
in a goroutine and waits until every goroutine is idle. Prints "started"
and the controller's writes, or "informers did not sync".`,
		Example: "start workers=0"},
	{Name: "stop", Run: (*driver).stopStep,
		Usage: `stop
Ends the controller's context, waits for Run to return and for the
informers to stop, then until every goroutine is idle. Prints "stopped"
and the controller's writes.`},
	{Name: "advance", Run: (*driver).advance,
		Usage: `advance D
Moves the bubble's clock by D (the queue's backoff, a retry's delay) and
waits until every goroutine is idle. Prints the controller's writes.`,
		Example: "advance 20ms"},
}

// newEnv is what the driver hands the adapter: a fake API server that
// tells the driver of every write, and the hooks through which it sees
// the queue and catches a panic in a handler or a worker.
func (d *driver) newEnv() env {
	api := fakeapi.New(d.onWrite)
	d.installFaults(&api.Kube.Fake, &api.Walk.Fake)
	return env{
		Kube:     api.Kube,
		Walk:     api.Walk,
		Workers:  2,
		Recorder: &recorder{log: d.log},
		Errorf:   func(string, ...any) {},
		Crashed:  d.crash,
		Guard1: func(f func(any)) func(any) {
			return func(obj any) {
				defer d.recoverInto()
				f(obj)
			}
		},
		Guard2: func(f func(any, any)) func(any, any) {
			return func(old, new any) {
				defer d.recoverInto()
				f(old, new)
			}
		},
		Queue: func(q queue) queue {
			d.q = &recordingQueue{queue: q, d: d}
			return d.q
		},
	}
}

func (d *driver) crash(v any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.panicked == nil {
		d.panicked = v
	}
}

func (d *driver) recoverInto() {
	if v := recover(); v != nil {
		d.crash(scenario.Catch(v))
	}
}

// settle waits until every goroutine in the bubble is blocked, then
// re-raises the first panic any of them caught, so the scenario runner
// reports it against this step.
func (d *driver) settle() {
	synctest.Wait()
	d.mu.Lock()
	v := d.panicked
	d.mu.Unlock()
	if v != nil {
		panic(v)
	}
}

func (d *driver) start(t testing.TB, td *datadriven.TestData) string {
	if d.sys != nil {
		td.Fatalf(t, "start: already started")
	}
	d.env.Workers = scenario.IntArg(t, td, "workers", 2)
	d.env.MaxRetries = scenario.IntArg(t, td, "max-retries", 0)
	if resync, ok := scenario.DurationArg(t, td, "resync"); ok {
		d.env.Resync = resync
	}
	sys := d.im.Build(d.env)
	d.sys = &sys
	d.ctx, d.cancel = context.WithCancel(context.Background())
	d.sys.Start(d.ctx)
	d.settle()
	if !d.sys.Synced() {
		return "informers did not sync"
	}
	d.runDone = make(chan error, 1)
	go func() { d.runDone <- d.sys.Run(d.ctx) }()
	d.settle()
	return d.render("started")
}

func (d *driver) stopStep(t testing.TB, td *datadriven.TestData) string {
	if d.sys == nil {
		td.Fatalf(t, "stop: not started")
	}
	d.stop()
	d.settle()
	return d.render("stopped")
}

func (d *driver) advance(t testing.TB, td *datadriven.TestData) string {
	time.Sleep(scenario.Advance(t, td))
	d.settle()
	return d.render("")
}

// stop ends the controller gracefully and waits for it and the informers.
func (d *driver) stop() {
	if d.sys == nil || d.stopped {
		return
	}
	d.stopped = true
	d.cancel()
	if d.runDone != nil {
		select {
		case <-d.runDone:
		case <-time.After(time.Minute): // fake time: it passes at once when all else waits
			if d.q.ShuttingDown() {
				// The queue was shut down: what holds Run up is a worker
				// (trial A's missing Done read "it must shut its queue
				// down", which Run did).
				d.t.Errorf("Run did not return within a minute of its context ending, though its queue is shutting down. " +
					"A worker still holds a key it never gave back with Done (the drain waits for every Done), " +
					"or does not return once Get says the queue shut down.")
			} else {
				d.t.Errorf("Run did not return within a minute of its context ending. " +
					"It must shut its queue down, so that every worker's Get returns, before it waits for the workers.")
			}
			d.q.ShutDown() // unstick the workers, so that the test can end
			<-d.runDone
		}
	} else if d.q != nil {
		d.q.ShutDown() // Run never ran, so nothing else stops the queue
	}
	d.sys.Shutdown()
}
