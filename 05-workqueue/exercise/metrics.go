// Your copy of ../metrics.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 05`
// checks your work, and `go run ./workshop/cmd/workshop hint 05 N` gives
// exercise N's hint.

package workqueue

import (
	"sync"
	"time"

	"example.com/walkthrough/workshop/todo"
)

// The names of a queue's metrics, as Kubernetes components export them to
// Prometheus (every one carries a "name" label: the queue's name). The
// provider decides what to do with them; MemoryProvider files its numbers
// under these names.
//
// upstream: k8s.io/component-base/metrics/prometheus/workqueue/metrics.go
// (WorkQueueSubsystem, DepthKey, AddsKey): the names come from there
const (
	DepthMetric                   = "workqueue_depth"                             // gauge: items waiting for a worker
	AddsMetric                    = "workqueue_adds_total"                        // counter: items that became dirty
	LatencyMetric                 = "workqueue_queue_duration_seconds"            // histogram: first Add to Get
	WorkDurationMetric            = "workqueue_work_duration_seconds"             // histogram: Get to Done
	UnfinishedWorkSecondsMetric   = "workqueue_unfinished_work_seconds"           // gauge: sum of the ages of held items
	LongestRunningProcessorMetric = "workqueue_longest_running_processor_seconds" // gauge: age of the oldest held item
	RetriesMetric                 = "workqueue_retries_total"                     // counter: AddAfter calls
)

// GaugeMetric goes up and down (the depth).
//
// client-go: util/workqueue/metrics.go (GaugeMetric)
type GaugeMetric interface {
	Inc()
	Dec()
}

// SettableGaugeMetric is set to a value (the unfinished-work gauges).
//
// client-go: util/workqueue/metrics.go (SettableGaugeMetric)
type SettableGaugeMetric interface {
	Set(float64)
}

// CounterMetric only goes up (adds, retries).
//
// client-go: util/workqueue/metrics.go (CounterMetric)
type CounterMetric interface {
	Inc()
}

// HistogramMetric records observations, in seconds (latency, work duration).
//
// client-go: util/workqueue/metrics.go (HistogramMetric)
type HistogramMetric interface {
	Observe(float64)
}

// MetricsProvider makes the metrics of one named queue. The queue calls
// each method once, when it is created, with its name.
//
// client-go: util/workqueue/metrics.go (MetricsProvider)
type MetricsProvider interface {
	NewDepthMetric(name string) GaugeMetric
	NewAddsMetric(name string) CounterMetric
	NewLatencyMetric(name string) HistogramMetric
	NewWorkDurationMetric(name string) HistogramMetric
	NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric
	NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric
	NewRetriesMetric(name string) CounterMetric
}

// noopProvider is the default: queues that use it report nothing, and
// skip the bookkeeping altogether.
//
// client-go: util/workqueue/metrics.go (noopMetricsProvider)
type noopProvider struct{}

// noopMetric is every metric the noop provider makes: it records nothing.
//
// client-go: util/workqueue/metrics.go (noopMetric)
type noopMetric struct{}

func (noopMetric) Inc()            {}
func (noopMetric) Dec()            {}
func (noopMetric) Set(float64)     {}
func (noopMetric) Observe(float64) {}

func (noopProvider) NewDepthMetric(string) GaugeMetric                         { return noopMetric{} }
func (noopProvider) NewAddsMetric(string) CounterMetric                        { return noopMetric{} }
func (noopProvider) NewLatencyMetric(string) HistogramMetric                   { return noopMetric{} }
func (noopProvider) NewWorkDurationMetric(string) HistogramMetric              { return noopMetric{} }
func (noopProvider) NewUnfinishedWorkSecondsMetric(string) SettableGaugeMetric { return noopMetric{} }
func (noopProvider) NewLongestRunningProcessorSecondsMetric(string) SettableGaugeMetric {
	return noopMetric{}
}
func (noopProvider) NewRetriesMetric(string) CounterMetric { return noopMetric{} }

var (
	globalProvider     MetricsProvider = noopProvider{}
	setGlobalProvider  sync.Once
	globalProviderLock sync.Mutex
)

