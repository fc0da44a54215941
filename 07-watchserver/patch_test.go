package watchserver_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	ws "example.com/walkthrough/07-watchserver"
)

// TestConcurrentPatchesAllLand: a patch that names no resourceVersion is
// applied to whatever is stored when it is written, so patches that race
// each other all land, none with a 409: the loser of a compare-and-swap
// reads again and re-applies (patch.go, patchLoop). A PUT in their place
// would lose writes or answer 409.
func TestConcurrentPatchesAllLand(t *testing.T) {
	t.Parallel() // its own etcd and server: it waits beside the others
	s := startServer(t, ws.CacheOptions{})
	// client-go's default rate limit (5 a second) would space the patches
	// out and keep them from racing.
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: s.http.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	cms := cs.CoreV1().ConfigMaps("ns")
	ctx := context.Background()
	if _, err := cms.Create(ctx, cm("", "a", "0"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	const writers, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				kind, patch := types.MergePatchType, fmt.Sprintf(`{"data":{"w%d-%d":"x"}}`, w, i)
				if i%2 == 1 {
					kind = types.StrategicMergePatchType
				}
				if _, err := cms.Patch(ctx, "a", kind, []byte(patch), metav1.PatchOptions{}); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a racing patch failed: %v", err)
	}
	got, err := cms.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + writers*each; len(got.Data) != want {
		t.Errorf("after %d racing patches, %d keys, want %d: a patch was lost", writers*each, len(got.Data), want)
	}
}
