// Package notation is the one way the scenario files of every chapter
// write an object, and the one way their drivers write what happened (a
// trace). Before it, five drivers each parsed objects their own way and
// disagreed on what a token meant; now a token means the same everywhere,
// and where a chapter needs something else it says so in its own code.
//
// # Objects
//
// An object is one line: a key, then fields, separated by spaces.
//
//	ns/name@rv labels=k:v,k2:v2 node=n
//
//	ns/name     the namespace and the name; a key without a slash ("c") is a
//	            cluster-scoped object, with no namespace
//	@rv         the resource version, left out when the object has none.
//	            Where a server assigns versions (chapters 01 and 07) an input
//	            line has none: the server's answer shows it
//	labels=...  the labels, key:value pairs separated by commas
//	node=n      the pod's node (Spec.NodeName). Chapter 04's objects may be
//	            ConfigMaps, which have no node: there node=n is the label
//	            node:n, and is written back as one
//
// A few forms stand for what is not an object with metadata; a chapter
// accepts those its implementations have (Forms), and refuses the others:
//
//	tombstone:KEY             a DeletedFinalStateUnknown for KEY, without its last state
//	tombstone:KEY=OBJECT      ... with its last state, the object after "="
//	explicit:KEY              an ExplicitKey
//	deltas:[]                 an empty Deltas
//	"str"                     a plain string, which has no metadata
//
// Written back (Format), an object is its key, "@rv" when it has one, then
// its labels sorted by key and its node, each only when set: the line it was
// parsed from, in a canonical order. Short writes the key and version
// alone, as chapter 01's traces do.
//
// # Traces
//
// A step's output is its trace: lines in the order things happened (a
// Trace collects them from any goroutine), or sorted where the order comes
// from a map and is not part of the contract (the step's comment then says
// "(set)"). Three words stand for nothing: "(nothing)" when a step that
// reports what happened saw nothing happen, "(none)" for an empty list
// (OrNone), and "ok" for an operation that returned no error; an error is
// "error: " and its text (Result).
package notation

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Object is one object line, parsed: what every chapter's objects have in
// common, before a chapter makes it a pod, a ConfigMap or a test server's
// resource.
type Object struct {
	Namespace, Name string
	RV              string
	Labels          map[string]string // nil when the line has no labels=
	Node            string
}

// Parse reads one object line.
func Parse(line string) (Object, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return Object{}, fmt.Errorf("empty object")
	}
	var o Object
	key, rv, _ := strings.Cut(fields[0], "@")
	o.RV = rv
	if ns, name, ok := strings.Cut(key, "/"); ok {
		o.Namespace, o.Name = ns, name
	} else {
		o.Name = key
	}
	for _, f := range fields[1:] {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "labels":
			o.Labels = map[string]string{}
			for _, kv := range strings.Split(v, ",") {
				lk, lv, _ := strings.Cut(kv, ":")
				o.Labels[lk] = lv
			}
		case "node":
			o.Node = v
		default:
			return Object{}, fmt.Errorf("unknown field %q in %q", k, line)
		}
	}
	return o, nil
}

// Key is the object's namespace/name, or its name alone when it has no
// namespace: the key client-go's MetaNamespaceKeyFunc gives it.
func (o Object) Key() string {
	if o.Namespace == "" {
		return o.Name
	}
	return o.Namespace + "/" + o.Name
}

// Meta is the object's metadata: everything but the node.
func (o Object) Meta() metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: o.Namespace, Name: o.Name, ResourceVersion: o.RV, Labels: o.Labels}
}

// Pod is the object as a pod, its node in Spec.NodeName.
func (o Object) Pod() *v1.Pod {
	pod := &v1.Pod{ObjectMeta: o.Meta()}
	pod.Spec.NodeName = o.Node
	return pod
}

// Key writes an object's namespace/name, or its name alone when it has no
// namespace.
func Key(m metav1.Object) string {
	if m.GetNamespace() == "" {
		return m.GetName()
	}
	return m.GetNamespace() + "/" + m.GetName()
}

// Short writes an object with metadata as its key and "@rv": chapter 01's
// traces, which follow versions, not labels. Anything else is its Go type.
func Short(obj any) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	s := Key(m)
	if rv := m.GetResourceVersion(); rv != "" {
		s += "@" + rv
	}
	return s
}

// Format writes an object back in the notation: Short, then its labels and
// (a pod's) node, each when set. Anything without metadata is its Go type
// and value.
func Format(obj any) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T %v", obj, obj)
	}
	var b strings.Builder
	b.WriteString(Short(obj))
	if l := m.GetLabels(); len(l) > 0 {
		var kvs []string
		for _, k := range slices.Sorted(maps.Keys(l)) {
			kvs = append(kvs, k+":"+l[k])
		}
		b.WriteString(" labels=" + strings.Join(kvs, ","))
	}
	if pod, ok := obj.(*v1.Pod); ok && pod.Spec.NodeName != "" {
		b.WriteString(" node=" + pod.Spec.NodeName)
	}
	return b.String()
}

// Lines is a step's input, one trimmed line each, blank lines left out.
func Lines(input string) []string {
	var out []string
	for _, l := range strings.Split(input, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
