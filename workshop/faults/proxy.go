// Package faults is the walkthrough's fault injection for the chaos tier (`make chaos`,
// docs/e2e.md): a loopback TCP proxy that sits between clients and kube-apiserver and breaks
// their connections on command.
//
// It is small on purpose (a maintained library such as toxiproxy would bring a server, an
// HTTP API and its own dependencies for four behaviours): every fault is one method, and
// proxy_test.go checks each against a plain TCP echo server.
package faults

import (
	"net"
	"sync"
	"time"
)

// Proxy forwards every connection made to Addr to the target, byte for byte, until told to
// break them. Faults apply to the connections open at the time of the call, and the ones
// for the next frame (Truncate, Corrupt) to the next chunk the server sends on each.
type Proxy struct {
	ln     net.Listener
	target string

	mu      sync.Mutex
	conns   map[*link]struct{}
	stalled chan struct{} // non-nil while stalled: closed when the stall ends
	wg      sync.WaitGroup
	closed  bool

	counts Counts
}

// Counts are the faults a proxy applied, one per connection hit.
type Counts struct{ Resets, Truncations, Corruptions int }

// fault rewrites one chunk from the server; die ends the stream after writing it.
type fault func(chunk []byte) (out []byte, die bool)

// link is one client connection and its connection to the target.
type link struct {
	client, server net.Conn
	mu             sync.Mutex
	next           fault // applied once to the next server→client chunk
}

// Listen starts a proxy on a free loopback port in front of target ("127.0.0.1:PORT").
func Listen(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, conns: map[*link]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Counts returns the faults applied so far.
func (p *Proxy) Counts() Counts {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts
}

// Addr is where clients connect instead of the target.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Close stops accepting, resets every connection and waits for the forwarding goroutines.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	if p.stalled != nil {
		close(p.stalled)
		p.stalled = nil
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.ResetAll()
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.DialTimeout("tcp", p.target, 5*time.Second)
		if err != nil { // the target is down (a restart): the client sees a reset, as it would
			reset(c)
			continue
		}
		l := &link{client: c, server: s}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			reset(c)
			reset(s)
			return
		}
		p.conns[l] = struct{}{}
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pipe(l, l.client, l.server, false)
		go p.pipe(l, l.server, l.client, true)
	}
}

// pipe copies from src to dst until either side fails, then resets both. fromServer marks
// the direction the one-shot frame faults apply to.
func (p *Proxy) pipe(l *link, src, dst net.Conn, fromServer bool) {
	defer p.wg.Done()
	defer p.drop(l)
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.waitStall()
			chunk := buf[:n]
			var f fault
			if fromServer {
				l.mu.Lock()
				f, l.next = l.next, nil
				l.mu.Unlock()
			}
			die := false
			if f != nil {
				chunk, die = f(chunk)
			}
			if _, werr := dst.Write(chunk); werr != nil || die {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *Proxy) drop(l *link) {
	p.mu.Lock()
	delete(p.conns, l)
	p.mu.Unlock()
	reset(l.client)
	reset(l.server)
}

func (p *Proxy) waitStall() {
	p.mu.Lock()
	ch := p.stalled
	p.mu.Unlock()
	if ch != nil {
		<-ch
	}
}

// ResetAll resets every open connection (TCP RST, no FIN): the client's reads fail with
// "connection reset by peer" mid-stream. It returns how many connections it reset.
func (p *Proxy) ResetAll() int {
	p.mu.Lock()
	links := make([]*link, 0, len(p.conns))
	for l := range p.conns {
		links = append(links, l)
	}
	p.counts.Resets += len(links)
	p.mu.Unlock()
	for _, l := range links {
		reset(l.client)
		reset(l.server)
	}
	return len(links)
}

// Stall stops forwarding in both directions for d: reads block as on a congested network,
// then everything held back flows on. It returns at once.
func (p *Proxy) Stall(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stalled != nil || p.closed {
		return
	}
	ch := make(chan struct{})
	p.stalled = ch
	time.AfterFunc(d, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.stalled == ch {
			close(ch)
			p.stalled = nil
		}
	})
}

// Truncate makes every open connection forward only the first half of the next chunk the
// server sends, then die: a stream dropped mid-frame.
func (p *Proxy) Truncate() int {
	return p.onNextChunk(func(b []byte) ([]byte, bool) { return b[:len(b)/2], true }, &p.counts.Truncations)
}

// Corrupt flips bits in the middle of the next chunk the server sends on every open
// connection. Through TLS the client's record layer rejects it ("bad record MAC"); through a
// plain connection the client's decoder gets a broken frame. Either way the stream is dead.
func (p *Proxy) Corrupt() int {
	return p.onNextChunk(func(b []byte) ([]byte, bool) {
		for i := len(b) / 2; i < len(b) && i < len(b)/2+8; i++ {
			b[i] ^= 0xA5
		}
		return b, false
	}, &p.counts.Corruptions)
}

func (p *Proxy) onNextChunk(f fault, count *int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	for l := range p.conns {
		l.mu.Lock()
		l.next = f
		l.mu.Unlock()
	}
	*count += len(p.conns)
	return len(p.conns)
}

// reset closes c with SO_LINGER 0, so the peer gets RST rather than an orderly FIN.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close() // a second close of a dropped link fails harmlessly
}
