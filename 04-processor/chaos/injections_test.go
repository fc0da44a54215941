package chaos_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"example.com/walkthrough/workshop/cluster"
)

// The faults each table injects while the writers run. Each returns how many rounds it
// applied, with every fault undone.

// jitter is a random duration in [min, max).
func jitter(min, max time.Duration) time.Duration {
	return min + time.Duration(rand.Int64N(int64(max-min)))
}

// cutConnections, for 12 s, resets every connection, stalls them all, or truncates the
// next chunk on each, in turn.
func cutConnections(ctx context.Context, t *testing.T, e *env) int {
	rounds := 0
	for end := time.Now().Add(12 * time.Second); time.Now().Before(end); rounds++ {
		switch rounds % 3 {
		case 0:
			t.Logf("trace: reset %d connections", e.proxy.ResetAll())
		case 1:
			e.proxy.Stall(jitter(200*time.Millisecond, 1500*time.Millisecond))
		case 2:
			t.Logf("trace: truncating the next chunk on %d connections", e.proxy.Truncate())
		}
		sleepCtx(ctx, jitter(100*time.Millisecond, 800*time.Millisecond))
	}
	return rounds
}

// restart stops a component of the control plane for down under the running caches.
func restart(c cluster.Component, down time.Duration) func(context.Context, *testing.T, *env) int {
	return func(ctx context.Context, t *testing.T, e *env) int {
		sleepCtx(ctx, 2*time.Second)
		t.Logf("trace: restarting %s (down %s) under the running informers", c, down)
		if err := cluster.Restart(ctx, e.paths, c, down, false); err != nil {
			t.Fatalf("restarting %s: %v", c, err)
		}
		t.Logf("trace: %s is back", c)
		sleepCtx(ctx, 2*time.Second)
		return 1
	}
}

// fallBehind, twice, holds every stream while the writers go on, compacts etcd past where
// the clients are, and resets their connections: they come back behind the compaction.
func fallBehind(ctx context.Context, t *testing.T, e *env) int {
	rounds := 0
	for range 2 {
		e.proxy.Stall(3 * time.Second)
		sleepCtx(ctx, 2*time.Second)
		rev, err := cluster.CompactEtcd(ctx, e.etcd)
		if err != nil {
			t.Fatalf("compacting: %v", err)
		}
		t.Logf("trace: compacted etcd at revision %d while the clients were stalled; resetting their connections", rev)
		e.proxy.ResetAll()
		sleepCtx(ctx, 2*time.Second)
		rounds++
	}
	return rounds
}

// churn only lets the writers run (the row's minOps keeps them going): a flood of
// changes, with one slow handler on each informer.
func churn(ctx context.Context, t *testing.T, e *env) int {
	sleepCtx(ctx, 20*time.Second)
	return 1
}

// badData, for 8 s, corrupts or truncates the next chunk on every connection, in turn.
func badData(ctx context.Context, t *testing.T, e *env) int {
	rounds := 0
	for end := time.Now().Add(8 * time.Second); time.Now().Before(end); rounds++ {
		if rounds%2 == 0 {
			t.Logf("trace: corrupting the next chunk on %d connections", e.proxy.Corrupt())
		} else {
			e.proxy.Truncate()
		}
		sleepCtx(ctx, jitter(300*time.Millisecond, 900*time.Millisecond))
	}
	return rounds
}
