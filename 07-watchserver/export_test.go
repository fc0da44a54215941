package watchserver

import (
	"context"

	"go.etcd.io/etcd/api/v3/etcdserverpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// FedByHand returns a cache with its dispatcher running and no Reflector:
// the test plays the Reflector, calling Replace and Add itself, so that it
// controls exactly which events arrive while watches start. etcdRevision,
// if not nil, plays etcd when the cache asks for its current revision (a
// watch from resourceVersion ""); the cache reads nothing else from etcd.
// stop closes every watcher and ends the dispatcher.
func FedByHand(opts CacheOptions, etcdRevision func() int64) (c *Cache, stop func()) {
	return fedByHand(opts, etcdRevision, nil)
}

// FedByHandWatchingTheLock is FedByHand with released called each time
// any goroutine lets go of the cache's lock (cacheLock).
func FedByHandWatchingTheLock(opts CacheOptions, released func()) (c *Cache, stop func()) {
	return fedByHand(opts, nil, released)
}

func fedByHand(opts CacheOptions, etcdRevision func() int64, released func()) (c *Cache, stop func()) {
	storage := &Storage{res: ConfigMaps}
	if etcdRevision != nil {
		storage.client = &clientv3.Client{KV: revisionKV{revision: etcdRevision}, Watcher: progressRequests{}}
	}
	c = NewCache(storage, opts)
	c.mu.released = released // before any goroutine takes the lock
	dispatcher := make(chan struct{})
	go func() { defer close(dispatcher); c.dispatchLoop() }()
	return c, func() {
		c.terminateAll()
		close(c.incoming)
		<-dispatcher
	}
}

// revisionKV answers Get with the revision alone, as etcd answers the
// count-only Get of CurrentRevision; the cache calls nothing else here.
type revisionKV struct {
	clientv3.KV // nil: any other call is a test bug and panics
	revision    func() int64
}

// progressRequests takes the cache's requests for a progress notification
// (its waits for freshness make one each round) and does nothing: the
// test plays etcd, and its watch, by hand.
type progressRequests struct {
	clientv3.Watcher // nil: any other call is a test bug and panics
}

func (progressRequests) RequestProgress(context.Context) error { return nil }

func (kv revisionKV) Get(context.Context, string, ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	return &clientv3.GetResponse{Header: &etcdserverpb.ResponseHeader{Revision: kv.revision()}}, nil
}

// LockHeld reports whether some goroutine holds the cache's lock, without
// waiting for it: a test that finds every goroutine of its bubble blocked
// can ask it where waiting for the lock would hang the test.
func (c *Cache) LockHeld() bool {
	if c.mu.TryLock() {
		c.mu.Mutex.Unlock() // not Unlock: no released hook for a look
		return false
	}
	return true
}

// CustomResourceFor is the Resource a CRD describes (customresource.go),
// for a test that stores what kube-apiserver stored for one.
func CustomResourceFor(crd *unstructured.Unstructured) (*Resource, bool) {
	cr, ok := customResourceFor(crd)
	if !ok {
		return nil, false
	}
	return cr.main, true
}

// EncodeStored is the bytes our Storage writes to etcd for obj.
var EncodeStored = encodeStored
