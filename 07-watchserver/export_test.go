package watchserver

import (
	"context"

	"go.etcd.io/etcd/api/v3/etcdserverpb"
	clientv3 "go.etcd.io/etcd/client/v3"
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
	storage := &Storage{}
	if etcdRevision != nil {
		storage.client = &clientv3.Client{KV: revisionKV{revision: etcdRevision}}
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

func (kv revisionKV) Get(context.Context, string, ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	return &clientv3.GetResponse{Header: &etcdserverpb.ResponseHeader{Revision: kv.revision()}}, nil
}
