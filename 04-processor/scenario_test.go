package processor_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cockroachdb/datadriven"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"

	"example.com/walkthrough/workshop/scenario"
)

// scenarioImpls is what the scenario runner starts: one driver per file.
var scenarioImpls = scenario.Impls{}

// TestScenarios plays testdata/scenarios/*.txt against the implementation
// chosen with WALKTHROUGH_IMPL (reference, exercise or client-go). Each
// file runs in a testing/synctest bubble: every step ends when all the
// informer's goroutines are idle, and time moves only on "advance".
//
// Every file runs in two modes, against the same goldens: on today's path
// (client-go's default gates: WatchList, batch pops) as
// TestScenarios/<file>, and on the classic one (list+watch, one pop at a
// time; client-go with WatchListClient and InOrderInformersBatchProcess
// off) as TestScenarios/classic/<file>. The queue is the one the file's
// gates choose, in both. Goldens are recorded on today's path only.
func TestScenarios(t *testing.T) {
	scenario.Run(t, scenarioImpls, scenario.Options{Bubble: true})
	t.Run("classic", func(t *testing.T) {
		if flagSet("rewrite") {
			t.Skip("goldens are recorded on today's path")
		}
		clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, false)
		clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.InOrderInformersBatchProcess, false)
		classicMode = true
		t.Cleanup(func() { classicMode = false })
		scenario.Run(t, scenarioImpls, scenario.Options{Bubble: true})
	})
}

// classicMode tells the adapters to build informers on the classic path.
var classicMode bool

// flagSet reports whether a boolean test flag (such as -rewrite) is on.
func flagSet(name string) bool {
	f := flag.Lookup(name)
	return f != nil && f.Value.String() == "true"
}

// An informer works on goroutines of its own. A panic there (an unfinished
// exercise, a bug) would kill the test binary, so the tests make
// utilruntime.HandleCrash, which every informer goroutine defers, log and
// record it instead, and the driver raises it again at the end of the
// step: the scenario runner then reports it like any other.
var crashes struct {
	sync.Mutex
	first any
}

func init() {
	utilruntime.ReallyCrash = false
	utilruntime.PanicHandlers = append(utilruntime.PanicHandlers, func(_ context.Context, r any) {
		crashes.Lock()
		defer crashes.Unlock()
		if crashes.first == nil {
			crashes.first = r
		}
	})
}

// takeCrash returns and forgets the first panic recorded.
func takeCrash() any {
	crashes.Lock()
	defer crashes.Unlock()
	r := crashes.first
	crashes.first = nil
	return r
}

// driver plays the commands of one scenario file.
type driver struct {
	im   impl
	fifo fifoKind

	lws      map[string]*scriptedLW // by kind
	inf      *informer
	ctx      context.Context
	cancel   context.CancelFunc
	runDone  chan struct{}
	handlers map[string]*recorder
	regs     map[string]registration

	errMu     sync.Mutex
	watchErrs []string

	fac         *factory
	facIDs      map[string]any // kind → the informer first returned
	facStop     chan struct{}
	facShutdown chan struct{} // closed when Shutdown returns

	ring ring
}

func newDriver(t testing.TB, im impl, f *scenario.File) scenario.Driver {
	d := &driver{im: im, lws: map[string]*scriptedLW{}, handlers: map[string]*recorder{}, regs: map[string]registration{}, facIDs: map[string]any{}}
	switch {
	case f.Features["InOrderInformers"] == false && hasFeature(f, "InOrderInformers"):
		d.fifo = deltaFIFO
	case f.Features["AtomicFIFO"] == false && hasFeature(f, "AtomicFIFO"):
		d.fifo = realFIFO
	}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	takeCrash() // a crash left over from an earlier file is not this file's
	t.Cleanup(func() {
		for _, h := range d.handlers {
			h.unblock()
		}
		d.cancel()
		if d.facStop != nil {
			select {
			case <-d.facStop:
			default:
				close(d.facStop)
			}
		}
		synctest.Wait()
	})
	return d.step
}

func hasFeature(f *scenario.File, name string) bool { _, ok := f.Features[name]; return ok }

func (d *driver) lw(kind string) *scriptedLW {
	if kind == "" {
		kind = "pods"
	}
	if d.lws[kind] == nil {
		d.lws[kind] = newScriptedLW(kind)
	}
	return d.lws[kind]
}

// settle waits until every goroutine of the bubble is idle, then raises a
// panic one of them had.
func (d *driver) settle() {
	synctest.Wait()
	if r := takeCrash(); r != nil {
		panic(r)
	}
}

