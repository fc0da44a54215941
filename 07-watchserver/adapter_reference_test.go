package watchserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	ours "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/scenario"
)

// The adapter for our own package: our server over an embedded etcd.
// `make exercises` derives the exercise adapter from this file by pointing
// it at the exercise/ copy, so keep everything inside init.
func init() {
	register(scenario.Reference, impl{Start: func(t testing.TB) target {
		e, err := ours.StartEmbedded(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		storage := ours.NewStorage(e.Client)
		// A consistent watch waits at most 1.5 s for the cache, not
		// kube-apiserver's 3 s (the default), so that the two waits of
		// watchlist-too-large.txt cost 3 s of every check, not 6. The file
		// shows the same: still longer than its timeoutSeconds=1, and the
		// wait's length is in no trace.
		cache := ours.NewCache(storage, ours.CacheOptions{FreshnessWait: 1500 * time.Millisecond})
		srv := ours.NewServer(storage, cache)
		var panicked atomic.Pointer[any] // the first panic; later ones add nothing
		panics := make(chan struct{})    // closed at the first panic
		note := func(v any) {
			if panicked.CompareAndSwap(nil, &v) {
				close(panics)
			}
		}
		h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					note(scenario.Catch(v))
					http.Error(w, fmt.Sprint(v), http.StatusInternalServerError)
				}
			}()
			srv.ServeHTTP(w, r)
		}))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		var once sync.Once
		started := false
		t.Cleanup(func() {
			h.CloseClientConnections()
			// A panic in the cache's goroutine may have left the cache's
			// lock held: a handler that waits for it never ends, and
			// neither would Close. The step has reported the panic; the
			// test must not hang after it.
			closed := make(chan struct{})
			go func() { defer close(closed); h.Close() }()
			select {
			case <-closed:
			case <-time.After(10 * time.Second):
				if panicked.Load() == nil {
					t.Errorf("the server's handlers did not end within 10s of the test: one waits for something nobody gives back "+
						"(a lock, or a client that left: a stream must end when its request's context does)%s", handlersStillRunning())
				}
			}
			cancel()
			if started {
				<-done
			}
			srv.Close() // the caches it started itself (a Lease scenario's)
			_ = e.Close()
		})
		return target{
			Panicked: func() any {
				if p := panicked.Load(); p != nil {
					return *p
				}
				return nil
			},
			Panics: panics,
			Compact: func(t testing.TB) {
				// etcd cancels a watch that is behind the revision it
				// compacts to. The scenarios compact after the cache's
				// watch has caught up, as kube-apiserver's would have
				// long before its compaction, every five minutes.
				if started {
					head, err := e.Client.Get(context.Background(), "compact-probe")
					if err != nil {
						t.Fatal(err)
					}
					if !pollUntil(10*time.Second, func() bool { return cache.RV() >= head.Header.Revision }) {
						t.Fatalf("the watch cache did not reach etcd's revision %d in 10s (it is at %d)", head.Header.Revision, cache.RV())
					}
				}
				if _, err := storage.Compact(context.Background()); err != nil {
					t.Fatal(err)
				}
			},
			Lease: func(t testing.TB, resource, name string) time.Duration {
				return etcdLease(t, e.Client, "/registry/"+resource+"/ns/"+name)
			},
			Base: h.URL + "/api/v1/namespaces/ns/configmaps",
			HTTP: h.Client(),
			WatchEtcd: func(t testing.TB, rv int64) (chan decoded, func()) {
				ctx, cancel := context.WithCancel(context.Background())
				in := ours.WatchEtcd(ctx, e.Client, ours.ConfigMaps, rv)
				awaitEtcdWatchCreated(t, e.Client)
				out := make(chan decoded, 100)
				go func() {
					defer close(out)
					for ev := range in {
						var obj runtime.Object = ev.Object
						if ev.Status != nil {
							obj = ev.Status
						}
						if ev.Type == watch.Bookmark {
							continue // etcd's progress notifications: timing, not content
						}
						out <- decoded{typ: ev.Type, obj: obj}
					}
				}()
				return out, cancel
			},
			Frame: func(typ watch.EventType, obj runtime.Object, protobuf bool) ([]byte, error) {
				ev := ours.Event{Type: typ}
				switch o := obj.(type) {
				case *corev1.ConfigMap:
					ev.Object = o
				case *metav1.Status:
					ev.Status = o
				}
				return ours.EncodeFrame(ev, protobuf)
			},
			Serving: func(t testing.TB) {
				once.Do(func() {
					started = true
					go func() {
						defer close(done)
						// An unfinished exercise panics here, in the cache's
						// goroutine: hand it to the next step, which raises it
						// where the runner reports it, instead of stopping the
						// whole test binary.
						defer func() {
							if v := recover(); v != nil {
								note(scenario.Catch(v))
							}
						}()
						cache.Run(ctx)
					}()
					deadline := time.Now().Add(10 * time.Second)
					for {
						if cache.Ready() {
							return
						}
						if p := panicked.Load(); p != nil {
							panic(*p) // an unfinished exercise stopped the cache
						}
						if time.Now().After(deadline) {
							t.Fatal("the watch cache did not become ready in 10s")
						}
						time.Sleep(5 * time.Millisecond)
					}
				})
			},
		}
	}})
}
