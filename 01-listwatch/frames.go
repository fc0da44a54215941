package listwatch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
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
	// exercise:begin 2 Decode one watch frame
	// exercise:hint Read one {"type","object"} value with d.dec, then turn it into an Event; an
	//   ERROR frame becomes a *StatusError.
	// exercise:deeper d.dec.Decode(&f) into a frame; pass io.EOF and io.ErrUnexpectedEOF through,
	//   wrap any other error in &DecodeError{}; reject a missing object and unknown types with
	//   fmt.Errorf("got invalid watch event type: %v", f.Type); decode ERROR objects with
	//   decodeStatus and the rest with d.kind.Decode.
	var f frame
	if err := d.dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return Event{}, err
		}
		return Event{}, &DecodeError{Err: err}
	}
	switch f.Type {
	case Added, Modified, Deleted, Bookmark, Error:
	default:
		return Event{}, &DecodeError{Err: fmt.Errorf("got invalid watch event type: %v", f.Type)}
	}
	if len(f.Object) == 0 || string(f.Object) == "null" {
		return Event{}, &DecodeError{Err: fmt.Errorf("watch event %s has no object", f.Type)}
	}
	if f.Type == Error {
		st, err := decodeStatus(f.Object)
		if err != nil {
			return Event{}, &DecodeError{Err: err}
		}
		return Event{}, &StatusError{ErrStatus: st}
	}
	obj, err := d.kind.Decode(f.Object)
	if err != nil {
		return Event{}, &DecodeError{Err: fmt.Errorf("unable to decode watch event: %v", err)}
	}
	return Event{Type: f.Type, Object: obj}, nil
	// exercise:end 2
}

// decodeStatus reads a metav1.Status, as ERROR frames and error responses
// carry it.
func decodeStatus(raw []byte) (metav1.Status, error) {
	// exercise:begin 1 Decode an object: the typed kind, or unstructured
	// exercise:hint A Kind with a constructor decodes JSON into a fresh typed object, and falls
	//   back to unstructured when the JSON says it is another kind; a Kind without one always
	//   decodes unstructured. decodeUnstructured decodes into a map (numbers as json.Number), turns
	//   numbers into int64 where they fit and float64 otherwise, and refuses null and objects
	//   without a kind (unless a fallback kind from the list fills it in). itemKind is a list's
	//   kind without its List suffix; decodeStatus decodes a metav1.Status.
	// exercise:deeper A typed object keeps no apiVersion/kind after decoding (set an empty
	//   GroupVersionKind), as client-go's typed decoding does. Use a json.Decoder with UseNumber,
	//   or large integers lose precision as float64. numbers walks maps and slices recursively and
	//   rewrites in place. decodeStatus refuses a body whose kind is not Status.
	// exercise:track deep
	var st metav1.Status
	if err := json.Unmarshal(raw, &st); err != nil {
		return st, err
	}
	if st.Kind != "Status" {
		return st, fmt.Errorf("expected a Status object, got kind %q", st.Kind)
	}
	return st, nil
	// exercise:end 1
}
