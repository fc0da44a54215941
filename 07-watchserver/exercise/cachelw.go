// Your copy of ../cachelw.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "example.com/walkthrough/01-listwatch"
)

// etcdListerWatcher is what the cache's Reflector lists and watches: not
// an API server over HTTP, as in chapter 01, but etcd itself, through
// Storage's LIST and WatchEtcd. The Reflector is chapter 01's, unchanged:
// the watch cache is one more informer-like client of the store, and its
// Store (Add, Update, Delete, Replace, Bookmark) is the Cache.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/lister_watcher.go
// (listerWatcher), over storage.Interface.
type etcdListerWatcher struct{ c *Cache }

// List reads every object of the cache's resource from etcd at its newest revision, in one
// read: it ignores the Reflector's page size. (kube-apiserver's cacher
// reads etcd in pages of 10,000, storageWatchListPageSize in cacher.go;
// ours would need storage's paging, a later exercise.)
func (lw etcdListerWatcher) List(ctx context.Context, _ metav1.ListOptions) (*listwatch.List, error) {
	list, err := lw.c.storage.List(ctx, "", PageOptions{})
	if err != nil {
		return nil, err
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	lm, err := meta.ListAccessor(list)
	if err != nil {
		return nil, err
	}
	return &listwatch.List{ResourceVersion: lm.GetResourceVersion(), Continue: lm.GetContinue(),
		RemainingItemCount: lm.GetRemainingItemCount(), Items: items}, nil
}

// Watch follows etcd from the resource version the Reflector last synced,
// until its context ends or Stop is called.
func (lw etcdListerWatcher) Watch(ctx context.Context, opts metav1.ListOptions) (listwatch.Watcher, error) {
	rv, err := strconv.ParseInt(opts.ResourceVersion, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("watching etcd from resource version %q: %w", opts.ResourceVersion, err)
	}
	lw.c.mu.Lock()
	lw.c.etcdWatches++
	lw.c.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	w := &etcdWatcher{out: make(chan listwatch.Event), stop: cancel, res: lw.c.res}
	go w.relay(ctx, WatchEtcd(ctx, lw.c.client, lw.c.res, rv))
	return w, nil
}

// etcdWatcher relays WatchEtcd's events as chapter 01's: a progress
// notification becomes a BOOKMARK whose object holds only the revision,
// and a failure an ERROR carrying its Status, which the Reflector reads
// like an API server's (a 410 after a compaction makes it list again).
//
// upstream: k8s.io/apiserver/pkg/storage/etcd3/watcher.go (watchChan), etcd's
// watch as a watch.Interface
type etcdWatcher struct {
	out  chan listwatch.Event
	stop context.CancelFunc
	once sync.Once
	res  *Resource // a bookmark carries an empty object of it
}

func (w *etcdWatcher) relay(ctx context.Context, in <-chan Event) {
	defer close(w.out)
	for ev := range in {
		out := listwatch.Event{Type: listwatch.EventType(ev.Type), Object: ev.Object}
		switch ev.Type {
		case watch.Bookmark:
			out.Object = bookmarkObject(w.res, ev.RV, false)
		case watch.Error:
			out.Object, out.Err = nil, &listwatch.StatusError{ErrStatus: *ev.Status}
		}
		select {
		case w.out <- out:
		case <-ctx.Done():
			return
		}
	}
}

func (w *etcdWatcher) ResultChan() <-chan listwatch.Event { return w.out }

// Stop ends the etcd watch; the relay then closes the result channel.
func (w *etcdWatcher) Stop() { w.once.Do(w.stop) }
