package watchserver_test

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	ws "example.com/walkthrough/07-watchserver"
)

// TestObserverSeesBothEnds starts the server as make demo SERVER=ours
// does, with an Observer, and follows one ConfigMap's creation to two
// watches, one in JSON and one in protobuf: the observer hears etcd's
// write (key, revision), then the cache's event (its slot, a window that
// holds it, the two watchers), then one frame on each watch that reads
// back as the event.
func TestObserverSeesBothEnds(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var order []string
	var stored []ws.Stored
	var cached []ws.Cached
	var frames []ws.Frame
	obs := &ws.Observer{
		Stored: func(s ws.Stored) {
			mu.Lock()
			defer mu.Unlock()
			order = append(order, "stored")
			stored = append(stored, s)
		},
		Cached: func(c ws.Cached) {
			mu.Lock()
			defer mu.Unlock()
			order = append(order, "cached")
			cached = append(cached, c)
		},
		Framed: func(f ws.Frame) {
			mu.Lock()
			defer mu.Unlock()
			if f.Type == "ADDED" {
				order = append(order, "framed")
				frames = append(frames, f)
			}
		},
	}
	srv, err := ws.StartObserved(t.TempDir(), obs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	ctx := context.Background()
	var watches []watch.Interface
	for _, ct := range []string{"application/json", "application/vnd.kubernetes.protobuf"} {
		kube, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, ContentConfig: rest.ContentConfig{ContentType: ct, AcceptContentTypes: ct}})
		if err != nil {
			t.Fatal(err)
		}
		w, err := kube.CoreV1().ConfigMaps("obs").Watch(ctx, metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			t.Fatalf("watch in %s: %v", ct, err)
		}
		t.Cleanup(w.Stop)
		watches = append(watches, w)
	}
	kube, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	// The watches are registered once the cache says so.
	for deadline := time.Now().Add(10 * time.Second); len(srv.Caches()[0].Watchers) < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the cache has %d watchers, want 2", len(srv.Caches()[0].Watchers))
		}
	}
	cm, err := kube.CoreV1().ConfigMaps("obs").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range watches {
		select {
		case <-w.ResultChan():
		case <-time.After(10 * time.Second):
			t.Fatal("a watch got no event")
		}
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(frames)
		mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the observer heard %d frames, want 2", n)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	rv, _ := strconv.ParseInt(cm.ResourceVersion, 10, 64)
	if want := []string{"stored", "cached", "framed", "framed"}; !slices.Equal(order, want) {
		t.Errorf("the observer heard %v, want %v", order, want)
	}
	if want := (ws.Stored{Resource: "configmaps", Op: "PUT", Key: "/registry/configmaps/obs/a", Namespace: "obs", Name: "a", Revision: rv}); len(stored) != 1 || stored[0] != want {
		t.Errorf("stored %+v, want %+v", stored, want)
	}
	if len(cached) != 1 {
		t.Fatalf("cached %+v, want one event", cached)
	}
	c := cached[0]
	if c.Type != watch.Added || c.RV != rv || c.Name != "a" || len(c.Cache.Watchers) != 2 || c.Cache.Capacity != 100 {
		t.Errorf("cached %+v: want ADDED obs/a at %d in a ring of 100, with 2 watchers", c, rv)
	}
	if last := c.Cache.Window[len(c.Cache.Window)-1]; last.Slot != c.Slot || last.RV != rv || last.Name != "a" {
		t.Errorf("the window ends with %+v, want obs/a at %d in slot %d", last, rv, c.Slot)
	}
	var media []string
	for _, f := range frames {
		media = append(media, f.MediaType)
		if f.Namespace != "obs" || f.Name != "a" || f.RV != cm.ResourceVersion || f.Path != "/api/v1/namespaces/obs/configmaps" || len(f.Bytes) == 0 {
			t.Errorf("frame %+v: want ADDED obs/a at %s on the watch of obs's configmaps", f, cm.ResourceVersion)
		}
	}
	slices.Sort(media)
	if want := []string{"application/json", "application/vnd.kubernetes.protobuf;stream=watch"}; !slices.Equal(media, want) {
		t.Errorf("frames in %v, want %v", media, want)
	}
}
