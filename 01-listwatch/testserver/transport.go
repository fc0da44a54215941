package testserver

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"syscall"
)

// pipeTransport serves each request by running the handler in a goroutine
// that writes the response body into an io.Pipe. Nothing touches the
// network, so inside a testing/synctest bubble a client waiting on a watch
// is durably blocked and time can advance.
type pipeTransport struct{ h http.Handler }

func (t *pipeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	// A request cancelled before it starts fails, as with net/http; checking
	// only in the select below would let it succeed whenever the handler
	// is quick, since select picks at random among ready cases.
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(req.Context())
	pr, pw := io.Pipe()
	rw := &pipeWriter{header: http.Header{}, ready: make(chan struct{}), pw: pw}
	go func() {
		defer func() {
			rw.WriteHeader(http.StatusOK) // a handler that wrote nothing
			_ = pw.Close()
		}()
		t.h.ServeHTTP(rw, req.WithContext(ctx))
	}()
	select {
	case <-rw.ready:
	case <-req.Context().Done():
		cancel()
		_ = pr.Close()
		return nil, req.Context().Err()
	}
	if rw.resetErr != nil {
		cancel()
		_ = pr.Close()
		return nil, rw.resetErr
	}
	return &http.Response{
		Status:        http.StatusText(rw.code),
		StatusCode:    rw.code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        rw.header.Clone(),
		Body:          &pipeBody{PipeReader: pr, cancel: cancel},
		ContentLength: -1,
		Request:       req,
	}, nil
}

// pipeBody ends the handler's request context when the client closes the
// body, as a closed connection does.
type pipeBody struct {
	*io.PipeReader
	cancel context.CancelFunc
}

func (b *pipeBody) Close() error {
	b.cancel()
	return b.PipeReader.Close()
}

// pipeWriter is the handler's side: headers are committed on the first
// WriteHeader or Write, which releases RoundTrip.
type pipeWriter struct {
	header http.Header
	once   sync.Once
	code   int
	ready  chan struct{}
	pw     *io.PipeWriter
	// resetErr, set by reset before ready closes, is the round trip's
	// error: no response at all.
	resetErr error
}

// reset fails the round trip the way a connection reset by the peer
// does, before any response.
func (w *pipeWriter) reset() {
	w.once.Do(func() {
		w.resetErr = &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
		close(w.ready)
	})
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(code int) {
	w.once.Do(func() {
		w.code = code
		close(w.ready)
	})
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pw.Write(b)
}

func (w *pipeWriter) Flush() {}

// abort breaks the stream: the client's next read fails with
// io.ErrUnexpectedEOF, as when a connection drops mid-response.
func (w *pipeWriter) abort() { _ = w.pw.CloseWithError(io.ErrUnexpectedEOF) }