func (d *driver) step(t testing.TB, td *datadriven.TestData) string {
	str := func(key string) string {
		var s string
		td.MaybeScanArgs(t, key, &s)
		return s
	}
	dur := func(key string) (time.Duration, bool) {
		s := str(key)
		if s == "" {
			return 0, false
		}
		v, err := time.ParseDuration(s)
		if err != nil {
			td.Fatalf(t, "%s: %v", key, err)
		}
		return v, true
	}
	objects := func(kind string) []runtime.Object {
		var objs []runtime.Object
		for _, line := range strings.Split(td.Input, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			obj, err := newObject(kind, line)
			if err != nil {
				td.Fatalf(t, "%v", err)
			}
			objs = append(objs, obj)
		}
		return objs
	}
	needInformer := func() informer {
		if d.inf == nil {
			td.Fatalf(t, "no informer yet: start with `informer` or `factory-informer`")
		}
		return *d.inf
	}

	var out []string
	switch td.Cmd {
	case "informer":
		resync, _ := dur("resync")
		inf := d.im.NewInformer(d.lw(str("kind")), resync, d.fifo)
		d.inf = &inf
		out = append(out, "ok")

	case "list":
		kind := str("kind")
		rv := str("rv")
		if rv == "" {
			rv = "1"
		}
		lw := d.lw(kind)
		lw.setList(rv, objects(lw.kind))
		if td.HasArg("stream") {
			lw.mu.Lock()
			lw.streams = true
			lw.mu.Unlock()
		}
		out = append(out, "ok")

	case "list-error":
		lw := d.lw(str("kind"))
		lw.mu.Lock()
		lw.listErr = errors.New(strings.TrimSpace(td.Input))
		lw.mu.Unlock()
		out = append(out, "ok")

	case "handler":
		name := str("name")
		h := newRecorder(d.im, name, td.HasArg("block"))
		var resync *time.Duration
		if v, ok := dur("resync"); ok {
			resync = &v
		}
		reg, err := needInformer().AddEventHandler(h, resync)
		if err != nil {
			out = append(out, "error: "+strings.ReplaceAll(err.Error(), fmt.Sprintf("%v", h), "<handler>"))
			break
		}
		d.handlers[name], d.regs[name] = h, reg
		d.settle()
		out = append(out, "ok")

	case "remove":
		reg, ok := d.regs[str("name")]
		if !ok {
			td.Fatalf(t, "no handler %q", str("name"))
		}
		out = append(out, result(needInformer().RemoveEventHandler(reg)))
		d.settle()

	case "unblock":
		d.handlers[str("name")].unblock()
		d.settle()
		out = append(out, "ok")

	case "start":
		inf := needInformer()
		d.runDone = make(chan struct{})
		go func() {
			defer close(d.runDone)
			inf.Run(d.ctx)
		}()
		d.settle()
		out = append(out, "ok")

	case "watch":
		lw := d.lw(str("kind"))
		for _, line := range strings.Split(strings.TrimSpace(td.Input), "\n") {
			typ, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
			var obj runtime.Object
			if typ == "BOOKMARK" {
				obj, _ = newObject(lw.kind, "x"+rest) // only the resourceVersion counts
				m, _ := meta.Accessor(obj)
				m.SetName("")
			} else {
				var err error
				if obj, err = newObject(lw.kind, rest); err != nil {
					td.Fatalf(t, "%v", err)
				}
			}
			if !lw.send(watch.Event{Type: watch.EventType(typ), Object: obj}) {
				td.Fatalf(t, "no watch open")
			}
		}
		d.settle()
		out = append(out, "ok")

	case "close-watch":
		d.lw(str("kind")).closeWatch()
		d.settle()
		out = append(out, "ok")

	case "advance":
		v, _ := time.ParseDuration(td.CmdArgs[0].Key)
		time.Sleep(v)
		d.settle()
		out = append(out, "ok")

	case "has-synced":
		inf := needInformer()
		line := fmt.Sprintf("informer=%t", inf.HasSynced())
		for _, name := range sortedKeys(d.regs) {
			line += fmt.Sprintf(" %s=%t", name, d.regs[name].HasSynced())
		}
		out = append(out, line)

	case "cache":
		inf := needInformer()
		out = append(out, formatSet(d.im, inf.List()))
		if td.HasArg("no-store-rv") {
			// client-go's store reports "" while the AtomicFIFO gate is
			// off; chapter 03's indexer has no gates (see the chapter doc).
			out = append(out, fmt.Sprintf("last sync rv=%q", inf.LastSyncRV()))
		} else {
			out = append(out, fmt.Sprintf("store rv=%q last sync rv=%q", inf.StoreRV(), inf.LastSyncRV()))
		}

	case "set-transform":
		out = append(out, result(needInformer().SetTransform(addTransformedLabel)))

	case "set-watch-error-handler":
		out = append(out, result(needInformer().SetWatchErrorHandler(func(err error) {
			d.errMu.Lock()
			defer d.errMu.Unlock()
			d.watchErrs = append(d.watchErrs, err.Error())
		})))

	case "add-indexer":
		out = append(out, result(needInformer().AddIndexer(str("name"), byNode)))

	case "by-index":
		objs, err := needInformer().ByIndex(str("name"), str("value"))
		if err != nil {
			out = append(out, "error: "+err.Error())
		} else {
			out = append(out, formatSet(d.im, objs))
		}

	case "stop":
		d.cancel()
		d.settle()
		returned := false
		select {
		case <-d.runDone:
			returned = true
		default:
		}
		out = append(out, fmt.Sprintf("run returned=%t stopped=%t", returned, needInformer().IsStopped()))

	case "wait-for-cache-sync":
		// Waits at most timeout (default 5s) of bubble time.
		timeout, ok := dur("timeout")
		if !ok {
			timeout = 5 * time.Second
		}
		stop := make(chan struct{})
		timer := time.AfterFunc(timeout, func() { close(stop) })
		var fns []func() bool
		names := strings.Fields(td.Input)
		for _, name := range names {
			if name == "informer" {
				fns = append(fns, needInformer().HasSynced)
			} else {
				fns = append(fns, d.regs[name].HasSynced)
			}
		}
		start := time.Now()
		got := d.im.WaitForCacheSync(stop, fns...)
		timer.Stop()
		out = append(out, fmt.Sprintf("%t after %s", got, time.Since(start)))
		d.settle()

	case "factory":
		// factory [resync=D] [namespace=NS] [label-selector=S] [transform]
		//         [custom-resync=KIND:D]
		resync, _ := dur("resync")
		opts := factoryOptions{Namespace: str("namespace"), LabelSelector: str("label-selector"), Transform: td.HasArg("transform")}
		if c := str("custom-resync"); c != "" {
			kind, period, _ := strings.Cut(c, ":")
			v, err := time.ParseDuration(period)
			if err != nil {
				td.Fatalf(t, "custom-resync: %v", err)
			}
			opts.Resync = map[string]time.Duration{kind: v}
		}
		f := d.im.NewFactory(resync, opts)
		d.fac = &f
		d.facStop = make(chan struct{})
		out = append(out, "ok")

	case "factory-informer":
		kind := str("kind")
		id, inf := d.fac.InformerFor(kind, d.lw(kind))
		first, seen := d.facIDs[kind]
		if !seen {
			d.facIDs[kind] = id
			out = append(out, "new informer")
		} else {
			out = append(out, fmt.Sprintf("same informer as before: %t", first == id))
		}
		if d.inf == nil {
			d.inf = &inf
		}

	case "requests":
		// requests kind=K: the LISTs and WATCHes the server got for kind
		// since the last look, with their namespace and selectors.
		out = append(out, d.lw(str("kind")).takeRequests()...)
		if len(out) == 0 {
			out = append(out, "(none)")
		}

	case "factory-start":
		d.fac.Start(d.facStop)
		d.settle()
		out = append(out, "ok")

	case "factory-wait-for-cache-sync":
		synced := d.fac.WaitForCacheSync(d.facStop)
		for _, name := range sortedKeys(synced) {
			out = append(out, fmt.Sprintf("%s: %t", name, synced[name]))
		}
		if len(synced) == 0 {
			out = append(out, "(none)")
		}

	case "factory-shutdown":
		if d.facShutdown == nil {
			d.facShutdown = make(chan struct{})
			go func() {
				d.fac.Shutdown()
				close(d.facShutdown)
			}()
		}
		d.settle()
		select {
		case <-d.facShutdown:
			out = append(out, "Shutdown returned")
		default:
			out = append(out, "Shutdown still waiting")
		}

	case "factory-stop":
		close(d.facStop)
		d.settle()
		out = append(out, "ok")

	case "ring":
		size := 0
		td.MaybeScanArgs(t, "size", &size)
		d.ring = d.im.NewRing(size)
		out = append(out, fmt.Sprintf("len=%d cap=%d", d.ring.Len(), d.ring.Cap()))

	case "ring-write":
		for _, item := range strings.Fields(td.Input) {
			d.ring.Write(item)
		}
		out = append(out, fmt.Sprintf("len=%d cap=%d", d.ring.Len(), d.ring.Cap()))

	case "ring-read":
		n := 1
		td.MaybeScanArgs(t, "n", &n)
		var got []string
		for range n {
			item, ok := d.ring.Read()
			if !ok {
				got = append(got, "(empty)")
				continue
			}
			got = append(got, fmt.Sprint(item))
		}
		out = append(out, strings.Join(got, " "), fmt.Sprintf("len=%d cap=%d", d.ring.Len(), d.ring.Cap()))

	default:
		td.Fatalf(t, "unknown command %q", td.Cmd)
	}
	return strings.Join(append(out, d.events(td.HasArg("set"))...), "\n")
}

// events reports, per handler in name order, the calls it got since the
// last step, in the order it got them (sorted when the step says set:
// the order comes from a map there), then any watch errors.
func (d *driver) events(set bool) []string {
	var out []string
	for _, name := range sortedKeys(d.handlers) {
		evs := d.handlers[name].take()
		if set {
			sort.Strings(evs)
		}
		for _, ev := range evs {
			out = append(out, name+": "+ev)
		}
	}
	d.errMu.Lock()
	for _, e := range d.watchErrs {
		out = append(out, "watch error: "+e)
	}
	d.watchErrs = nil
	d.errMu.Unlock()
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func result(err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return "ok"
}
