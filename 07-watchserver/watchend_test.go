package watchserver_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	ws "example.com/walkthrough/07-watchserver"
)

// TestAWatchThatEndsLeavesTheCache: when a watch request ends, at its
// timeout or because the client went away, the handler stops its watcher,
// and the cache forgets it. A watcher left registered is offered every
// later event, holds its buffer, and counts against the cache for as long
// as the server runs.
func TestAWatchThatEndsLeavesTheCache(t *testing.T) {
	t.Parallel()
	srv := startServer(t, ws.CacheOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cms := srv.cs.CoreV1().ConfigMaps("default")

	timeout := int64(1)
	timed, err := cms.Watch(ctx, metav1.ListOptions{TimeoutSeconds: &timeout})
	if err != nil {
		t.Fatal(err)
	}
	for range timed.ResultChan() { // ends at the server's timeout
	}
	leftBy(t, srv.cache, "a watch that ended at its timeoutSeconds")

	clientCtx, leave := context.WithCancel(ctx)
	gone, err := cms.Watch(clientCtx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !pollUntil(5*time.Second, func() bool { return srv.cache.Watchers() == 1 }) {
		t.Fatal("waited 5s for the second watch to be registered")
	}
	leave()
	gone.Stop()
	leftBy(t, srv.cache, "a watch whose client went away")
}

// leftBy waits until the cache has no watcher left, and fails naming the
// watch that should have gone.
func leftBy(t *testing.T, c *ws.Cache, what string) {
	t.Helper()
	if !pollUntil(5*time.Second, func() bool { return c.Watchers() == 0 }) {
		t.Fatalf("the cache still holds %d watcher(s) 5s after %s: the handler must stop its watcher when it returns", c.Watchers(), what)
	}
}
