// Your copy of ../websocket.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"io"

	"golang.org/x/net/websocket"

	"example.com/walkthrough/workshop/todo"
)

// ServeWebSocket streams the watch over a WebSocket, for clients that
// cannot read a chunked response (browsers, some proxies). Each event is
// one message carrying the same bytes as a frame, less the framing: a
// WebSocket message knows its own length, so protobuf loses its 4-byte
// length prefix, and JSON is a text message, protobuf a binary one. The
// client sends nothing; a read that ends tells the server the client has
// gone. The stream ends as an HTTP one does, by closing the connection.
//
// upstream: k8s.io/apiserver/pkg/endpoints/handlers/watch.go
// (serveWatchHandler, WatchServer.HandleWS, websocketFramer).
func (s *WatchServer) ServeWebSocket(ws *websocket.Conn) {
	defer s.Watcher.Stop()
	defer ws.Close()
	gone := make(chan struct{})
	go func() {
		io.Copy(io.Discard, ws) // until the client closes, or we do
		close(gone)
	}()
	s.stream(gone, func(frame []byte, _ bool) error { // a message is sent whole: nothing to flush
		if s.Protobuf {
			return websocket.Message.Send(ws, frame[4:])
		}
		return websocket.Message.Send(ws, string(frame))
	})
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = io.Copy
)
