package deltafifo_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// This file is the contract the scenarios, the fuzz tests and the
// benchmarks drive: what a DeltaFIFO and a RealFIFO must offer. Each
// implementation (reference, exercise, client-go) has a small adapter file
// that fills in an impl. The two packages' types differ (Delta,
// DeletedFinalStateUnknown, ReplacedAllInfo...), so the adapters translate
// every delta into the neutral types below.

// delta is one popped delta in neutral form. Object is a *v1.Pod, a
// tombstone, a replacedAll, a syncAll, a bookmarkInfo, or whatever odd
// value a scenario queued.
type delta struct {
	Type   string
	Object any
}

type (
	tombstone struct {
		Key string
		Obj any
	} // DeletedFinalStateUnknown
	replacedAll struct {
		RV      string
		Objects []any
	}
	syncAll      struct{}
	bookmarkInfo struct{ RV string }
)

// knownStore is the consumer's cache: the Indexer of chapter 03 on our
// side, client-go's Indexer on the other. It plays KnownObjects.
type knownStore interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Replace(list []any, rv string) error
	GetByKey(key string) (any, bool, error)
	ListKeys() []string
}

// queue is one FIFO under test. Methods a FIFO does not have are nil:
// PopBatch and Bookmark for the DeltaFIFO, KeyOf for the RealFIFO.
type queue struct {
	Kind      string // "DeltaFIFO" or "RealFIFO"
	Add       func(obj any) error
	Update    func(obj any) error
	Delete    func(obj any) error
	Replace   func(list []any, rv string) error
	Resync    func() error
	Pop       func(process func(ds []delta, initial bool) error) ([]delta, error)
	PopRaw    func() error // Pop with a process that does nothing, without translating: for benchmarks
	PopBatch  func(batch, single func(ds []delta, initial bool) error) error
	Bookmark  func(rv string) error
	KeyOf     func(obj any) (string, error)
	HasSynced func() bool
	Done      func() <-chan struct{}
	Close     func()
	IsClosed  func() bool
}

// realOptions are RealFIFOOptions, minus the types.
type realOptions struct {
	Atomic, Unlock, Bookmarks bool
}

// impl is one implementation of the chapter.
type impl struct {
	// NewKnown makes an empty consumer cache, keyed like an informer's
	// (DeletionHandlingMetaNamespaceKeyFunc).
	NewKnown func() knownStore
	// NewDeltaFIFO makes a DeltaFIFO; known may be nil.
	NewDeltaFIFO func(known knownStore, emitReplaced bool) queue
	// NewRealFIFO makes a RealFIFO; known may be nil. It panics like the
	// real constructor on contradictory options.
	NewRealFIFO func(known knownStore, opts realOptions) queue
	// Tombstone makes the implementation's DeletedFinalStateUnknown.
	Tombstone func(key string, obj any) any
	// EmptyDeltas is the implementation's Deltas{}.
	EmptyDeltas func() any
}

// impls holds every implementation; the adapter files register themselves.
var impls = scenario.Registry[impl]{}

// register adds an implementation under its name.
func register(name string, im impl) { impls[name] = im }

// --- object notation -------------------------------------------------------
//
// Scenarios write objects in the notation of workshop/scenario/notation:
// pods (ns/a@5, or c@3 without a namespace), and this chapter's forms
// tombstone:KEY[=OBJECT], deltas:[] (an empty Deltas) and "str", a plain
// string, which has no metadata.

// forms is the notation with this chapter's tombstone and empty Deltas.
func forms(im impl) notation.Forms {
	return notation.Forms{Tombstone: im.Tombstone, EmptyDeltas: im.EmptyDeltas}
}

func parseObject(im impl, line string) (any, error)     { return forms(im).Parse(line) }
func parseObjects(im impl, input string) ([]any, error) { return forms(im).ParseAll(input) }

// formatObject writes an object back in the notation.
func formatObject(obj any) string {
	switch o := obj.(type) {
	case nil:
		return "nil"
	case *v1.Pod:
		return notation.Format(o)
	case tombstone:
		return "tombstone:" + o.Key + "=" + formatObject(o.Obj)
	case replacedAll:
		items := make([]string, len(o.Objects))
		for i, obj := range o.Objects {
			items[i] = formatObject(obj)
		}
		return fmt.Sprintf("rv=%q [%s]", o.RV, strings.Join(items, " "))
	case syncAll:
		return "{}"
	case bookmarkInfo:
		return fmt.Sprintf("rv=%q", o.RV)
	case string:
		return fmt.Sprintf("%q", o)
	}
	// A tombstone inside a tombstone (one Replace should have unwrapped)
	// is still an implementation's own type here: in the notation too,
	// not as a dump of the pod (the 02 trial's Got: ran to 1,500
	// characters).
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Struct {
		key, inner := v.FieldByName("Key"), v.FieldByName("Obj")
		if key.IsValid() && key.Kind() == reflect.String && inner.IsValid() && inner.CanInterface() {
			return "tombstone:" + key.String() + "=" + formatObject(inner.Interface())
		}
	}
	return fmt.Sprintf("%T %v", obj, obj)
}

// keyOf is the key a delta is about, or "" for the atomic deltas, which
// are about everything.
func keyOf(d delta) string {
	switch o := d.Object.(type) {
	case *v1.Pod:
		if o.Namespace == "" {
			return o.Name
		}
		return o.Namespace + "/" + o.Name
	case tombstone:
		return o.Key
	}
	return ""
}

// formatDeltas writes a popped Deltas: its key, then each delta, oldest
// first.
func formatDeltas(ds []delta) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Type + " " + formatObject(d.Object)
		if _, ok := d.Object.(syncAll); ok {
			parts[i] = d.Type
		}
	}
	s := strings.Join(parts, ", ")
	if len(ds) > 0 {
		if k := keyOf(ds[len(ds)-1]); k != "" {
			s = k + ": " + s
		}
	}
	return s
}

// apply is what an informer does with a popped delta: keep its cache in
// step. Deleted removes (a tombstone works: the cache's key function
// reads its key); the atomic ReplacedAll replaces the whole cache; SyncAll and
// Bookmark change nothing.
func apply(im impl, cache knownStore, d delta) error {
	switch d.Type {
	case "Deleted":
		if t, ok := d.Object.(tombstone); ok {
			return cache.Delete(im.Tombstone(t.Key, t.Obj))
		}
		return cache.Delete(d.Object)
	case "ReplacedAll":
		ra := d.Object.(replacedAll)
		return cache.Replace(slices.Clone(ra.Objects), ra.RV)
	case "SyncAll", "Bookmark":
		return nil
	}
	if _, exists, err := cache.GetByKey(keyOf(d)); err == nil && exists {
		return cache.Update(d.Object)
	}
	return cache.Add(d.Object)
}

func result(err error) string { return notation.Result(err) }
