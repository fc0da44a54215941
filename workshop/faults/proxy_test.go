package faults

import (
	"bufio"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// echoServer answers each line with the same line, on a free loopback port.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); io.Copy(c, c) }()
		}
	}()
	return ln.Addr().String()
}

func dial(t *testing.T, p *Proxy) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return c, bufio.NewReader(c)
}

func roundTrip(t *testing.T, c net.Conn, r *bufio.Reader, line string) (string, error) {
	t.Helper()
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		return "", err
	}
	got, err := r.ReadString('\n')
	return strings.TrimSuffix(got, "\n"), err
}

func newProxy(t *testing.T) *Proxy {
	t.Helper()
	p, err := Listen(echoServer(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// waitLinks waits until the proxy has n open links (the accept loop runs on its own).
func waitLinks(t *testing.T, p *Proxy, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		p.mu.Lock()
		got := len(p.conns)
		p.mu.Unlock()
		if got == n {
			return
		}
	}
	t.Fatalf("the proxy never had %d open connections", n)
}

func TestProxyForwards(t *testing.T) {
	p := newProxy(t)
	c, r := dial(t, p)
	for _, line := range []string{"hello", "world"} {
		if got, err := roundTrip(t, c, r, line); err != nil || got != line {
			t.Fatalf("echo %q: got %q, %v", line, got, err)
		}
	}
}

func TestProxyResetAll(t *testing.T) {
	p := newProxy(t)
	c, r := dial(t, p)
	if _, err := roundTrip(t, c, r, "before"); err != nil {
		t.Fatal(err)
	}
	if n := p.ResetAll(); n != 1 {
		t.Fatalf("ResetAll reset %d connections, want 1", n)
	}
	_, err := roundTrip(t, c, r, "after")
	if err == nil {
		t.Fatal("a reset connection still echoed")
	}
	if !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, io.EOF) && !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("after a reset: %v, want connection reset", err)
	}
	// New connections still work.
	c2, r2 := dial(t, p)
	if got, err := roundTrip(t, c2, r2, "again"); err != nil || got != "again" {
		t.Fatalf("after reset, a new connection: %q, %v", got, err)
	}
	if got := p.Counts().Resets; got != 1 {
		t.Fatalf("Counts().Resets = %d, want 1", got)
	}
}

func TestProxyStallHoldsThenReleases(t *testing.T) {
	p := newProxy(t)
	c, r := dial(t, p)
	if _, err := roundTrip(t, c, r, "warm"); err != nil {
		t.Fatal(err)
	}
	p.Stall(300 * time.Millisecond)
	start := time.Now()
	got, err := roundTrip(t, c, r, "held")
	if err != nil || got != "held" {
		t.Fatalf("after a stall: %q, %v", got, err)
	}
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Fatalf("a stalled connection answered after %s, want the stall's 300ms", d)
	}
}

func TestProxyTruncateCutsMidChunk(t *testing.T) {
	p := newProxy(t)
	c, r := dial(t, p)
	waitLinks(t, p, 1)
	if n := p.Truncate(); n != 1 {
		t.Fatalf("Truncate hit %d connections, want 1", n)
	}
	io.WriteString(c, "0123456789\n")
	got, err := io.ReadAll(r)
	if string(got) != "01234" {
		t.Fatalf("truncated stream carried %q (%v), want the first half %q", got, err, "01234")
	}
}

func TestProxyCorruptFlipsBytes(t *testing.T) {
	p := newProxy(t)
	c, r := dial(t, p)
	waitLinks(t, p, 1)
	p.Corrupt()
	got, err := roundTrip(t, c, r, "abcdefghijklmnop")
	if err != nil {
		t.Fatal(err)
	}
	if got == "abcdefghijklmnop" || len(got) != 16 || got[:8] != "abcdefgh" {
		t.Fatalf("corrupted line %q: want the same length with its second half changed", got)
	}
	// Only the next chunk: the one after is intact.
	if got, err := roundTrip(t, c, r, "clean"); err != nil || got != "clean" {
		t.Fatalf("after the corrupted chunk: %q, %v", got, err)
	}
}

func TestProxyTargetDownResetsClient(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	p, err := Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		return // reset before the handshake finished: fine, the client saw the failure
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := roundTrip(t, c, bufio.NewReader(c), "anyone"); err == nil {
		t.Fatal("a proxy in front of nothing echoed")
	}
}
