package watchserver_test

import (
	"context"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	ws "example.com/walkthrough/07-watchserver"
)

// TestLeaderElectionOnOurLeases runs client-go's leader election, as a
// controller's replicas do, with two candidates on our server's Leases: one
// leads; when it stops, it gives the Lease up (ReleaseOnCancel) and the
// other takes it over, which the Lease's holder and transitions record. It
// needs what a Lease lock needs of a server: a GET that is a 404 before the
// first candidate creates it, a create that is a 409 for the one that
// loses the race, and an update that is a 409 when it carries a
// resourceVersion someone else replaced.
func TestLeaderElectionOnOurLeases(t *testing.T) {
	t.Parallel()
	srv := startServer(t, ws.CacheOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var mu sync.Mutex
	var leaders []string // each candidate as it starts leading
	led := make(chan string, 2)
	run := func(ctx context.Context, id string) <-chan struct{} {
		done := make(chan struct{})
		lock := &resourcelock.LeaseLock{
			LeaseMeta:  metav1.ObjectMeta{Namespace: "default", Name: "rollout-controller"},
			Client:     srv.cs.CoordinationV1(),
			LockConfig: resourcelock.ResourceLockConfig{Identity: id},
		}
		go func() {
			defer close(done)
			leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
				Lock: lock, ReleaseOnCancel: true, Name: id,
				LeaseDuration: 2 * time.Second, RenewDeadline: 1500 * time.Millisecond, RetryPeriod: 100 * time.Millisecond,
				Callbacks: leaderelection.LeaderCallbacks{
					OnStartedLeading: func(context.Context) {
						mu.Lock()
						leaders = append(leaders, id)
						mu.Unlock()
						led <- id
					},
					OnStoppedLeading: func() {},
				},
			})
		}()
		return done
	}
	ctxA, stopA := context.WithCancel(ctx)
	ctxB, stopB := context.WithCancel(ctx)
	defer stopB()
	doneA, doneB := run(ctxA, "a"), run(ctxB, "b")

	first := <-led
	if first != "a" {
		stopA, stopB = stopB, stopA
		doneA, doneB = doneB, doneA
	}
	lease, err := srv.cs.CoordinationV1().Leases("default").Get(ctx, "rollout-controller", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := *lease.Spec.HolderIdentity; got != first {
		t.Fatalf("%s leads, but the Lease's holder is %q", first, got)
	}
	select {
	case second := <-led:
		t.Fatalf("%s leads beside %s", second, first)
	case <-time.After(3 * time.Second): // longer than a lease: the leader renewed it
	}

	stopA() // the leader stops, and gives the Lease up as it goes
	<-doneA
	var second string
	select {
	case second = <-led:
	case <-ctx.Done():
		t.Fatalf("after %s stopped, no candidate took the Lease over", first)
	}
	lease, err = srv.cs.CoordinationV1().Leases("default").Get(ctx, "rollout-controller", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := *lease.Spec.HolderIdentity; got != second || second == first {
		t.Errorf("holder %q after %s stopped, taken over by %s", got, first, second)
	}
	if got := *lease.Spec.LeaseTransitions; got != 1 {
		t.Errorf("leaseTransitions %d; want 1, one hand-over", got)
	}
	stopB()
	<-doneB
	mu.Lock()
	defer mu.Unlock()
	t.Logf("leaders in turn: %v", leaders)
}
