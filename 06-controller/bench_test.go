package controller_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"example.com/walkthrough/06-controller/fakeapi"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/workshop/scenario"
)

// BenchmarkReconcile measures the whole loop: 50 Rollouts created at once,
// until every one has its Deployment and its status. Both sides run the
// same reconcile logic on the same fake API server; what differs is the
// machinery under it, chapters 01–05 against client-go's.
func BenchmarkReconcile(b *testing.B) {
	const n = 50
	for _, side := range []struct{ name, impl string }{{"ours", scenario.Reference}, {"client-go", scenario.ClientGo}} {
		b.Run(fmt.Sprintf("rollouts=%d/%s", n, side.name), func(b *testing.B) {
			for b.Loop() {
				benchReconcile(b, impls[side.impl], n)
			}
		})
	}
}

func benchReconcile(b *testing.B, im impl, n int) {
	api := fakeapi.New(nil)
	e := env{
		Kube: api.Kube, Walk: api.Walk, Workers: 2,
		Recorder: &recorder{log: &actionLog{}},
		Errorf:   func(string, ...any) {},
		Guard1:   func(f func(any)) func(any) { return f },
		Guard2:   func(f func(any, any)) func(any, any) { return f },
		Queue:    func(q queue) queue { return q },
	}
	sys := im.Build(e)
	ctx, cancel := context.WithCancel(context.Background())
	sys.Start(ctx)
	for !sys.Synced() {
		time.Sleep(time.Millisecond)
	}
	done := make(chan error, 1)
	go func() { done <- sys.Run(ctx) }()
	rollouts := api.Walk.WalkthroughV1alpha1().Rollouts("bench")
	// Wait on a watch, not by polling a list: a poll's own lists and
	// sleeps would be counted in the allocations and the time, and how
	// many there are depends on the machine's load. The fake API's watch
	// panics when its buffer of 100 is full: it is read from the start.
	statuses, err := rollouts.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer statuses.Stop()
	allSynced := make(chan struct{})
	go func() {
		synced := map[string]bool{}
		for ev := range statuses.ResultChan() { // drained until the watch stops
			if r, isRollout := ev.Object.(*v1alpha1.Rollout); isRollout && r.Status.ObservedGeneration == 1 && !synced[r.Name] {
				synced[r.Name] = true
				if len(synced) == n {
					close(allSynced)
				}
			}
		}
	}()
	for i := range n {
		name := fmt.Sprintf("r%d", i)
		if _, err := rollouts.Create(ctx, &v1alpha1.Rollout{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "bench"},
			Spec:       v1alpha1.RolloutSpec{DeploymentName: name, Replicas: ptr.To[int32](1), Image: "nginx:1.27"},
		}, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	select {
	case <-allSynced:
	case <-time.After(30 * time.Second):
		b.Fatalf("the %d rollouts did not all sync in 30 s", n)
	}
	cancel()
	<-done
	sys.Shutdown()
}
