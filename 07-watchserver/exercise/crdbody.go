// Your copy of ../crdbody.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"bytes"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// A CustomResourceDefinition is a built-in type to kube-apiserver, so a
// typed client sends one in protobuf (the apiextensions clientset does,
// as `make demo SERVER=ours` applies the Rollout's CRD). This server reads
// CRDs unstructured (crd.go), and protobuf cannot be read into a map: the
// body is decoded as the typed object, then turned into one.
//
// upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go
// (completedConfig.New), which installs the CRD registry with the
// apiextensions scheme's codecs, protobuf included.
var crdDeserializer = func() runtime.Decoder {
	s := runtime.NewScheme()
	utilruntime.Must(apiextensionsv1.AddToScheme(s))
	return serializer.NewCodecFactory(s).UniversalDeserializer()
}()

// protobufPrefix starts every protobuf body and stored value.
var protobufPrefix = []byte("k8s\x00")

// unstructuredFromProtobuf is a decoder that reads a protobuf body meant
// for an unstructured object (a CRD's) through its typed form, and
// anything else as next does.
//
// upstream: none (kube-apiserver's CRD registry is typed, so a protobuf
// body needs no second step there).
type unstructuredFromProtobuf struct{ next runtime.Decoder }

func (d unstructuredFromProtobuf) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	u, ok := into.(*unstructured.Unstructured)
	if !ok || !bytes.HasPrefix(data, protobufPrefix) {
		return d.next.Decode(data, defaults, into)
	}
	typed, gvk, err := crdDeserializer.Decode(data, defaults, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("a protobuf body is read only for a CustomResourceDefinition: %w", err)
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return nil, nil, err
	}
	u.Object = m
	u.SetGroupVersionKind(*gvk)
	return u, gvk, nil
}
