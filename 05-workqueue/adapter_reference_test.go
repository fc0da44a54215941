package workqueue_test

import (
	"fmt"

	ours "example.com/walkthrough/05-workqueue"
	"example.com/walkthrough/workshop/scenario"
)

// The adapter for our own package's queues (its rate limiters are in
// limiter_reference_test.go). `make exercises` derives the exercise
// adapter from this file by pointing it at the exercise/ copy, so keep
// everything inside init: the twin must not redeclare anything.
func init() {
	register(scenario.Reference, impl{
		NewQueue: func(kind, name string, limiter RateLimiter) handle {
			var provider ours.MetricsProvider // nil: the global one, which reports nothing
			var metrics func() map[string]metric
			if name != "" {
				p := ours.NewMemoryProvider()
				provider = p
				metrics = func() map[string]metric {
					out := map[string]metric{}
					for _, n := range p.Names(name) {
						out[n] = metric{Value: p.Value(name, n), Observations: p.Observations(name, n)}
					}
					return out
				}
			}
			switch kind {
			case plainQueue:
				q := ours.NewTypedWithConfig(ours.TypedQueueConfig[string]{Name: name, MetricsProvider: provider})
				return handle{Queue: q, Metrics: metrics}
			case delayingQueue:
				q := ours.NewTypedDelayingQueueWithConfig(ours.TypedDelayingQueueConfig[string]{Name: name, MetricsProvider: provider})
				return handle{Queue: q, AddAfter: q.AddAfter, Metrics: metrics}
			case rateLimitingQueue:
				q := ours.NewTypedRateLimitingQueueWithConfig(limiter, ours.TypedRateLimitingQueueConfig[string]{Name: name, MetricsProvider: provider})
				return handle{Queue: q, AddAfter: q.AddAfter, AddRateLimited: q.AddRateLimited,
					Forget: q.Forget, NumRequeues: q.NumRequeues, Metrics: metrics}
			}
			panic(fmt.Sprintf("unknown queue kind %q", kind))
		},
	})
}
