// Your copy of ../frame.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

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
// upstream: k8s.io/apiserver/pkg/endpoints/handlers/watch.go
// (WatchServer.HandleHTTP), with apimachinery's json and protobuf framers.
func EncodeFrame(ev Event, protobuf bool) ([]byte, error) {
	// Exercise 9: EncodeFrame is one event as it goes on the wire.
	panic(todo.Exercise("07-watchserver", 9, "EncodeFrame"))
}

// shallowCopy is a new object whose fields are obj's: its own TypeMeta,
// the rest (maps, slices) shared. obj is a pointer to a struct, as every
// API object is.
func shallowCopy(obj runtime.Object) runtime.Object {
	v := reflect.ValueOf(obj).Elem()
	c := reflect.New(v.Type())
	c.Elem().Set(v)
	return c.Interface().(runtime.Object)
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = binary.BigEndian
	_ = json.Marshal
	_ = fmt.Errorf
	_ metav1.WatchEvent
)
