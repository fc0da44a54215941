// Your copy of ../watchlist.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 01`
// checks your work, and `go run ./workshop/cmd/workshop hint 01 N` gives
// exercise N's hint.

package listwatch

import (
	"context"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	indexer "example.com/walkthrough/03-indexer"

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
	// Exercise 14: watchList fills the store with a streaming list.
	panic(todo.Exercise("01-listwatch", 14, "Reflector.watchList"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = errors.Is
	_ = fmt.Errorf
	_ = metav1.ResourceVersionMatchNotOlderThan
	_ = ptr.To[int]
	_ = indexer.NewStore
)