// SetProvider sets the provider of every queue created afterwards without
// one of its own. Only the first call counts: a process exports its
// metrics one way.
//
// client-go: util/workqueue/metrics.go (SetProvider)
func SetProvider(p MetricsProvider) {
	setGlobalProvider.Do(func() {
		globalProviderLock.Lock()
		defer globalProviderLock.Unlock()
		globalProvider = p
	})
}

func defaultProvider() MetricsProvider {
	globalProviderLock.Lock()
	defer globalProviderLock.Unlock()
	return globalProvider
}

// queueMetrics is what the queue tells its metrics. It is called with the
// queue's lock held, so implementations need no lock of their own.
//
// client-go: util/workqueue/metrics.go (queueMetrics)
type queueMetrics[T comparable] interface {
	add(item T)  // item became dirty
	get(item T)  // a worker got item
	done(item T) // the worker finished item
	updateUnfinishedWork()
}

// noMetrics is what an unnamed queue, or one with the noop provider, uses.
//
// client-go: util/workqueue/metrics.go (noMetrics)
type noMetrics[T comparable] struct{}

func (noMetrics[T]) add(T)                 {}
func (noMetrics[T]) get(T)                 {}
func (noMetrics[T]) done(T)                {}
func (noMetrics[T]) updateUnfinishedWork() {}

// newQueueMetrics returns the metrics of a queue named name.
func newQueueMetrics[T comparable](p MetricsProvider, name string) queueMetrics[T] {
	if p == nil {
		p = defaultProvider()
	}
	if name == "" || p == MetricsProvider(noopProvider{}) {
		return noMetrics[T]{}
	}
	return &namedMetrics[T]{
		depth:          p.NewDepthMetric(name),
		adds:           p.NewAddsMetric(name),
		latency:        p.NewLatencyMetric(name),
		workDuration:   p.NewWorkDurationMetric(name),
		unfinishedWork: p.NewUnfinishedWorkSecondsMetric(name),
		longestRunning: p.NewLongestRunningProcessorSecondsMetric(name),
		addedAt:        map[T]time.Time{},
		gotAt:          map[T]time.Time{},
	}
}

// namedMetrics keeps the times it needs to turn queue events into
// durations.
//
// client-go: util/workqueue/metrics.go (defaultQueueMetrics)
type namedMetrics[T comparable] struct {
	depth          GaugeMetric
	adds           CounterMetric
	latency        HistogramMetric
	workDuration   HistogramMetric
	unfinishedWork SettableGaugeMetric
	longestRunning SettableGaugeMetric

	// addedAt holds when a dirty item was first added: the latency runs
	// from there, however many times it was added since.
	addedAt map[T]time.Time
	// gotAt holds when a worker got each item it still holds.
	gotAt map[T]time.Time
}

// add counts an add, raises the depth, and notes when the item was first
// added.
func (m *namedMetrics[T]) add(item T) {
	m.adds.Inc()
	m.depth.Inc()
	if _, ok := m.addedAt[item]; !ok {
		m.addedAt[item] = time.Now()
	}
}

// get lowers the depth and observes how long the item waited since it was
// first added.
func (m *namedMetrics[T]) get(item T) {
	m.depth.Dec()
	m.gotAt[item] = time.Now()
	if t, ok := m.addedAt[item]; ok {
		m.latency.Observe(time.Since(t).Seconds())
		delete(m.addedAt, item)
	}
}

// done observes how long the item was worked on since get.
func (m *namedMetrics[T]) done(item T) {
	if t, ok := m.gotAt[item]; ok {
		m.workDuration.Observe(time.Since(t).Seconds())
		delete(m.gotAt, item)
	}
}

// updateUnfinishedWork sets the gauges of the work in flight: the ages of
// the items workers hold, summed, and the oldest.
func (m *namedMetrics[T]) updateUnfinishedWork() {
	var total, oldest float64
	for _, t := range m.gotAt {
		age := time.Since(t).Seconds()
		total += age
		oldest = max(oldest, age)
	}
	m.unfinishedWork.Set(total)
	m.longestRunning.Set(oldest)
}

// newRetriesMetric returns the retries counter of a delaying queue named
// name, or nil for an unnamed one.
func newRetriesMetric(p MetricsProvider, name string) CounterMetric {
	if name == "" {
		return nil
	}
	if p == nil {
		p = defaultProvider()
	}
	return p.NewRetriesMetric(name)
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
