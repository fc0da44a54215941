// Package lwscenario is chapter 01's scenario driver: the commands of
// 01-listwatch/testdata/scenarios, each with its usage, and the driver
// that plays them on a server behind a Backend.
//
// It is a package, not test files, because two modules play these files:
// chapter 01 on its scripted test server (Scripted), and chapter 07 on
// its own server over a real etcd (its backend is a fault proxy in front
// of that server). Test files cannot be imported across modules; with
// one table, a command added here runs, or fails by name, in both.
package lwscenario

import (
	"context"
	"errors"
	"io"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"example.com/walkthrough/01-listwatch/testserver"
	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// Commands is every command of chapter 01's scenario files, one family a
// file (commands_*.go).
var Commands = scenario.NewTable(serverCommands, faultCommands, clientCommands, reflectorCommands)

// Backend is the server a file's steps act on, and the clock they wait on.
type Backend interface {
	// Serve starts the file's server (again) with opts; its requests go to tr.
	Serve(opts testserver.Options, tr *notation.Trace) error
	// Write creates or updates (verb) a pod, and returns its new version.
	Write(verb string, pod *v1.Pod) (rv string, err error)
	// Delete deletes a pod, and returns the version of its deletion.
	Delete(ns, name string) (rv string, err error)
	// Objects are the server's pods, "ns/name@rv", sorted.
	Objects() []string
	// Fail makes the next request of f.Verb fail as f says.
	Fail(f testserver.Fault) error
	// SendError writes an ERROR frame into every open watch.
	SendError(code int32, reason metav1.StatusReason, message string)
	// DropWatches breaks every open watch stream.
	DropWatches()
	// RV is a version as the file counts them.
	RV(rv string) string
	// Advance lets d pass on the clock the Reflector waits on.
	Advance(d time.Duration)
	// Await returns show() once it prints want, or once waiting more is of
	// no use: at once when the step's goroutines are idle in a bubble, or at a
	// deadline on a real clock.
	Await(want string, show func() string) string
	// Scripted is the scripted test server, or nil: a command only it can
	// play (a raw frame, a compaction, a bookmark on cue) needs it.
	Scripted() *testserver.Server
}

// ReflectorConfig is one Reflector to start: over the server's pods (all
// namespaces), writing into Store.
type ReflectorConfig struct {
	// Server is the scripted server (Backend.Scripted), nil on another
	// backend, whose Impl knows where its server is.
	Server *testserver.Server
	Store  *RecordingStore
	Resync time.Duration
	// ShouldResync, when not nil, is the Reflector's ShouldResync.
	ShouldResync func() bool
	// WatchList is the WatchListClient feature of the scenario file. The
	// harness sets client-go's gate from the same header; our Reflector
	// takes it as an option.
	WatchList bool
}

// Impl is one implementation of the chapter: what its contract_test.go
// calls impl. A backend other than the scripted server fills in
// NewReflector alone.
type Impl struct {
	// NewReflector makes a Reflector; run runs it until ctx ends. The
	// driver calls run on a goroutine of its own.
	NewReflector func(cfg ReflectorConfig) (run func(ctx context.Context), lastSyncRV func() string)
	// NewFrameDecoder reads pod watch frames from r; next describes each
	// event or error in the notation of describeEvent.
	NewFrameDecoder func(r io.Reader) (next func() (string, error))
	// DecodeObject decodes one object's JSON: as a pod when typed, else
	// as unstructured (the dynamic client's way).
	DecodeObject func(raw []byte, typed bool) (runtime.Object, error)
	// ListAll lists every pod on srv (reached through client), pageSize at
	// a time, and returns the list's resource version and item count.
	ListAll func(ctx context.Context, srv *testserver.Server, pageSize int64) (rv string, n int, err error)
	// ListPage sends one LIST with opts, through the client alone (no
	// pager), and returns the page's resource version, continue token and
	// item count.
	ListPage func(ctx context.Context, srv *testserver.Server, opts metav1.ListOptions) (rv, cont string, n int, err error)
	// Watch opens one watch with opts, through the client alone (no
	// Reflector). Each event comes out of events in the notation of
	// describeEvent; events closes when the watch ends, or ctx does.
	Watch func(ctx context.Context, srv *testserver.Server, opts metav1.ListOptions) (events <-chan string, err error)
}

// Driver plays one scenario file: a server behind a backend, one
// Reflector on it, and the trace of what happened in each step.
type Driver struct {
	im        Impl
	b         Backend
	watchList bool
	served    bool
	tr        *notation.Trace
	store     *RecordingStore
	cancel    context.CancelFunc
	done      <-chan struct{}
	lastRV    func() string
	panicked  atomic.Pointer[any] // what the Reflector's goroutine panicked with
}

// New makes the driver of the file f, whose Reflector stops when t ends.
func New(t testing.TB, im Impl, b Backend, f *scenario.File) *Driver {
	d := &Driver{im: im, b: b, tr: &notation.Trace{}, watchList: true}
	if on, ok := f.Features["WatchListClient"]; ok {
		d.watchList = on
	}
	t.Cleanup(d.stop)
	return d
}

// Step plays one step; a file that starts with no server command gets a
// default server.
func (d *Driver) Step(t testing.TB, td *datadriven.TestData) string {
	if !d.served && td.Cmd != "server" {
		d.serve(t, td, testserver.Options{})
	}
	return Commands.Run(d, t, td)
}

func (d *Driver) serve(t testing.TB, td *datadriven.TestData, opts testserver.Options) {
	if err := d.b.Serve(opts, d.tr); err != nil {
		td.Fatalf(t, "%v", err)
	}
	d.served = true
}

// report is a step's output: out, then the trace of what the step made
// happen, or (nothing).
func (d *Driver) report(td *datadriven.TestData, out []string) string {
	var shown int // trace lines in the last print
	got := d.b.Await(td.Expected, func() string {
		d.repanic()
		lines := d.tr.Peek()
		shown = len(lines)
		all := append(out[:len(out):len(out)], lines...)
		if len(all) == 0 {
			return "(nothing)"
		}
		return strings.Join(all, "\n")
	})
	d.tr.Drop(shown)
	return got
}

// query is a step's output that shows state, not the trace.
func (d *Driver) query(td *datadriven.TestData, show func() string) string {
	return d.b.Await(td.Expected, func() string {
		d.repanic()
		return show()
	})
}

// repanic raises, on the step's goroutine, a panic the Reflector's
// goroutine died of.
func (d *Driver) repanic() {
	if v := d.panicked.Load(); v != nil {
		panic(*v)
	}
}

// scripted is the scripted server, for a command only it can play.
func (d *Driver) scripted(t testing.TB, td *datadriven.TestData) *testserver.Server {
	srv := d.b.Scripted()
	if srv == nil {
		td.Fatalf(t, "chapter 01's command %q has no counterpart against a real server", td.Cmd)
	}
	return srv
}

// describe writes an object as "namespace/name@rv", the version as the
// file counts them.
func (d *Driver) describe(obj any) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return notation.Short(obj)
	}
	return notation.Key(m) + "@" + d.b.RV(m.GetResourceVersion())
}

