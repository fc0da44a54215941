package cluster

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
)

// These helpers are shared by the end-to-end tests that compare caches: workshop/cluster's own
// and every chapter's that plugs its store into a client-go Reflector.

// ListWatch is the ListerWatcher a Reflector needs, over one namespace's ConfigMaps.
func ListWatch(cms typedcorev1.ConfigMapInterface) *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return cms.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return cms.Watch(ctx, opts)
		},
	}
}

// ConfigMapBurst makes n ConfigMaps, then updates every second one and deletes every third,
// as fast as the client allows, so watchers see adds, updates and deletes interleaved.
func ConfigMapBurst(t testing.TB, ctx context.Context, cms typedcorev1.ConfigMapInterface, n int) {
	t.Helper()
	made := make([]*corev1.ConfigMap, n)
	for i := range n {
		cm, err := cms.Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("burst-%03d", i)},
			Data:       map[string]string{"step": "created"},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("burst: creating: %v", err)
		}
		made[i] = cm
	}
	for i := 0; i < n; i += 2 {
		cm := made[i].DeepCopy()
		cm.Data["step"] = "updated"
		if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("burst: updating %s: %v", cm.Name, err)
		}
	}
	for i := 0; i < n; i += 3 {
		if err := cms.Delete(ctx, made[i].Name, metav1.DeleteOptions{}); err != nil {
			t.Fatalf("burst: deleting %s: %v", made[i].Name, err)
		}
	}
}

// WaitForSameCaches polls until every store holds exactly what a fresh LIST of cms returns,
// compared as sorted "namespace/name@resourceVersion" lines. Caches converge asynchronously,
// so a single look could catch one mid-event; after 60 seconds it fails with a diff per store.
func WaitForSameCaches(t testing.TB, ctx context.Context, cms typedcorev1.ConfigMapInterface, stores map[string]cache.Store) {
	t.Helper()
	var diffs []string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		list, err := cms.List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		want := make([]any, len(list.Items))
		for i := range list.Items {
			want[i] = &list.Items[i]
		}
		diffs = diffs[:0]
		for _, name := range slices.Sorted(maps.Keys(stores)) {
			if d := cmp.Diff(Snapshot(want), Snapshot(stores[name].List())); d != "" {
				diffs = append(diffs, fmt.Sprintf("%s (-server +cache):\n%s", name, d))
			}
		}
		return len(diffs) == 0, nil
	})
	if err != nil {
		t.Fatalf("caches did not match the server within 60s (%v):\n%s", err, diffs)
	}
}

// Snapshot describes cached objects as sorted "namespace/name@resourceVersion" lines: equal
// snapshots mean the same objects at the same versions.
func Snapshot(objs []any) []string {
	out := make([]string, 0, len(objs))
	for _, o := range objs {
		m, err := meta.Accessor(o)
		if err != nil {
			out = append(out, fmt.Sprintf("not an object: %T", o))
			continue
		}
		out = append(out, m.GetNamespace()+"/"+m.GetName()+"@"+m.GetResourceVersion())
	}
	slices.Sort(out)
	return out
}
