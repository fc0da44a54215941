package workqueue_test

import (
	"fmt"

	"golang.org/x/time/rate"
	"k8s.io/client-go/util/workqueue"

	"example.com/walkthrough/workshop/scenario"
)

// The adapter for the real client-go: the goldens are recorded through it.
// It is hand-written, not generated from the reference adapter
// (//exgen:clientgo): client-go has no in-memory MetricsProvider (ours
// has NewMemoryProvider), so this one records the metrics itself
// (clientGoProvider).
func init() {
	register(scenario.ClientGo, impl{
		NewLimiter: func(s *limiterSpec) RateLimiter { return clientGoLimiter(s) },
		NewQueue: func(kind, name string, limiter *limiterSpec) handle {
			var provider workqueue.MetricsProvider // nil: the global one, which reports nothing
			var metrics func() map[string]metric
			if name != "" {
				rec := newRecorder()
				provider = clientGoProvider{rec}
				metrics = rec.snapshot
			}
			switch kind {
			case plainQueue:
				q := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[string]{Name: name, MetricsProvider: provider})
				return handle{Queue: q, Metrics: metrics}
			case delayingQueue:
				q := workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[string]{Name: name, MetricsProvider: provider})
				return handle{Queue: q, AddAfter: q.AddAfter, Metrics: metrics}
			case rateLimitingQueue:
				q := workqueue.NewTypedRateLimitingQueueWithConfig(clientGoLimiter(limiter), workqueue.TypedRateLimitingQueueConfig[string]{Name: name, MetricsProvider: provider})
				return handle{Queue: q, AddAfter: q.AddAfter, AddRateLimited: q.AddRateLimited,
					Forget: q.Forget, NumRequeues: q.NumRequeues, Metrics: metrics}
			}
			panic(fmt.Sprintf("unknown queue kind %q", kind))
		},
	})
}

func clientGoLimiter(s *limiterSpec) workqueue.TypedRateLimiter[string] {
	switch s.Kind {
	case "exponential":
		return workqueue.NewTypedItemExponentialFailureRateLimiter[string](s.Dur(0), s.Dur(1))
	case "fast-slow":
		return workqueue.NewTypedItemFastSlowRateLimiter[string](s.Dur(0), s.Dur(1), s.Int(2))
	case "bucket":
		return &workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(s.Float(0)), s.Int(1))}
	case "max-of":
		var limiters []workqueue.TypedRateLimiter[string]
		for _, c := range s.Limiters() {
			limiters = append(limiters, clientGoLimiter(c))
		}
		return workqueue.NewTypedMaxOfRateLimiter(limiters...)
	case "max-wait":
		return workqueue.NewTypedWithMaxWaitRateLimiter(clientGoLimiter(s.Args[0].Limiter), s.Dur(1))
	case "default-controller":
		return workqueue.DefaultTypedControllerRateLimiter[string]()
	case "default-item-based":
		return workqueue.DefaultTypedItemBasedRateLimiter[string]()
	}
	panic(fmt.Sprintf("unknown rate limiter %q", s.Kind))
}

// clientGoProvider records a client-go queue's metrics under their
// Prometheus names (k8s.io/component-base/metrics/prometheus/workqueue).
type clientGoProvider struct{ rec *recorder }

func (p clientGoProvider) NewDepthMetric(string) workqueue.GaugeMetric {
	return p.rec.get("workqueue_depth")
}
func (p clientGoProvider) NewAddsMetric(string) workqueue.CounterMetric {
	return p.rec.get("workqueue_adds_total")
}
func (p clientGoProvider) NewLatencyMetric(string) workqueue.HistogramMetric {
	return p.rec.get("workqueue_queue_duration_seconds")
}
func (p clientGoProvider) NewWorkDurationMetric(string) workqueue.HistogramMetric {
	return p.rec.get("workqueue_work_duration_seconds")
}
func (p clientGoProvider) NewUnfinishedWorkSecondsMetric(string) workqueue.SettableGaugeMetric {
	return p.rec.get("workqueue_unfinished_work_seconds")
}
func (p clientGoProvider) NewLongestRunningProcessorSecondsMetric(string) workqueue.SettableGaugeMetric {
	return p.rec.get("workqueue_longest_running_processor_seconds")
}
func (p clientGoProvider) NewRetriesMetric(string) workqueue.CounterMetric {
	return p.rec.get("workqueue_retries_total")
}
