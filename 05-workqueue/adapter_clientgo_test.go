package workqueue_test

import (
	"fmt"

	"k8s.io/client-go/util/workqueue"

	"example.com/walkthrough/workshop/scenario"
)

// The adapter for the real client-go: the goldens are recorded through it.
// It is hand-written, not generated from the reference adapter
// (//exgen:clientgo): client-go has no in-memory MetricsProvider (ours
// has NewMemoryProvider), so this one records the metrics itself
// (clientGoProvider). Its rate limiters, which are ours renamed, are
// generated: limiter_clientgo_test.go.
func init() {
	register(scenario.ClientGo, impl{
		NewQueue: func(kind, name string, limiter RateLimiter) handle {
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
				q := workqueue.NewTypedRateLimitingQueueWithConfig(limiter, workqueue.TypedRateLimitingQueueConfig[string]{Name: name, MetricsProvider: provider})
				return handle{Queue: q, AddAfter: q.AddAfter, AddRateLimited: q.AddRateLimited,
					Forget: q.Forget, NumRequeues: q.NumRequeues, Metrics: metrics}
			}
			panic(fmt.Sprintf("unknown queue kind %q", kind))
		},
	})
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
