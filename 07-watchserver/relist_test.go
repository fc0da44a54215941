package watchserver_test

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	ws "example.com/walkthrough/07-watchserver"
)

// TestCacheRelistsWhenItsEtcdWatchFails: the cache's Reflector (chapter
// 01's) watches etcd through a connection the test can cut. While it is
// cut, objects are written and etcd compacts past the cache's revision, so
// the watch the client resumes gets ErrCompacted: a 410. The Reflector
// returns, and the cache does what kube-apiserver's cacher does: it closes
// every watcher (their clients see the end and watch again), lists again,
// and ends equal to etcd.
func TestCacheRelistsWhenItsEtcdWatchFails(t *testing.T) {
	t.Parallel() // its own etcd: it waits beside the others
	e := startEtcd(t)
	p := startTCPProxy(t, strings.TrimPrefix(e.Endpoint, "http://"))
	client, err := clientv3.New(clientv3.Config{Endpoints: []string{"http://" + p.addr()}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	c := ws.NewCache(ws.NewStorage(client), ws.CacheOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	waitReady(t, c)

	direct := ws.NewStorage(e.Client) // writes that do not pass the proxy
	if _, err := direct.Create(ctx, cm("ns", "a", "1")); err != nil {
		t.Fatal(err)
	}
	w, err := c.Watch(ctx, ws.WatchOptions{ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	p.cut(true)
	for _, name := range []string{"b", "c"} {
		if _, err := direct.Create(ctx, cm("ns", name, "1")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := direct.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	p.cut(false)

	// The watcher is closed once the cache relists, whatever it got first.
	deadline := time.After(eventWait)
	for closed := false; !closed; {
		select {
		case _, ok := <-w.ResultChan():
			closed = !ok
		case <-deadline:
			t.Fatalf("the cache's etcd watch failed with a 410, yet its watcher was not closed in %v (a relist must close every watcher)", eventWait)
		}
	}
	want, err := cmListOf(direct.List(ctx, "", ws.PageOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); ; {
		got, err := cmListOf(c.List(""))
		if err == nil && len(got.Items) == len(want.Items) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("after the relist the cache holds %v (%v); etcd holds %d objects", got, err, len(want.Items))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := c.EtcdWatches(); n < 2 {
		t.Errorf("the cache opened %d etcd watches; after a failure it must watch again", n)
	}
}

// tcpProxy forwards connections to target until cut: then it closes the
// ones it holds and refuses new ones until it is restored.
type tcpProxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	cutOn bool
	conns []net.Conn
}

func startTCPProxy(t testing.TB, target string) *tcpProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.cut(true) })
	go p.serve()
	return p
}

func (p *tcpProxy) addr() string { return p.ln.Addr().String() }

func (p *tcpProxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		p.mu.Lock()
		if err != nil || p.cutOn {
			p.mu.Unlock()
			in.Close()
			if out != nil {
				out.Close()
			}
			continue
		}
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(out, in); out.Close() }()
		go func() { _, _ = io.Copy(in, out); in.Close() }()
	}
}

// cut closes every connection and refuses new ones (on), or lets them
// through again (off).
func (p *tcpProxy) cut(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutOn = on
	if on {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}
