package watchserver

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
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
	// exercise:begin 9 Frame one event: JSON lines or length-prefixed protobuf
	// exercise:hint Encode a copy of the object (ev.Status for ERROR, else ev.Object) with
	//   jsonEncoder or protobufEncoder, wrap it in metav1.WatchEvent{Type, Object:
	//   runtime.RawExtension{Raw: ...}}, then frame it.
	// exercise:deeper The encoder writes kind and apiVersion onto the object it encodes, and the
	//   cache hands the same object to every watcher: encode a shallow copy
	//   (shallowCopy(ev.Object)), or two watchers' goroutines race on it. JSON: json.Marshal the
	//   WatchEvent and append '\n'. Protobuf: WatchEvent.Marshal(), then
	//   binary.BigEndian.PutUint32 its length in front.
	enc := jsonEncoder
	if protobuf {
		enc = protobufEncoder
	}
	// The encoder sets the object's kind and apiVersion while it works and
	// resets them after: on an object the cache shares between watchers,
	// that is a data race. A shallow copy is enough (only TypeMeta is
	// written). kube-apiserver instead encodes each event once for every
	// watcher (CacheableObject).
	var obj runtime.Object
	if ev.Status != nil {
		st := *ev.Status
		obj = &st
	} else {
		obj = shallowCopy(ev.Object)
	}
	embedded, err := runtime.Encode(enc, obj)
	if err != nil {
		return nil, fmt.Errorf("encoding a %s event: %w", ev.Type, err)
	}
	we := metav1.WatchEvent{Type: string(ev.Type), Object: runtime.RawExtension{Raw: embedded}}
	if !protobuf {
		b, err := json.Marshal(&we)
		if err != nil {
			return nil, err
		}
		return append(b, '\n'), nil
	}
	body, err := we.Marshal()
	if err != nil {
		return nil, err
	}
	frame := make([]byte, 4, 4+len(body))
	binary.BigEndian.PutUint32(frame, uint32(len(body)))
	return append(frame, body...), nil
	// exercise:end 9
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
