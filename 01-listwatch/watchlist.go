package listwatch

import (
	"context"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	indexer "example.com/walkthrough/03-indexer"
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
	// exercise:begin 14 Stream the initial list (WatchList)
	// exercise:hint Open a watch with sendInitialEvents=true, collect its events in a temporary
	//   store until the initial-events-end bookmark, then Replace the real store with them and keep
	//   the watch.
	// exercise:deeper Options: ResourceVersion r.rewatchResourceVersion(), ResourceVersionMatch
	//   NotOlderThan, SendInitialEvents true, AllowWatchBookmarks true, TimeoutSeconds
	//   watchTimeout(). Use r.handleWatch with exitOnInitialEventsEnd; the Replace version is the
	//   last non-ADDED event's. Retry: isWatchErrorRetriable after a backoff; expired or too large
	//   with r.setRVUnavailable(true); otherwise return the error.
	retriable := func(err error) bool {
		if isWatchErrorRetriable(err) {
			r.sleep(context.Background(), r.backoff.next())
			return true
		}
		if isExpiredError(err) || isTooLargeResourceVersionError(err) {
			r.setRVUnavailable(true)
			return true
		}
		return false
	}
	var w Watcher
	var temp indexer.Store
	var rv string
	for {
		if ctx.Err() != nil {
			return nil, nil
		}
		rv = ""
		temp = indexer.NewStore(indexer.DeletionHandlingMetaNamespaceKeyFunc)
		opts := metav1.ListOptions{
			ResourceVersion:      r.rewatchResourceVersion(),
			ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
			SendInitialEvents:    ptr.To(true),
			AllowWatchBookmarks:  true,
			TimeoutSeconds:       watchTimeout(),
		}
		start := r.clk().Now()
		var err error
		w, err = r.lw.Watch(ctx, opts)
		if err != nil {
			if retriable(err) {
				continue
			}
			return nil, err
		}
		done, err := r.handleWatch(ctx, start, w, temp, true, func(v string, pastInitial bool) {
			if pastInitial {
				rv = v
			}
		}, nil)
		if err != nil {
			w.Stop()
			if errors.Is(err, errStopRequested) {
				return nil, nil
			}
			if retriable(err) {
				continue
			}
			return nil, err
		}
		if done {
			break
		}
	}
	r.setRVUnavailable(false)
	if err := r.store.Replace(temp.List(), rv); err != nil {
		w.Stop()
		return nil, fmt.Errorf("unable to sync watch-list result: %w", err)
	}
	r.setLastSyncRV(rv)
	return w, nil
	// exercise:end 14
}
