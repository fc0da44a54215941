package lwscenario

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// reflectorCommands run the file's one Reflector, move time on, and look
// at what its store holds.
var reflectorCommands = []scenario.Command[*Driver]{
	{Name: "start", Run: (*Driver).start,
		Usage: `start [resync=D] [should-resync=A,B,...] [resync-fails=N]
Starts the file's Reflector over the server's pods (all namespaces),
writing into a store that writes each call to the trace (store: add,
update, delete, replace, resync, bookmark), resyncing every D. With
should-resync, the Reflector's ShouldResync answers A (yes or no), then
B, and so on, the last answer repeating; each call is traced as
"should-resync? A". With resync-fails, the store's Nth Resync returns
an error. Prints the trace: the requests and store calls that followed.`,
		Example: "start resync=30s should-resync=no,yes resync-fails=2"},
	{Name: "advance", Run: (*Driver).advance,
		Usage: `advance D
Lets D of time pass (the bubble's fake clock; a real one against a real
server), then prints the trace.`,
		Example: "advance 1600ms"},
	{Name: "stop", Run: (*Driver).stopCmd,
		Usage: "stop\nStops the Reflector and waits for it to return. Prints stopped, then the trace."},
	{Name: "store", Run: (*Driver).storeCmd,
		Usage: "store\nWhat the Reflector's store holds, ns/name@rv, sorted, or (none)."},
	{Name: "same", Run: (*Driver).same,
		Usage: `same
Whether the store holds what the server does: store == server: N objects,
or store != server and both lists.`},
	{Name: "last-sync-rv", Run: (*Driver).lastSyncRV,
		Usage: "last-sync-rv\nThe Reflector's LastSyncResourceVersion, quoted."},
}

func (d *Driver) start(t testing.TB, td *datadriven.TestData) string {
	if d.cancel != nil {
		td.Fatalf(t, "the reflector is running already")
	}
	cfg := ReflectorConfig{Server: d.b.Scripted(), WatchList: d.watchList}
	var resync string
	td.MaybeScanArgs(t, "resync", &resync)
	if resync != "" {
		var err error
		if cfg.Resync, err = time.ParseDuration(resync); err != nil {
			td.Fatalf(t, "%v", err)
		}
	}
	var answers string
	td.MaybeScanArgs(t, "should-resync", &answers)
	if answers != "" {
		cfg.ShouldResync = d.shouldResync(t, td, strings.Split(answers, ","))
	}
	d.store = &RecordingStore{Store: newStore(), d: d}
	td.MaybeScanArgs(t, "resync-fails", &d.store.failingResync)
	cfg.Store = d.store
	ctx, cancel := context.WithCancel(t.(*testing.T).Context())
	d.cancel = cancel
	run, lastRV := d.im.NewReflector(cfg)
	done := make(chan struct{})
	d.lastRV, d.done = lastRV, done
	go func() {
		defer close(done)
		// A panic on the Reflector's goroutine (an unfinished exercise,
		// a bug) is kept and raised again by the next step, so the
		// scenario runner can report it instead of the process dying.
		defer func() {
			if v := recover(); v != nil {
				v = scenario.Catch(v)
				d.panicked.Store(&v)
			}
		}()
		run(ctx)
	}()
	return d.report(td, nil)
}

// shouldResync is a ShouldResync that gives answers in turn, the last
// one for ever, and traces each call: a Reflector that never asks, or asks
// at the wrong time, shows in the trace.
func (d *Driver) shouldResync(t testing.TB, td *datadriven.TestData, answers []string) func() bool {
	for _, a := range answers {
		if a != "yes" && a != "no" {
			td.Fatalf(t, "should-resync takes yes or no answers, comma-separated: should-resync=no,yes (got %q)", a)
		}
	}
	var calls atomic.Int64
	return func() bool {
		i := int(calls.Add(1)) - 1
		a := answers[min(i, len(answers)-1)]
		d.tr.Add("should-resync? %s", a)
		return a == "yes"
	}
}

func (d *Driver) advance(t testing.TB, td *datadriven.TestData) string {
	d.b.Advance(scenario.Advance(t, td))
	return d.report(td, nil)
}

func (d *Driver) stopCmd(t testing.TB, td *datadriven.TestData) string {
	d.stop()
	return d.report(td, []string{"stopped"})
}

// stop ends the Reflector, if it runs, and waits for it.
func (d *Driver) stop() {
	if d.cancel != nil {
		d.cancel()
		<-d.done
		d.cancel = nil
	}
}

func (d *Driver) storeCmd(t testing.TB, td *datadriven.TestData) string {
	return d.query(td, func() string { return strings.Join(notation.OrNone(d.store.contents()), "\n") })
}

func (d *Driver) same(t testing.TB, td *datadriven.TestData) string {
	return d.query(td, func() string {
		store, server := d.store.contents(), d.b.Objects()
		got, want := strings.Join(store, " "), strings.Join(server, " ")
		if got == want {
			return "store == server: " + strconv.Itoa(len(store)) + " objects"
		}
		return "store != server\nstore:  " + got + "\nserver: " + want
	})
}

func (d *Driver) lastSyncRV(t testing.TB, td *datadriven.TestData) string {
	return d.query(td, func() string { return fmt.Sprintf("%q", d.b.RV(d.lastRV())) })
}
