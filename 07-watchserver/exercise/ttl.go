// Your copy of ../ttl.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"context"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"example.com/walkthrough/workshop/todo"
)

// leaseGrants hands out the etcd leases that objects with a TTL (Events)
// are written on. etcd deletes every key on a lease when the lease
// expires, so an Event needs no sweeper: its key goes an hour after its
// last write, and the watch cache hears a DELETE like any other.
//
// A lease is one grant in etcd, a round trip and an entry etcd keeps and
// expires. A controller may write hundreds of Events a minute, so writes
// share one: a lease is granted for the TTL plus a little slack (the
// smaller of 5% of the TTL and a minute), and every write in the slack
// that follows is put on the same lease. Each key so lives at least its
// TTL, at most the TTL plus the slack. A lease carries at most
// maxAttached keys, so that its expiry is not one huge delete.
//
// upstream: k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go
// (leaseManager, leaseManager.GetLease), one per resource's store there,
// one per etcd client here: only Events have a TTL.
type leaseGrants struct {
	mu sync.Mutex
	// id is the lease last granted, expires when etcd drops it (as
	// granted: etcd counts from its own receipt, a little later), and
	// attached how many writes have been put on it. Before the first
	// grant, expires is the zero time: no write finds it long enough.
	id       clientv3.LeaseID
	expires  time.Time
	attached int
}

// maxAttached is how many writes may share one lease (kube-apiserver's
// defaultLeaseMaxObjectCount).
const maxAttached = 1000

// lease returns a lease that outlives ttl from now: the last one when it
// does and was granted within the slack, else a new one.
func (g *leaseGrants) lease(ctx context.Context, client *clientv3.Client, ttl time.Duration) (clientv3.LeaseID, error) {
	// Exercise 1: lease returns a lease that outlives ttl from now.
	panic(todo.Exercise("07-watchserver", 1, "leaseGrants.lease"))
}

// putOptions are the options of a write of s's resource: on a lease when
// the resource has a TTL (Events), none otherwise. Create and update
// put every key with them, so that an Event written, patched or replaced
// lives its TTL from that write.
//
// upstream: k8s.io/apiserver/pkg/storage/etcd3/store.go (store.Create,
// store.GuaranteedUpdate), which ask the lease manager for a lease when
// the registry's TTLFunc gives a TTL.
func (s *Storage) putOptions(ctx context.Context) ([]clientv3.OpOption, error) {
	// Exercise 1: putOptions are the options of a write of s's resource.
	panic(todo.Exercise("07-watchserver", 1, "Storage.putOptions"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = apierrors.NewInternalError
)
