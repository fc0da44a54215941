package indexer_test

import (
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// This file is the contract the scenarios, the fuzz test and the
// benchmarks drive: what an indexer implementation must offer. Each
// implementation (reference, exercise, client-go) has a small adapter
// file that fills in an impl.

// Indexer is the part of an indexer the tests call. The method set is the
// same in our package and in client-go's, except for the types of
// GetIndexers and AddIndexers, which the adapters wrap in IndexNames and
// AddIndexes.
type Indexer interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	List() []any
	ListKeys() []string
	Get(obj any) (any, bool, error)
	GetByKey(key string) (any, bool, error)
	Replace(list []any, rv string) error
	Resync() error
	Index(indexName string, obj any) ([]any, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	ListIndexFuncValues(indexName string) []string
	ByIndex(indexName, indexedValue string) ([]any, error)
	LastStoreSyncResourceVersion() string
	Bookmark(rv string)
}

// handle is one indexer under test, with the calls whose types differ
// between implementations wrapped as functions.
type handle struct {
	Indexer
	IndexNames func() []string             // sorted GetIndexers names
	AddIndexes func(names ...string) error // AddIndexers from the catalogue
	// Pods lists and gets the pods of every namespace (a pod lister),
	// PodsIn those of namespace ns (Lister.Namespace(ns)).
	Pods   podReader
	PodsIn func(ns string) podReader
}

// podReader is a pod lister, over every namespace or over one.
type podReader interface {
	List(selector labels.Selector) ([]*v1.Pod, error)
	Get(name string) (*v1.Pod, error)
}

// ListPods lists the pods of namespace ns ("" for every namespace) that
// the label selector sel matches.
func (h handle) ListPods(ns, sel string) ([]*v1.Pod, error) {
	s, err := selector(sel)
	if err != nil {
		return nil, err
	}
	return h.podsOf(ns).List(s)
}

// GetPod gets pod name of namespace ns, or by name alone when ns is "".
func (h handle) GetPod(ns, name string) (*v1.Pod, error) { return h.podsOf(ns).Get(name) }

func (h handle) podsOf(ns string) podReader {
	if ns == "" {
		return h.Pods
	}
	return h.PodsIn(ns)
}

// impl is one implementation of the chapter.
type impl struct {
	// NewIndexer makes an indexer with the named indexes from the
	// catalogue, keyed by MetaNamespaceKeyFunc, or by
	// DeletionHandlingMetaNamespaceKeyFunc when deletionHandling is set.
	NewIndexer func(deletionHandling bool, indexNames ...string) handle

	KeyFunc                 func(obj any) (string, error)
	DeletionHandlingKeyFunc func(obj any) (string, error)
	SplitKey                func(key string) (ns, name string, err error)
	NamespaceIndexFunc      func(obj any) ([]string, error)
	ExplicitKey             func(key string) any
	Tombstone               func(key string, obj any) any
}

// impls holds every implementation; the adapter files register themselves.
var impls = scenario.Registry[impl]{}

// The index functions scenarios may ask for, by name. MetaNamespaceIndexFunc
// ("namespace") comes from the implementation itself.
var catalogue = map[string]func(obj any) ([]string, error){
	// byLabel indexes a pod under "key=value" for each of its labels.
	"byLabel": func(obj any) ([]string, error) {
		pod := obj.(*v1.Pod)
		var values []string
		for k, v := range pod.Labels {
			values = append(values, k+"="+v)
		}
		sort.Strings(values)
		return values, nil
	},
	// byNode indexes a pod under its node, or nowhere while unscheduled.
	"byNode": func(obj any) ([]string, error) {
		if node := obj.(*v1.Pod).Spec.NodeName; node != "" {
			return []string{node}, nil
		}
		return nil, nil
	},
	// strict fails for a pod labelled bad=true: what an index function
	// that cannot index an object does to the store.
	"strict": func(obj any) ([]string, error) {
		if obj.(*v1.Pod).Labels["bad"] == "true" {
			return nil, fmt.Errorf("pod %s is labelled bad", obj.(*v1.Pod).Name)
		}
		return []string{"ok"}, nil
	},
}

// --- object notation -------------------------------------------------------
//
// Scenarios write objects in the notation of workshop/scenario/notation:
// pods (ns/a@5 labels=x:1,y:2 node=n1), and this chapter's forms
// explicit:KEY and tombstone:KEY, and "str", a plain string.

// forms is the notation with this chapter's tombstone and ExplicitKey.
func forms(im impl) notation.Forms {
	return notation.Forms{ExplicitKey: im.ExplicitKey, Tombstone: im.Tombstone}
}

func parseObject(im impl, line string) (any, error)     { return forms(im).Parse(line) }
func parseObjects(im impl, input string) ([]any, error) { return forms(im).ParseAll(input) }
func formatObject(obj any) string                       { return notation.Format(obj) }

// formatSet writes objects sorted: the store returns them in map order,
// which is not part of its contract.
func formatSet(objs []any) string {
	lines := make([]string, len(objs))
	for i, obj := range objs {
		lines[i] = formatObject(obj)
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		return "(none)"
	}
	return strings.Join(lines, "\n")
}

func formatPods(pods []*v1.Pod) string {
	objs := make([]any, len(pods))
	for i, p := range pods {
		objs[i] = p
	}
	return formatSet(objs)
}

// selector parses a label selector, "" meaning everything and "nothing"
// meaning labels.Nothing().
func selector(s string) (labels.Selector, error) {
	switch s {
	case "":
		return labels.Everything(), nil
	case "nothing":
		return labels.Nothing(), nil
	}
	return labels.Parse(s)
}

// register adds an implementation under its name.
func register(name string, im impl) { impls[name] = im }
