package watchserver

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// TestBookmarksNeverOvertakeEvents: the dispatcher's periodic bookmark
// carries the revision of the last event it handled, never the cache's,
// which may already include an event still queued; a client that
// reconnected from such a bookmark would never see that event. Here a
// watcher that reads nothing holds the dispatcher for its whole budget
// (its result, its loop and its input hold one event each, and the fourth
// finds it full), while the fifth event waits in the queue and the
// bookmark timer fires.
// Which of the two the dispatcher takes next is Go's choice, so the story
// runs 20 times, in a synctest bubble, on fake time. On the way, the
// watcher that reads makes room while the budget goes to the other: it
// must be offered the event again, not closed with it.
func TestBookmarksNeverOvertakeEvents(t *testing.T) {
	for round := range 20 {
		synctest.Test(t, func(t *testing.T) {
			c := NewCache(&Storage{res: ConfigMaps}, CacheOptions{WatcherBuffer: 1, DispatchBudget: 50 * time.Millisecond, BookmarkInterval: 10 * time.Millisecond})
			time.Sleep(time.Second) // the budget starts empty; a second fills it to 50ms
			dispatcher := make(chan struct{})
			go func() { defer close(dispatcher); c.dispatchLoop() }()
			fast := c.register(WatchOptions{AllowBookmarks: true}, 0)
			slow := c.register(WatchOptions{}, 0) // never read: the dispatcher waits for it, then closes it
			for rv := int64(1); rv <= 5; rv++ {
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprint("c", rv), ResourceVersion: fmt.Sprint(rv)}}
				c.processEvent(Event{Type: watch.Added, Object: cm, RV: rv})
			}
			// Nothing read yet: both watchers are full by the fourth event,
			// and the dispatcher waits for one of them, Go's choice which.
			// Reading now makes room in the fast one while it waits.
			synctest.Wait()
			// Errors, not Fatal: the watchers and the dispatcher must
			// still be stopped, or the bubble ends with them blocked.
			var bookmarked int64
			for seen := int64(0); seen < 5; {
				ev, ok := <-fast.ResultChan()
				if !ok {
					t.Errorf("round %d: the watcher that reads was closed after the event at %d: it made room while the budget went to the other, and must be offered the event again", round, seen)
					break
				}
				if ev.Type == watch.Bookmark {
					bookmarked = ev.RV
					continue
				}
				if ev.RV <= bookmarked {
					t.Errorf("round %d: %s at %d came after a bookmark at %d", round, ev.Type, ev.RV, bookmarked)
					break
				}
				seen = ev.RV
			}
			fast.Stop()
			slow.Stop()
			close(c.incoming)
			<-dispatcher
		})
		if t.Failed() {
			return
		}
	}
}

// register adds a watcher that starts after start with no initial events,
// the way start ends, for tests that place watchers by hand.
func (c *Cache) register(opts WatchOptions, start int64) *cacheWatcher {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.registerLocked(opts, start, nil, interval{})
}
