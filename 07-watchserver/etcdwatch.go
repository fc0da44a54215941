package watchserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc/metadata"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// Event is one change to an object as the server sees it. Object is the
// new state, or for DELETED the last state stamped with the delete's
// revision; RV is the revision of the change. An ERROR event carries a
// Status instead, and ends the stream it is on.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/watch_cache.go (watchCacheEvent)
type Event struct {
	Type   watch.EventType
	Object runtime.Object
	// Prev is a MODIFIED object's state before the change, as the cache
	// held it, so a watcher with a selector can tell an object that left
	// its selection (Selector.See). nil for other events.
	Prev   runtime.Object
	Status *metav1.Status
	RV     int64
}

// tooOldForWatch is what etcd's ErrCompacted becomes: the client asked for
// history etcd no longer has, and must list again.
//
// upstream: k8s.io/apiserver/pkg/storage/etcd3/errors.go (interpretWatchError).
func tooOldForWatch() *metav1.Status {
	st := apierrors.NewResourceExpired("The resourceVersion for the provided watch is too old.").ErrStatus
	return &st
}

// etcdStream is the context for res's etcd watch and for the progress
// requests made on its behalf. clientv3 puts the watches whose contexts
// carry the same gRPC metadata on one stream, and etcd answers a progress
// request only when every watch on that stream has caught up with the
// current revision (mvcc's progressIfSync): a cache that listed after the
// last write watches from the revision after it, so on a shared stream it
// would hold back the progress notification another resource's cache
// waits for, and a consistent watch of that resource would time out.
// kube-apiserver gives each resource an etcd client of its own
// (newETCD3Storage); one stream per resource, on one client, is the same.
// The leader is required too: a member cut off from the leader ends the
// watch instead of going silent.
//
// upstream: k8s.io/apiserver/pkg/storage/storagebackend/factory/etcd3.go
// (newETCD3Storage)
func etcdStream(ctx context.Context, res *Resource) context.Context {
	return clientv3.WithRequireLeader(metadata.AppendToOutgoingContext(ctx, "walkthrough-resource", res.Prefix()))
}

// WatchEtcd watches every object of res (its Prefix) from revision rv+1 (the
// first change the caller has not seen) and sends the changes on the
// returned channel until ctx ends or etcd fails; then it closes it. A
// failure is sent first as one ERROR event: ErrCompacted as 410 Expired,
// anything else as 500. PrevKV is requested because a DELETED event must
// carry the object that was deleted, and etcd's delete event has no value.
//
// upstream: k8s.io/apiserver/pkg/storage/etcd3/watcher.go
// (watchChan.startWatching, watchChan.transform).
func WatchEtcd(ctx context.Context, client *clientv3.Client, res *Resource, rv int64) <-chan Event {
	// exercise:begin 3 Turn etcd's watch responses into ADDED, MODIFIED and DELETED
	// exercise:hint Watch res.Prefix() WithPrefix, WithRev(rv+1) and WithPrevKV. For each response:
	//   resp.Err() ends the watch with one ERROR event; each event becomes an Event (see toEvent).
	//   The pump owns out: close it when it returns, so the cache hears the watch ended.
	// exercise:deeper ErrCompacted is rpctypes.ErrCompacted (compare with errors.Is); its Status is
	//   tooOldForWatch(). Watch on etcdStream(ctx, res), the resource's own gRPC stream with the
	//   leader required (its comment says why). Send with a select on ctx.Done(), never a bare
	//   send. It also covers WatchEtcd (start the goroutine, return the channel), toEvent
	//   (IsCreate → ADDED) and etcdWatchStatus.
	out := make(chan Event, 100)
	go pumpEtcdWatch(ctx, client, res, rv, out)
	return out
	// exercise:end 3
}

// pumpEtcdWatch is WatchEtcd's goroutine: it owns out and closes it.
func pumpEtcdWatch(ctx context.Context, client *clientv3.Client, res *Resource, rv int64, out chan<- Event) {
	// exercise:begin 3
	defer close(out)
	send := func(ev Event) bool {
		select {
		case out <- ev:
			return true
		case <-ctx.Done():
			return false
		}
	}
	wch := client.Watch(etcdStream(ctx, res), res.Prefix(),
		clientv3.WithPrefix(), clientv3.WithRev(rv+1), clientv3.WithPrevKV(), clientv3.WithProgressNotify())
	for resp := range wch {
		if err := resp.Err(); err != nil {
			if ctx.Err() == nil {
				send(Event{Type: watch.Error, Status: etcdWatchStatus(err)})
			}
			return
		}
		for _, e := range resp.Events {
			ev, err := toEvent(res, e)
			if err != nil {
				send(Event{Type: watch.Error, Status: internalStatus(err)})
				return
			}
			if !send(ev) {
				return
			}
		}
		if resp.IsProgressNotify() && !send(Event{Type: watch.Bookmark, RV: resp.Header.Revision}) {
			return
		}
	}
	// exercise:end 3
}

// etcdWatchStatus is the Status a client sees for an etcd watch error.
func etcdWatchStatus(err error) *metav1.Status {
	// exercise:begin 3
	if errors.Is(err, rpctypes.ErrCompacted) {
		return tooOldForWatch()
	}
	return internalStatus(err)
	// exercise:end 3
}

func internalStatus(err error) *metav1.Status {
	st := apierrors.NewInternalError(err).ErrStatus
	return &st
}

// toEvent maps one etcd event. A create is a put whose key did not exist
// before (CreateRevision == ModRevision); any other put is MODIFIED; a
// delete is DELETED with the previous value.
func toEvent(res *Resource, e *clientv3.Event) (Event, error) {
	// exercise:begin 3
	rev := e.Kv.ModRevision
	switch {
	case e.Type == clientv3.EventTypeDelete:
		if e.PrevKv == nil {
			return Event{}, fmt.Errorf("etcd event received with PrevKv=nil (key=%q, modRevision=%d, type=DELETE)", e.Kv.Key, rev)
		}
		obj, err := decodeStored(res, e.PrevKv.Value, rev)
		return Event{Type: watch.Deleted, Object: obj, RV: rev}, err
	case e.IsCreate():
		obj, err := decodeStored(res, e.Kv.Value, rev)
		return Event{Type: watch.Added, Object: obj, RV: rev}, err
	default:
		obj, err := decodeStored(res, e.Kv.Value, rev)
		return Event{Type: watch.Modified, Object: obj, RV: rev}, err
	}
	// exercise:end 3
}

// statusCode is the HTTP code of an error, 500 for one that is not an
// API status.
func statusCode(err error) int {
	var st apierrors.APIStatus
	if errors.As(err, &st) {
		return int(st.Status().Code)
	}
	return http.StatusInternalServerError
}

func formatRV(rv int64) string { return strconv.FormatInt(rv, 10) }
