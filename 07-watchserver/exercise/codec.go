// Your copy of ../codec.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"

	"example.com/walkthrough/workshop/todo"
)

// Media types the server speaks.
const (
	mediaJSON     = "application/json"
	mediaProtobuf = "application/vnd.kubernetes.protobuf"
)

// codecs encode and decode the served resources' objects in the two
// formats, each in its resource's group and version (a Status, which has
// no group, as "v1"). Objects are
// stored in etcd as protobuf, as kube-apiserver stores built-in types: the
// value starts with the 4 bytes "k8s\x00", then a runtime.Unknown holding
// apiVersion, kind and the object's own protobuf bytes.
//
// upstream: k8s.io/apiserver/pkg/server/storage/storage_codec.go
// (NewStorageCodec), with --storage-media-type forced to protobuf for
// built-in types.
var (
	jsonEncoder     = mustEncoder(mediaJSON)
	protobufEncoder = mustEncoder(mediaProtobuf)
	decoder         = unstructuredFromProtobuf{scheme.Codecs.UniversalDeserializer()} // crdbody.go
)

func mustEncoder(mediaType string) runtime.Encoder {
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok {
		panic("no serializer for " + mediaType)
	}
	gvs := schema.GroupVersions{}
	for _, r := range served {
		gvs = append(gvs, r.GroupVersion())
	}
	return unstructuredAsJSON{scheme.Codecs.EncoderForVersion(info.Serializer, gvs)}
}

// unstructuredAsJSON encodes a custom resource (or a
// CustomResourceDefinition, served unstructured too) as JSON whatever the
// media type asked for: it has no protobuf form, and kube-apiserver stores
// custom resources and CRDs as JSON. Responses never reach here in
// protobuf for them: the routes of custom resources negotiate JSON first
// (customresource.go). Anything else goes to the typed encoder.
//
// upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
// (unstructuredNegotiatedSerializer), which offers JSON and YAML only.
type unstructuredAsJSON struct{ typed runtime.Encoder }

func (e unstructuredAsJSON) Encode(obj runtime.Object, w io.Writer) error {
	if _, ok := obj.(runtime.Unstructured); ok {
		return unstructured.UnstructuredJSONScheme.Encode(obj, w)
	}
	return e.typed.Encode(obj, w)
}

func (e unstructuredAsJSON) Identifier() runtime.Identifier {
	return runtime.Identifier("unstructuredAsJSON(" + string(e.typed.Identifier()) + ")")
}

// encodeStored is the bytes etcd holds for obj. The resourceVersion is never
// stored: etcd's ModRevision is the version, so the field is cleared first.
func encodeStored(obj runtime.Object) ([]byte, error) {
	// Exercise 1: encodeStored is the bytes etcd holds for obj.
	panic(todo.Exercise("07-watchserver", 1, "encodeStored"))
}

// decodeStored turns an etcd value back into an object of res, whose
// resourceVersion is the revision that wrote it.
func decodeStored(res *Resource, value []byte, modRevision int64) (runtime.Object, error) {
	// Exercise 1: decodeStored turns an etcd value back into an object of res.
	panic(todo.Exercise("07-watchserver", 1, "decodeStored"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
)
