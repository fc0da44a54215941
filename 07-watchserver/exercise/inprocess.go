// Your copy of ../inprocess.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// InProcess is the whole server running inside this process: an embedded
// etcd, the first resource's watch cache, and the handlers, served over
// HTTP on a loopback port the kernel picked. It is what `make demo
// SERVER=ours` runs the controller against, so that both ends of the wire
// are the workshop's own code; a client reaches it at URL with a
// rest.Config whose Host is URL and nothing else.
//
// upstream: none (kube-apiserver is a process of its own, with TLS,
// authentication and an external etcd; this is the same API on plain HTTP,
// for one program).
type InProcess struct {
	// URL is the server's address, http://127.0.0.1:PORT.
	URL string
	// Started is how long Start took, from etcd's start to the first
	// request it could answer.
	Started time.Duration

	etcd   *Embedded
	server *Server
	http   *http.Server
	cancel context.CancelFunc
	cache  chan struct{} // closed when the first cache's Run returns
	served chan error    // what Serve returned
}

// Start runs etcd with its data in dir, the watch cache of the first
// resource (waiting until it has listed) and the server, on 127.0.0.1.
// Close stops them all.
func Start(dir string) (*InProcess, error) { return StartObserved(dir, nil) }

// StartObserved is Start with an Observer (nil for none), which every
// watch cache and every watch's frames are told to: chapter 06's demo
// traces the server's side of each change with it.
func StartObserved(dir string, obs *Observer) (*InProcess, error) {
	begin := time.Now()
	e, err := StartEmbedded(dir)
	if err != nil {
		return nil, err
	}
	st := NewStorage(e.Client)
	c := NewCache(st, CacheOptions{Observer: obs})
	ctx, cancel := context.WithCancel(context.Background())
	p := &InProcess{etcd: e, cancel: cancel, cache: make(chan struct{}), served: make(chan error, 1)}
	go func() { defer close(p.cache); c.Run(ctx) }()
	for deadline := time.Now().Add(10 * time.Second); !c.Ready(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			p.stop()
			return nil, errors.New("the watch cache did not list etcd within 10s")
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		p.stop()
		return nil, fmt.Errorf("listening on loopback: %w", err)
	}
	p.server = NewServer(st, c)
	p.http = &http.Server{Handler: observeFrames(p.server, obs), ReadHeaderTimeout: 10 * time.Second}
	go func() { p.served <- p.http.Serve(ln) }()
	p.URL = "http://" + ln.Addr().String()
	p.Started = time.Since(begin)
	return p, nil
}

// Close stops serving (ending every watch), then the caches, then etcd.
func (p *InProcess) Close() error {
	// Watches are long requests: Close, not Shutdown, ends them now.
	err := p.http.Close()
	if serveErr := <-p.served; !errors.Is(serveErr, http.ErrServerClosed) && err == nil {
		err = serveErr
	}
	p.server.Close()
	return errors.Join(err, p.stop())
}

// stop ends the first cache and etcd.
func (p *InProcess) stop() error {
	p.cancel()
	<-p.cache
	return p.etcd.Close()
}