// RecordingStore is chapter 03's store with every call written to the
// trace. It is also a BookmarkStore, so bookmarks show up.
type RecordingStore struct {
	indexer.Store
	d *Driver
	// failingResync is the call of Resync that fails (counting from 1),
	// or 0; resyncs counts the calls.
	failingResync int
	resyncs       atomic.Int64
}

func (s *RecordingStore) Add(obj any) error {
	s.d.tr.Add("store: add %s", s.d.describe(obj))
	return s.Store.Add(obj)
}

func (s *RecordingStore) Update(obj any) error {
	s.d.tr.Add("store: update %s", s.d.describe(obj))
	return s.Store.Update(obj)
}

func (s *RecordingStore) Delete(obj any) error {
	s.d.tr.Add("store: delete %s", s.d.describe(obj))
	return s.Store.Delete(obj)
}

// Replace prints the keys sorted: a streaming list replaces from a map.
func (s *RecordingStore) Replace(list []any, rv string) error {
	keys := make([]string, len(list))
	for i, obj := range list {
		keys[i] = s.d.describe(obj)
	}
	sort.Strings(keys)
	s.d.tr.Add("store: replace rv=%s %s", s.d.b.RV(rv), strings.Join(notation.OrNone(keys), " "))
	return s.Store.Replace(list, rv)
}

func (s *RecordingStore) Resync() error {
	s.d.tr.Add("store: resync")
	if int(s.resyncs.Add(1)) == s.failingResync {
		s.d.tr.Add("store: resync fails")
		return errors.New("the scenario's store failed to resync")
	}
	return s.Store.Resync()
}

func (s *RecordingStore) Bookmark(rv string) error {
	s.d.tr.Add("store: bookmark rv=%s", s.d.b.RV(rv))
	return nil
}

// contents is the store as "key@rv" lines, sorted.
func (s *RecordingStore) contents() []string {
	var out []string
	for _, obj := range s.Store.List() {
		out = append(out, s.d.describe(obj))
	}
	sort.Strings(out)
	return out
}
