// Your copy of ../watchlist.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=01` checks your work.

package listwatch

import (
	"context"

	"example.com/walkthrough/workshop/todo"
)

// rewatchResourceVersion is where a streaming list starts: the last
// synced version, or "" (the newest state) when there is none or it is
// gone.
func (r *Reflector) rewatchResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.rvUnavailable {
		return ""
	}
	return r.lastSyncRV
}

// watchList fills the store with a streaming list: one WATCH with
// sendInitialEvents=true, whose first events are the whole state as
// ADDED events, closed by a BOOKMARK annotated
// k8s.io/initial-events-end=true. The events collect in a temporary
// store; at the bookmark the real store is replaced with it at the
// bookmark's resource version, and the same stream goes on as an
// ordinary watch, which it returns.
//
// Why: a LIST of a large collection makes the API server build the whole
// response in memory, for every client that relists at once. A stream
// writes one object at a time from the watch cache.
//
// A stream that ends before the bookmark is retried: at once when it
// ended cleanly, after a backoff on 429, from "" when the version is gone.
// Any other error is returned, and ListAndWatch falls back to LIST.
//
// client-go: tools/cache/reflector.go (Reflector.watchList)
func (r *Reflector) watchList(ctx context.Context) (Watcher, error) {
	// Exercise 14: Stream the initial list (WatchList).
	// Hint: Open a watch with sendInitialEvents=true, collect its events in a temporary store until the initial-events-end bookmark, then Replace the real store with them and keep the watch.
	panic(todo.Exercise("01-listwatch", 14, "Open a watch with sendInitialEvents=true, collect its events in a temporary store until the initial-events-end bookmark, then Replace the real store with them and keep the watch."))
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
