// Your copy of ../embedded.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"fmt"
	"net/url"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/etcd/server/v3/storage/wal"
	"go.uber.org/zap"
)

// Embedded is an etcd member running inside this process, on loopback
// ports the kernel picked, with its data in a directory the caller owns.
// It is what `go test ./07-watchserver` stores objects in: a real etcd
// (the release tools/controlplane pins), not a fake, with nothing to
// install or start beforehand.
//
// upstream: none (kube-apiserver dials an external etcd; upstream's own tests
// use k8s.io/apiserver/pkg/storage/etcd3/testserver, which picks ports the
// same way).
type Embedded struct {
	etcd *embed.Etcd
	// Client is a clientv3 connection to the member; Close closes it.
	Client *clientv3.Client
	// Endpoint is the client URL, http://127.0.0.1:PORT.
	Endpoint string
	// Started is how long the member took from StartEtcd to ready.
	Started time.Duration
}

// smallSegments sets etcd's log segment size once per process.
var smallSegments sync.Once

// testSegmentSize is the size of an embedded etcd's log segments.
const testSegmentSize = 4 << 20

// StartEmbedded starts a one-member etcd cluster with its data in dir and
// waits until it serves. Port 0 on every URL lets the kernel choose, so
// parallel test binaries never collide.
func StartEmbedded(dir string) (*Embedded, error) {
	smallSegments.Do(func() {
		// etcd preallocates 64 MB for each log segment, and one more
		// segment ahead: 125 MB on disk per member, left behind by every
		// test binary that crashes before its cleanup. A few MB per segment
		// is plenty for what a test writes (etcd exports the knob for
		// tests; it is read when a segment is made, so set it once, before
		// any member starts). Written only when it differs: a test binary
		// that also links the exercise copy runs a second Once, and a
		// write of the same value would race with this copy's members
		// reading it (the tests' TestMain sets it before either).
		if wal.SegmentSizeBytes != testSegmentSize {
			wal.SegmentSizeBytes = testSegmentSize
		}
	})
	cfg := embed.NewConfig()
	cfg.Name = "watchserver"
	cfg.Dir = dir
	loopback := url.URL{Scheme: "http", Host: "127.0.0.1:0"}
	cfg.ListenClientUrls = []url.URL{loopback}
	cfg.AdvertiseClientUrls = []url.URL{loopback}
	cfg.ListenPeerUrls = []url.URL{loopback}
	cfg.AdvertisePeerUrls = []url.URL{loopback}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	// Tests throw the data away: fsync buys nothing here.
	cfg.UnsafeNoFsync = true
	// A member alone elects itself once its election timeout has run out:
	// etcd's default of 1 s was most of a test's start. A tenth of it, on
	// ticks of 10 ms, starts it in a tenth of the time; with no peer, no
	// heartbeat is ever late.
	cfg.TickMs, cfg.ElectionMs = 10, 100
	// Even at "error" etcd logs harmless noise while closing; a no-op
	// logger keeps test output to what the tests say.
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	cfg.LogLevel = "error"

	begin := time.Now()
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, fmt.Errorf("starting embedded etcd in %s: %w", dir, err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(30 * time.Second):
		e.Close()
		return nil, fmt.Errorf("embedded etcd in %s was not ready after 30s", dir)
	}
	started := time.Since(begin)
	endpoint := "http://" + e.Clients[0].Addr().String()
	client, err := clientv3.New(clientv3.Config{
		Endpoints:   []string{endpoint},
		DialTimeout: 5 * time.Second,
		Logger:      zap.NewNop(),
	})
	if err != nil {
		e.Close()
		return nil, fmt.Errorf("dialing embedded etcd at %s: %w", endpoint, err)
	}
	return &Embedded{etcd: e, Client: client, Endpoint: endpoint, Started: started}, nil
}

// Close closes the client first (its streams would otherwise keep the
// server's gRPC handlers busy), then stops the member and waits for it.
func (e *Embedded) Close() error {
	err := e.Client.Close()
	e.etcd.Close()
	<-e.etcd.Server.StopNotify()
	return err
}
