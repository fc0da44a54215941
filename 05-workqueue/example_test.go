package workqueue_test

import (
	"fmt"
	"time"

	"example.com/walkthrough/05-workqueue"
)

// Example is a controller's worker loop in miniature: Get a key, reconcile
// it, AddRateLimited on failure or Forget on success, Done either way. The
// flaky key fails twice and comes back after 1ms, then 2ms. The in-memory
// provider shows what the queue reported.
func Example() {
	metrics := workqueue.NewMemoryProvider()
	queue := workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "demo", MetricsProvider: metrics},
	)
	failures := map[string]int{"ns/flaky": 2}

	// ns/ok is added twice before a worker looks: it is reconciled once.
	queue.Add("ns/ok")
	queue.Add("ns/flaky")
	queue.Add("ns/ok")

	for range 4 {
		key, _ := queue.Get()
		if failures[key] > 0 {
			failures[key]--
			queue.AddRateLimited(key)
			fmt.Printf("%s failed (%d so far)\n", key, queue.NumRequeues(key))
		} else {
			fmt.Printf("%s reconciled\n", key)
			queue.Forget(key)
		}
		queue.Done(key)
	}
	queue.ShutDown()

	fmt.Println("adds:", metrics.Value("demo", workqueue.AddsMetric))
	fmt.Println("retries:", metrics.Value("demo", workqueue.RetriesMetric))
	fmt.Println("depth:", metrics.Value("demo", workqueue.DepthMetric))
	fmt.Println("work durations observed:", len(metrics.Observations("demo", workqueue.WorkDurationMetric)))
	// Output:
	// ns/ok reconciled
	// ns/flaky failed (1 so far)
	// ns/flaky failed (2 so far)
	// ns/flaky reconciled
	// adds: 4
	// retries: 2
	// depth: 0
	// work durations observed: 4
}
