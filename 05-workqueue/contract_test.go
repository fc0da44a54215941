package workqueue_test

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"example.com/walkthrough/workshop/scenario"
)

// This file is the contract the scenarios, the fuzz test, the stress test
// and the benchmarks drive: what a work queue implementation must offer.
// Each implementation (reference, exercise, client-go) has a small adapter
// file that fills in an impl. Items are strings throughout.

// Queue is the part of every queue the tests call. Our TypedInterface[string]
// and client-go's have this method set.
type Queue interface {
	Add(item string)
	Len() int
	Get() (item string, shutdown bool)
	Done(item string)
	ShutDown()
	ShutDownWithDrain()
	ShuttingDown() bool
}

// RateLimiter is a TypedRateLimiter[string], ours or client-go's.
type RateLimiter interface {
	When(item string) time.Duration
	Forget(item string)
	NumRequeues(item string) int
}

// handle is one queue under test. The calls only some kinds of queue have
// are functions, nil when the queue does not have them.
type handle struct {
	Queue
	AddAfter       func(item string, d time.Duration) // delaying and rate-limiting queues
	AddRateLimited func(item string)                  // rate-limiting queues
	Forget         func(item string)
	NumRequeues    func(item string) int
	// Metrics returns the queue's metrics by Prometheus name; nil for an
	// unnamed queue.
	Metrics func() map[string]metric
}

// metric is one metric as a provider saw it: the value of a gauge or a
// counter, the observations of a histogram.
type metric struct {
	Value        float64
	Observations []float64
}

// Queue kinds.
const (
	plainQueue        = "plain"
	delayingQueue     = "delaying"
	rateLimitingQueue = "rate-limiting"
)

// impl is one implementation of the chapter.
type impl struct {
	// NewQueue makes a queue of the given kind. A non-empty name gives it
	// metrics, recorded by a fresh in-memory provider. limiter, made by
	// NewLimiter, is used by rate-limiting queues only.
	NewQueue func(kind, name string, limiter RateLimiter) handle
	// NewLimiter makes a rate limiter from its spec.
	NewLimiter func(spec *limiterSpec) RateLimiter
}

// impls holds every implementation; the adapter files register themselves:
// adapter_<impl>_test.go its queues, limiter_<impl>_test.go its rate
// limiters.
var impls = scenario.Registry[impl]{}

// register adds an implementation's queues under its name.
func register(name string, im impl) {
	im.NewLimiter = impls[name].NewLimiter
	impls[name] = im
}

// registerLimiters adds an implementation's rate limiters under its name.
func registerLimiters(name string, newLimiter func(spec *limiterSpec) RateLimiter) {
	im := impls[name]
	im.NewLimiter = newLimiter
	impls[name] = im
}

// histograms are the metrics shown as observations, not a value.
var histograms = map[string]bool{
	"workqueue_queue_duration_seconds": true,
	"workqueue_work_duration_seconds":  true,
}

// formatMetrics prints metrics sorted by name.
func formatMetrics(ms map[string]metric) string {
	if len(ms) == 0 {
		return "(no metrics)"
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(ms)) {
		m := ms[name]
		if histograms[name] {
			obs := make([]string, len(m.Observations))
			for i, o := range m.Observations {
				obs[i] = strconv.FormatFloat(o, 'g', -1, 64)
			}
			fmt.Fprintf(&b, "%s [%s]\n", name, strings.Join(obs, " "))
			continue
		}
		fmt.Fprintf(&b, "%s %s\n", name, strconv.FormatFloat(m.Value, 'g', -1, 64))
	}
	return b.String()
}

// --- rate limiter notation -------------------------------------------------
//
// Scenarios write a rate limiter as a call:
//
//	exponential(5ms, 1000s)                 per item: base, max
//	fast-slow(1ms, 1s, 2)                   per item: fast, slow, fast attempts
//	bucket(10, 100)                         overall: qps, burst
//	max-of(exponential(5ms, 1000s), bucket(10, 100))
//	max-wait(exponential(1s, 1h), 10s)      a limiter, capped
//	default-controller()                    DefaultTypedControllerRateLimiter
//	default-item-based()                    DefaultTypedItemBasedRateLimiter

// limiterSpec is one parsed limiter: its kind and its arguments, each a
// plain word or another limiter.
type limiterSpec struct {
	Kind string
	Args []limiterArg
}

