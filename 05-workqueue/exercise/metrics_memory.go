// Your copy of ../metrics_memory.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 05`
// checks your work, and `go run ./workshop/cmd/workshop hint 05 N` gives
// exercise N's hint.

package workqueue

import (
	"maps"
	"slices"
	"sync"

	"example.com/walkthrough/workshop/todo"
)

// MemoryProvider is a MetricsProvider that keeps every number in memory,
// by queue name and metric name, for a demo or a test to read. Two queues
// with the same name share their metrics, as they would in Prometheus.
//
// client-go: none; Kubernetes components register
// k8s.io/component-base/metrics/prometheus/workqueue instead.
type MemoryProvider struct {
	mu sync.Mutex
	// metrics maps a queue name to its metrics by metric name.
	metrics map[string]map[string]*MemoryMetric
}

// NewMemoryProvider returns a provider with no metrics yet.
func NewMemoryProvider() *MemoryProvider {
	return &MemoryProvider{metrics: map[string]map[string]*MemoryMetric{}}
}

// MemoryMetric is one metric of one queue: a value for gauges and
// counters, the list of observations for histograms.
//
// client-go: none; see MemoryProvider.
type MemoryMetric struct {
	mu           *sync.Mutex // the provider's
	value        float64
	observations []float64
}

func (m *MemoryMetric) Inc()          { m.add(1) }
func (m *MemoryMetric) Dec()          { m.add(-1) }
func (m *MemoryMetric) Set(v float64) { m.mu.Lock(); m.value = v; m.mu.Unlock() }
func (m *MemoryMetric) Observe(v float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.observations = append(m.observations, v)
}

func (m *MemoryMetric) add(d float64) { m.mu.Lock(); m.value += d; m.mu.Unlock() }

// metric returns the metric of a queue, creating it the first time.
func (p *MemoryProvider) metric(queue, name string) *MemoryMetric {
	p.mu.Lock()
	defer p.mu.Unlock()
	byName := p.metrics[queue]
	if byName == nil {
		byName = map[string]*MemoryMetric{}
		p.metrics[queue] = byName
	}
	m := byName[name]
	if m == nil {
		m = &MemoryMetric{mu: &p.mu}
		byName[name] = m
	}
	return m
}

func (p *MemoryProvider) NewDepthMetric(queue string) GaugeMetric {
	return p.metric(queue, DepthMetric)
}
func (p *MemoryProvider) NewAddsMetric(queue string) CounterMetric {
	return p.metric(queue, AddsMetric)
}
func (p *MemoryProvider) NewLatencyMetric(queue string) HistogramMetric {
	return p.metric(queue, LatencyMetric)
}
func (p *MemoryProvider) NewWorkDurationMetric(queue string) HistogramMetric {
	return p.metric(queue, WorkDurationMetric)
}
func (p *MemoryProvider) NewUnfinishedWorkSecondsMetric(queue string) SettableGaugeMetric {
	return p.metric(queue, UnfinishedWorkSecondsMetric)
}
func (p *MemoryProvider) NewLongestRunningProcessorSecondsMetric(queue string) SettableGaugeMetric {
	return p.metric(queue, LongestRunningProcessorMetric)
}
func (p *MemoryProvider) NewRetriesMetric(queue string) CounterMetric {
	return p.metric(queue, RetriesMetric)
}

// Names lists the metrics a queue has, sorted.
func (p *MemoryProvider) Names(queue string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Sorted(maps.Keys(p.metrics[queue]))
}

// Value is a gauge's or a counter's value; 0 for a metric never made.
func (p *MemoryProvider) Value(queue, name string) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m := p.metrics[queue][name]; m != nil {
		return m.value
	}
	return 0
}

// Observations is a histogram's observations, oldest first.
func (p *MemoryProvider) Observations(queue, name string) []float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m := p.metrics[queue][name]; m != nil {
		return slices.Clone(m.observations)
	}
	return nil
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = maps.Keys[map[int]int, int, int]
	_ = slices.Sorted[int]
)
