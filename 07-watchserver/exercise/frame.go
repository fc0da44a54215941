// Your copy of ../frame.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=07` checks your work.

package watchserver

import (
	"example.com/walkthrough/workshop/todo"
)

// EncodeFrame is one event as it goes on the wire. Two encoders are at
// work: the embedded object (ConfigMap or Status) in the stream's media
// type, then the outer metav1.WatchEvent around it. (Exported so the
// frames scenario can hold it, byte for byte, against apimachinery's own
// encoders and framers.)
//
//   - JSON: one WatchEvent object and "\n": newline-delimited JSON;
//   - protobuf: a 4-byte big-endian length, then the raw protobuf
//     WatchEvent (no "k8s\x00" prefix on the outer event; the embedded
//     object has its own).
//
// kube-apiserver: k8s.io/apiserver/pkg/endpoints/handlers/watch.go
// (WatchServer.HandleHTTP), apimachinery's json and protobuf framers.
func EncodeFrame(ev Event, protobuf bool) ([]byte, error) {
	// Exercise 9: Frame one event: JSON lines or length-prefixed protobuf.
	// Hint: Encode the object (ev.Status for ERROR, else ev.Object) with jsonEncoder or protobufEncoder, wrap it in metav1.WatchEvent{Type, Object: runtime.RawExtension{Raw: ...}}, then frame it.
	panic(todo.Exercise("07-watchserver", 9, "Encode the object (ev.Status for ERROR, else ev.Object) with jsonEncoder or protobufEncoder, wrap it in metav1.WatchEvent{Type, Object: runtime.RawExtension{Raw: ...}}, then frame it."))
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
