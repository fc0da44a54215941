// Your copy of ../codec.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=07` checks your work, and
// `go run ./workshop/cmd/workshop hint 07 N` gives exercise N's hint.

package watchserver

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"

	"example.com/walkthrough/workshop/todo"
)

// Media types the server speaks.
const (
	mediaJSON     = "application/json"
	mediaProtobuf = "application/vnd.kubernetes.protobuf"
)

// codecs encode and decode ConfigMaps in the two formats. Objects are
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
	decoder         = scheme.Codecs.UniversalDeserializer()
)

func mustEncoder(mediaType string) runtime.Encoder {
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok {
		panic("no serializer for " + mediaType)
	}
	return scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion)
}

// encodeStored is the bytes etcd holds for cm. The resourceVersion is never
// stored: etcd's ModRevision is the version, so the field is cleared first.
func encodeStored(cm *corev1.ConfigMap) ([]byte, error) {
	// Exercise 1: encodeStored is the bytes etcd holds for cm.
	panic(todo.Exercise("07-watchserver", 1, "encodeStored"))
}

// decodeStored turns an etcd value back into a ConfigMap whose
// resourceVersion is the revision that wrote it.
func decodeStored(value []byte, modRevision int64) (*corev1.ConfigMap, error) {
	// Exercise 1: decodeStored turns an etcd value back into a ConfigMap whose resourceVersion is the revision that…
	panic(todo.Exercise("07-watchserver", 1, "decodeStored"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
	_ metav1.TypeMeta
)
