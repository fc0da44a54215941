// Your copy of ../watchserver.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"math/rand"
	"net/http"
	"time"

	"example.com/walkthrough/workshop/todo"
)

// WatchServer streams one watch to one HTTP client. The status and headers
// go out at once, before any event, so the client knows the watch is open;
// then one frame per event, flushed once no further event waits in the
// watcher's channel (a chunk on HTTP/1.1, DATA frames on HTTP/2): a burst,
// such as a WatchList's initial events, leaves in a few large writes, not
// one TLS record and one system call per event, and the last event of
// every burst still goes out at once. The stream ends, with no final frame,
// when the watcher's channel closes (a slow watcher, a relist, after an
// ERROR), when the timeout fires, or when the client goes away.
//
// upstream: k8s.io/apiserver/pkg/endpoints/handlers/watch.go
// (serveWatchHandler, WatchServer.HandleHTTP).
type WatchServer struct {
	Watcher  Watcher
	Protobuf bool
	Timeout  time.Duration
}

// ServeHTTP runs the stream until it ends.
func (s *WatchServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	defer s.Watcher.Stop()
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "unable to start watch - can't get http.Flusher", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", watchMediaType(s.Protobuf))
	w.Header().Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
	flusher.Flush()
	s.stream(req.Context().Done(), func(frame []byte, more bool) error {
		if _, err := w.Write(frame); err != nil {
			return err
		}
		if !more {
			flusher.Flush()
		}
		return nil
	})
}

// stream sends each of the watcher's events as a frame through send, until
// the watcher's channel closes, the timeout fires, send fails or gone is
// closed (the client left); more says another event already waits, so a
// transport that buffers can flush after the last of them. Both transports
// run it: a chunked HTTP response and a WebSocket. kube-apiserver flushes
// on the same rule, when len(ch) == 0.
//
// upstream: k8s.io/apiserver/pkg/endpoints/handlers/watch.go (WatchServer.HandleHTTP)
func (s *WatchServer) stream(gone <-chan struct{}, send func(frame []byte, more bool) error) {
	timer := time.NewTimer(s.Timeout)
	defer timer.Stop()
	for {
		select {
		case <-gone:
			return
		case <-timer.C:
			return
		case ev, ok := <-s.Watcher.ResultChan():
			if !ok {
				return
			}
			frame, err := EncodeFrame(ev, s.Protobuf)
			if err != nil {
				return
			}
			if err := send(frame, len(s.Watcher.ResultChan()) > 0); err != nil {
				return
			}
		}
	}
}

// watchTimeout is timeoutSeconds when the client gave one, else a random
// time between min and 2×min, so that watches opened together (after a
// restart) do not all end together.
func watchTimeout(timeoutSeconds int64, min time.Duration) time.Duration {
	if timeoutSeconds > 0 {
		return time.Duration(timeoutSeconds) * time.Second
	}
	return time.Duration(float64(min) * (1 + rand.Float64()))
}

// watchMediaType is a watch's Content-Type: plain JSON (newline-delimited
// events need no parameter), or protobuf with ;stream=watch (its frames
// are length-prefixed, unlike a single protobuf object).
func watchMediaType(protobuf bool) string {
	if protobuf {
		return mediaProtobuf + ";stream=watch"
	}
	return mediaJSON
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = rand.Float64
)
