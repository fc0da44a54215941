// Your copy of ../objects.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 01`
// checks your work, and `go run ./workshop/cmd/workshop hint 01 N` gives
// exercise N's hint.

package listwatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"example.com/walkthrough/workshop/todo"
)

// Kind says how the objects of one resource are decoded: into a Go type
// from k8s.io/api (a *v1.Pod), or, for any resource at all, into an
// *unstructured.Unstructured, a map of the JSON.
//
// A typed Kind that meets an object of another kind (a Service on a pod
// watch) decodes it as Unstructured, so the Reflector's expected-type
// check sees the wrong type and skips it, as client-go's does.
//
// client-go: rest/client.go (ClientContentConfig), the rest client's
// negotiated decoder, and dynamic/simple.go (dynamicResourceClient.List),
// the dynamic client's unstructured decoding
type Kind struct {
	// Name is the kind, "Pod"; empty for Unstructured, which takes any.
	Name string
	// New makes an empty typed object; nil means Unstructured.
	New func() runtime.Object
}

// Typed is the Kind of a k8s.io/api type: Typed[v1.Pod]("Pod").
func Typed[T any, PT interface {
	*T
	runtime.Object
}](kind string) Kind {
	return Kind{Name: kind, New: func() runtime.Object { return PT(new(T)) }}
}

// Unstructured decodes every object as *unstructured.Unstructured.
func Unstructured() Kind { return Kind{} }

// Decode turns one object's JSON into an object.
func (k Kind) Decode(raw []byte) (runtime.Object, error) {
	if k.New == nil {
		return decodeUnstructured(raw, schema.GroupVersionKind{})
	}
	obj := k.New()
	if err := json.Unmarshal(raw, obj); err != nil {
		return nil, err
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Kind != "" && gvk.Kind != k.Name {
		return decodeUnstructured(raw, schema.GroupVersionKind{})
	}
	// A typed object does not keep its apiVersion and kind: the Go type
	// says them already (client-go's decoder clears them too).
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	return obj, nil
}

// decodeUnstructured decodes raw as Unstructured, taking its apiVersion
// and kind from fallback when it has none (items of a core list do not).
func decodeUnstructured(raw []byte, fallback schema.GroupVersionKind) (runtime.Object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("object is null")
	}
	u := &unstructured.Unstructured{Object: numbers(m).(map[string]any)}
	if u.GetKind() == "" && fallback.Kind != "" {
		u.SetGroupVersionKind(fallback)
	}
	if u.GetKind() == "" {
		return nil, fmt.Errorf("object has no kind")
	}
	return u, nil
}

// numbers turns JSON numbers into int64 when they are whole and float64
// otherwise, as Kubernetes' unstructured objects hold them.
func numbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = numbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = numbers(e)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	}
	return v
}

// itemKind is the kind of a list's items: the list's kind without "List".
func itemKind(listAPIVersion, listKind string) schema.GroupVersionKind {
	gv, _ := schema.ParseGroupVersion(listAPIVersion)
	return gv.WithKind(strings.TrimSuffix(listKind, "List"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = bytes.NewReader
	_ = json.Unmarshal
	_ = fmt.Errorf
	_ = strings.TrimSuffix
	_ unstructured.Unstructured
)
