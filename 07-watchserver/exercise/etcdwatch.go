// Your copy of ../etcdwatch.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

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

	"example.com/walkthrough/workshop/todo"
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
	// Exercise 3: WatchEtcd watches every object of res (its Prefix) from revision rv+1.
	panic(todo.Exercise("07-watchserver", 3, "WatchEtcd"))
}

// pumpEtcdWatch is WatchEtcd's goroutine: it owns out and closes it.
func pumpEtcdWatch(ctx context.Context, client *clientv3.Client, res *Resource, rv int64, out chan<- Event) {
	// Exercise 3: pumpEtcdWatch is WatchEtcd's goroutine: it owns out and closes it.
	panic(todo.Exercise("07-watchserver", 3, "pumpEtcdWatch"))
}

// etcdWatchStatus is the Status a client sees for an etcd watch error.
func etcdWatchStatus(err error) *metav1.Status {
	// Exercise 3: etcdWatchStatus is the Status a client sees for an etcd watch error.
	panic(todo.Exercise("07-watchserver", 3, "etcdWatchStatus"))
}

func internalStatus(err error) *metav1.Status {
	st := apierrors.NewInternalError(err).ErrStatus
	return &st
}

// toEvent maps one etcd event. A create is a put whose key did not exist
// before (CreateRevision == ModRevision); any other put is MODIFIED; a
// delete is DELETED with the previous value.
func toEvent(res *Resource, e *clientv3.Event) (Event, error) {
	// Exercise 3: toEvent maps one etcd event.
	panic(todo.Exercise("07-watchserver", 3, "toEvent"))
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

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Errorf
	_ = rpctypes.ErrCompacted
)
