package listwatch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"example.com/walkthrough/01-listwatch/testserver"
	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/workshop/scenario"
)

// This file is the contract the scenarios, the fuzz test and the
// benchmarks drive: what a list-watch implementation must offer. Each
// implementation (reference, exercise, client-go) has a small adapter
// file that fills in an impl.

// reflectorConfig is one Reflector to start: over the pods of srv (all
// namespaces), writing into store.
type reflectorConfig struct {
	Server *testserver.Server
	Store  *recordingStore
	Resync time.Duration
	// WatchList is the WatchListClient feature of the scenario file. The
	// harness sets client-go's gate from the same header; our Reflector
	// takes it as an option.
	WatchList bool
}

// impl is one implementation of the chapter.
type impl struct {
	// NewReflector makes a Reflector; run runs it until ctx ends. The
	// driver calls run on a goroutine of its own.
	NewReflector func(cfg reflectorConfig) (run func(ctx context.Context), lastSyncRV func() string)
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

// describeAll describes each event of in, in describeEvent's notation,
// on the channel it returns, which closes when in does.
func describeAll[E any](in <-chan E, describe func(E) string) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		for ev := range in {
			out <- describe(ev)
		}
	}()
	return out
}

// impls holds every implementation; the adapter files register themselves.
var impls = map[string]impl{}

// register adds an implementation under its name.
func register(name string, im impl) {
	impls[name] = im
	scenarioImpls[name] = func(t testing.TB, f *scenario.File) scenario.Driver { return newDriver(t, im, f) }
}

// --- the trace -------------------------------------------------------------

// trace is what a scenario step prints: the HTTP requests the server
// received and the calls the Reflector made on its store, in the order
// they happened.
type trace struct {
	mu    sync.Mutex
	lines []string
}

func (t *trace) add(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, fmt.Sprintf(format, args...))
}

func (t *trace) take() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.lines
	t.lines = nil
	return out
}

// recordingStore is chapter 03's store with every call written to the
// trace. It is also a BookmarkStore, so bookmarks show up.
type recordingStore struct {
	indexer.Store
	tr *trace
}

func newRecordingStore(tr *trace) *recordingStore {
	return &recordingStore{Store: indexer.NewStore(indexer.MetaNamespaceKeyFunc), tr: tr}
}

func (s *recordingStore) Add(obj any) error {
	s.tr.add("store: add %s", describe(obj))
	return s.Store.Add(obj)
}

func (s *recordingStore) Update(obj any) error {
	s.tr.add("store: update %s", describe(obj))
	return s.Store.Update(obj)
}

func (s *recordingStore) Delete(obj any) error {
	s.tr.add("store: delete %s", describe(obj))
	return s.Store.Delete(obj)
}

// Replace prints the keys sorted: a streaming list replaces from a map.
func (s *recordingStore) Replace(list []any, rv string) error {
	keys := make([]string, len(list))
	for i, obj := range list {
		keys[i] = describe(obj)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		keys = []string{"(none)"}
	}
	s.tr.add("store: replace rv=%s %s", rv, strings.Join(keys, " "))
	return s.Store.Replace(list, rv)
}

func (s *recordingStore) Resync() error {
	s.tr.add("store: resync")
	return s.Store.Resync()
}

func (s *recordingStore) Bookmark(rv string) error {
	s.tr.add("store: bookmark rv=%s", rv)
	return nil
}

// contents is the store as "key@rv" lines, sorted.
func (s *recordingStore) contents() []string {
	var out []string
	for _, obj := range s.Store.List() {
		out = append(out, describe(obj))
	}
	sort.Strings(out)
	return out
}

// describe writes an object as "namespace/name@rv".
func describe(obj any) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	key := m.GetName()
	if m.GetNamespace() != "" {
		key = m.GetNamespace() + "/" + key
	}
	return key + "@" + m.GetResourceVersion()
}

// describeDecoded writes a decoded object for the decode-object command:
// its Go type and key, and for an unstructured object its apiVersion and
// kind and each field of its spec with the Go type the number became.
func describeDecoded(obj runtime.Object, err error) string {
	if err != nil {
		return "decode error"
	}
	line := fmt.Sprintf("%T %s", obj, describe(obj))
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return line
	}
	line += " " + u.GetAPIVersion() + "/" + u.GetKind()
	spec, _ := u.Object["spec"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(spec)) {
		line += fmt.Sprintf(" %s=%v(%T)", k, spec[k], spec[k])
	}
	return line
}

// --- object notation -------------------------------------------------------
//
// Scenarios write pods one per line, without a resource version (the
// server assigns it):
//
//	ns/a labels=app:web node=n1

func parsePod(line string) (*v1.Pod, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil, fmt.Errorf("empty object")
	}
	ns, name, ok := strings.Cut(fields[0], "/")
	if !ok {
		return nil, fmt.Errorf("pods are namespaced: want ns/name, got %q", fields[0])
	}
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	for _, f := range fields[1:] {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "labels":
			pod.Labels = map[string]string{}
			for _, kv := range strings.Split(v, ",") {
				lk, lv, _ := strings.Cut(kv, ":")
				pod.Labels[lk] = lv
			}
		case "node":
			pod.Spec.NodeName = v
		default:
			return nil, fmt.Errorf("unknown field %q in %q", k, line)
		}
	}
	return pod, nil
}

// describeEvent writes a decoded watch event, or the error that ended the
// stream, in a form both decoders can produce.
func describeEvent(typ string, obj any, err error) string {
	switch {
	case err == nil:
		return typ + " " + describe(obj)
	case errors.Is(err, io.EOF):
		return "EOF"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected EOF"
	}
	if st, ok := err.(apierrors.APIStatus); ok {
		return fmt.Sprintf("ERROR code=%d reason=%s expired=%t", st.Status().Code, st.Status().Reason, apierrors.IsResourceExpired(err))
	}
	return "decode error"
}
