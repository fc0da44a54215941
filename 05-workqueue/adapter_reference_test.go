package workqueue_test

import (
	"fmt"

	"golang.org/x/time/rate"

	ours "example.com/walkthrough/05-workqueue"
	"example.com/walkthrough/workshop/scenario"
)

// The adapter for our own package. `make exercises` derives the exercise
// adapter from this file by pointing it at the exercise/ copy, so keep
// everything inside init: the twin must not redeclare anything.
func init() {
	var build func(s *limiterSpec) ours.TypedRateLimiter[string]
	build = func(s *limiterSpec) ours.TypedRateLimiter[string] {
		switch s.Kind {
		case "exponential":
			return ours.NewTypedItemExponentialFailureRateLimiter[string](s.Dur(0), s.Dur(1))
		case "fast-slow":
			return ours.NewTypedItemFastSlowRateLimiter[string](s.Dur(0), s.Dur(1), s.Int(2))
		case "bucket":
			return &ours.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(s.Float(0)), s.Int(1))}
		case "max-of":
			var limiters []ours.TypedRateLimiter[string]
			for _, c := range s.Limiters() {
				limiters = append(limiters, build(c))
			}
			return ours.NewTypedMaxOfRateLimiter(limiters...)
		case "max-wait":
			return ours.NewTypedWithMaxWaitRateLimiter(build(s.Args[0].Limiter), s.Dur(1))
		case "default-controller":
			return ours.DefaultTypedControllerRateLimiter[string]()
		case "default-item-based":
			return ours.DefaultTypedItemBasedRateLimiter[string]()
		}
		panic(fmt.Sprintf("unknown rate limiter %q", s.Kind))
	}
	register(scenario.Reference, impl{
		NewLimiter: func(s *limiterSpec) RateLimiter { return build(s) },
		NewQueue: func(kind, name string, limiter *limiterSpec) handle {
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
				q := ours.NewTypedRateLimitingQueueWithConfig(build(limiter), ours.TypedRateLimitingQueueConfig[string]{Name: name, MetricsProvider: provider})
				return handle{Queue: q, AddAfter: q.AddAfter, AddRateLimited: q.AddRateLimited,
					Forget: q.Forget, NumRequeues: q.NumRequeues, Metrics: metrics}
			}
			panic(fmt.Sprintf("unknown queue kind %q", kind))
		},
	})
}