type limiterArg struct {
	Word    string
	Limiter *limiterSpec
}

// Dur returns argument i as a duration.
func (s *limiterSpec) Dur(i int) time.Duration {
	d, err := time.ParseDuration(s.Args[i].Word)
	if err != nil {
		panic(fmt.Sprintf("%s: argument %d: %v", s.Kind, i, err))
	}
	return d
}

// Int returns argument i as an integer.
func (s *limiterSpec) Int(i int) int {
	n, err := strconv.Atoi(s.Args[i].Word)
	if err != nil {
		panic(fmt.Sprintf("%s: argument %d: %v", s.Kind, i, err))
	}
	return n
}

// Float returns argument i as a float.
func (s *limiterSpec) Float(i int) float64 {
	f, err := strconv.ParseFloat(s.Args[i].Word, 64)
	if err != nil {
		panic(fmt.Sprintf("%s: argument %d: %v", s.Kind, i, err))
	}
	return f
}

// Limiters returns the arguments that are limiters.
func (s *limiterSpec) Limiters() []*limiterSpec {
	var out []*limiterSpec
	for _, a := range s.Args {
		if a.Limiter != nil {
			out = append(out, a.Limiter)
		}
	}
	return out
}

// parseLimiter reads a limiter in the notation above.
func parseLimiter(text string) (*limiterSpec, error) {
	p := &limiterParser{s: strings.Join(strings.Fields(text), "")}
	spec, err := p.limiter()
	if err == nil && p.i != len(p.s) {
		err = fmt.Errorf("unexpected %q after the limiter", p.s[p.i:])
	}
	return spec, err
}

type limiterParser struct {
	s string
	i int
}

func (p *limiterParser) limiter() (*limiterSpec, error) {
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune("(),", rune(p.s[p.i])) {
		p.i++
	}
	spec := &limiterSpec{Kind: p.s[start:p.i]}
	if p.i == len(p.s) || p.s[p.i] != '(' {
		return nil, fmt.Errorf("want %s(...) at %q", spec.Kind, p.s[start:])
	}
	p.i++
	for p.i < len(p.s) && p.s[p.i] != ')' {
		argStart := p.i
		for p.i < len(p.s) && !strings.ContainsRune("(),", rune(p.s[p.i])) {
			p.i++
		}
		if p.i < len(p.s) && p.s[p.i] == '(' {
			p.i = argStart
			child, err := p.limiter()
			if err != nil {
				return nil, err
			}
			spec.Args = append(spec.Args, limiterArg{Limiter: child})
		} else {
			spec.Args = append(spec.Args, limiterArg{Word: p.s[argStart:p.i]})
		}
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
		}
	}
	if p.i == len(p.s) {
		return nil, fmt.Errorf("%s( is never closed", spec.Kind)
	}
	p.i++
	return spec, nil
}

// --- a recording metrics provider for client-go ----------------------------

// recordedMetric is one metric the client-go adapter's provider made. It
// has the methods of every client-go metric interface.
type recordedMetric struct {
	mu *sync.Mutex
	metric
}

func (m *recordedMetric) Inc()          { m.mu.Lock(); m.Value++; m.mu.Unlock() }
func (m *recordedMetric) Dec()          { m.mu.Lock(); m.Value--; m.mu.Unlock() }
func (m *recordedMetric) Set(v float64) { m.mu.Lock(); m.Value = v; m.mu.Unlock() }
func (m *recordedMetric) Observe(v float64) {
	m.mu.Lock()
	m.Observations = append(m.Observations, v)
	m.mu.Unlock()
}

// recorder keeps the metrics of one queue by Prometheus name.
type recorder struct {
	mu      sync.Mutex
	metrics map[string]*recordedMetric
}

func newRecorder() *recorder { return &recorder{metrics: map[string]*recordedMetric{}} }

func (r *recorder) get(name string) *recordedMetric {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.metrics[name] == nil {
		r.metrics[name] = &recordedMetric{mu: &r.mu}
	}
	return r.metrics[name]
}

func (r *recorder) snapshot() map[string]metric {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]metric{}
	for name, m := range r.metrics {
		out[name] = metric{Value: m.Value, Observations: slices.Clone(m.Observations)}
	}
	return out
}
