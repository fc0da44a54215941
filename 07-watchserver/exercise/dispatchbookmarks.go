// Your copy of ../dispatchbookmarks.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import "example.com/walkthrough/workshop/todo"

import "time"

// bookmarkBuckets says when each watcher that allows bookmarks gets its
// next periodic one. A watcher sits in the bucket of the second its
// bookmark is due (counted from the cache's start); the dispatcher, every
// second, takes out the buckets whose second has begun, offers their
// watchers a bookmark, and puts each back for its next one. So a bookmark
// costs nothing per watcher between them, and comes up to a second early,
// as kube-apiserver's does.
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cacher.go
// (watcherBookmarkTimeBuckets)
type bookmarkBuckets struct {
	start   time.Time // bucket i holds the watchers due in second i after start
	next    int64     // the first bucket not taken out yet
	buckets map[int64][]*cacheWatcher
	every   time.Duration // how long after one bookmark the next is due
}

func newBookmarkBuckets(start time.Time, every time.Duration) *bookmarkBuckets {
	return &bookmarkBuckets{start: start, buckets: map[int64][]*cacheWatcher{}, every: every}
}

// add puts w in the bucket of its next bookmark after now, if it has one
// (nextBookmark). A bucket already taken out counts as the next one.
func (b *bookmarkBuckets) add(w *cacheWatcher, now time.Time) {
	due, ok := w.nextBookmark(now, b.every)
	if !ok {
		return
	}
	id := max(int64(due.Sub(b.start)/time.Second), b.next)
	b.buckets[id] = append(b.buckets[id], w)
}

// due takes out every bucket whose second has begun by now, and returns
// their watchers.
func (b *bookmarkBuckets) due(now time.Time) []*cacheWatcher {
	var due []*cacheWatcher
	for last := int64(now.Sub(b.start) / time.Second); b.next <= last; b.next++ {
		due = append(due, b.buckets[b.next]...)
		delete(b.buckets, b.next)
	}
	return due
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
