// Your copy of ../frames.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 01`
// checks your work, and `go run ./workshop/cmd/workshop hint 01 N` gives
// exercise N's hint.

package listwatch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"example.com/walkthrough/workshop/todo"
)

// EventType is the "type" of a watch frame.
//
// upstream: k8s.io/apimachinery/pkg/watch/watch.go (EventType)
type EventType string

// The event types the API server sends. Anything else is a broken stream.
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
	Bookmark EventType = "BOOKMARK"
	Error    EventType = "ERROR"
)

// Event is one change seen on a watch. For Added, Modified, Deleted and
// Bookmark, Object is the object (a bookmark's object carries only its
// kind and resource version). For Error, Err says why the stream ended: a
// *StatusError when the server sent an ERROR frame, a *DecodeError when a
// frame could not be read.
//
// upstream: k8s.io/apimachinery/pkg/watch/watch.go (Event)
type Event struct {
	Type   EventType
	Object runtime.Object
	Err    error
}

// StatusError is an error the API server reported, carrying its
// metav1.Status. It implements apierrors.APIStatus, so the apimachinery
// helpers (apierrors.IsResourceExpired, IsGone, IsTooManyRequests)
// recognise it: a watch from a compacted resource version ends with one
// whose Code is 410 and whose Reason is Expired.
//
// upstream: k8s.io/apimachinery/pkg/api/errors/errors.go (StatusError)
type StatusError struct {
	ErrStatus metav1.Status
}

func (e *StatusError) Error() string { return e.ErrStatus.Message }

// Status lets apierrors read the status.
func (e *StatusError) Status() metav1.Status { return e.ErrStatus }

// DecodeError is a frame that could not be read: not JSON, no object, an
// unknown event type. The stream cannot go on after it.
//
// upstream: k8s.io/apimachinery/pkg/watch/streamwatcher.go
// (StreamWatcher.receive), which reports the same text as an internal error
type DecodeError struct {
	Err error
}

func (e *DecodeError) Error() string {
	return "unable to decode an event from the watch stream: " + e.Err.Error()
}

func (e *DecodeError) Unwrap() error { return e.Err }

// frame is a watch event on the wire.
//
// upstream: k8s.io/apimachinery/pkg/apis/meta/v1/watch.go (WatchEvent)
type frame struct {
	Type   EventType       `json:"type"`
	Object json.RawMessage `json:"object"`
}

// FrameDecoder reads a watch response body one frame at a time. The API
// server writes each event as one JSON object, {"type":…,"object":…}, and
// flushes it, so the body is a stream of JSON values: a json.Decoder reads
// exactly one per call and never needs the rest of the stream.
//
// client-go: rest/watch/decoder.go (Decoder) over
// apimachinery/pkg/runtime/serializer/streaming (decoder) and the JSON framer
type FrameDecoder struct {
	dec  *json.Decoder
	kind Kind
}

// NewFrameDecoder decodes the frames in r, their objects as kind.
func NewFrameDecoder(r io.Reader, kind Kind) *FrameDecoder {
	return &FrameDecoder{dec: json.NewDecoder(r), kind: kind}
}

// Next returns the next event. At the clean end of the stream it returns
// io.EOF; a stream cut inside a frame gives io.ErrUnexpectedEOF. An ERROR
// frame gives a *StatusError; a frame that cannot be read gives a
// *DecodeError, and the stream cannot be read further.
func (d *FrameDecoder) Next() (Event, error) {
	// Exercise 2: Next returns the next event.
	panic(todo.Exercise("01-listwatch", 2, "FrameDecoder.Next"))
}

// decodeStatus reads a metav1.Status, as ERROR frames and error responses
// carry it.
func decodeStatus(raw []byte) (metav1.Status, error) {
	var st metav1.Status
	if err := json.Unmarshal(raw, &st); err != nil {
		return st, err
	}
	if st.Kind != "Status" {
		return st, fmt.Errorf("expected a Status object, got kind %q", st.Kind)
	}
	return st, nil
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = errors.Is
	_ = fmt.Errorf
)
