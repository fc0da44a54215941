package controller_test

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"

	walkfake "example.com/walkthrough/06-controller/pkg/generated/clientset/versioned/fake"
	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// This file is the contract the scenarios drive. Each implementation
// (reference, exercise, client-go) has an adapter file that turns an env
// (two fake clientsets and the hooks below) into a running system: a
// controller wired to its informers and queue.

// env is what the driver hands an adapter.
type env struct {
	Kube *kubefake.Clientset
	Walk *walkfake.Clientset
	// Workers is how many workers Run starts.
	Workers int
	// MaxRetries is the controller's MaxRetries (zero: the default).
	MaxRetries int
	// Resync is every informer's resync period (zero: none).
	Resync time.Duration
	// Recorder records Events into the step's log.
	Recorder *recorder
	// Errorf hears the errors the controller reports (not part of the trace).
	Errorf func(format string, args ...any)
	// Crashed hears a worker's panic; Guard1/Guard2 wrap a handler so a
	// panic in it is caught the same way. The driver re-raises the first
	// one in the step, so an unfinished exercise is reported, not crashed on.
	Crashed func(value any)
	Guard1  func(func(any)) func(any)
	Guard2  func(func(any, any)) func(any, any)
	// Queue wraps the wiring's queue so the driver sees what is added.
	Queue func(q queue) queue
}

// queue is the controller's Queue interface, restated here so the test
// code depends on no implementation.
type queue interface {
	Add(key string)
	AddRateLimited(key string)
	Forget(key string)
	NumRequeues(key string) int
	Get() (key string, shutdown bool)
	Done(key string)
	Len() int
	ShutDown()
	ShutDownWithDrain()
	ShuttingDown() bool
}

// system is one wired controller.
type system struct {
	// Start starts the informers; Synced reports whether they have synced.
	Start  func(ctx context.Context)
	Synced func() bool
	// Run runs the controller until ctx ends (controller.Run).
	Run func(ctx context.Context) error
	// Sync runs one key's sync directly (controller.Sync).
	Sync func(ctx context.Context, key string) error
	// Shutdown waits for the informers to stop after their ctx ended.
	Shutdown func()
	// RolloutDelete and DeploymentDelete are the registered delete
	// handlers, and Tombstone builds this implementation's tombstone.
	RolloutDelete, DeploymentDelete func(obj any)
	Tombstone                       func(key string, obj any) any
}

// impl is one implementation of the chapter.
type impl struct {
	Build func(e env) system
}

// impls holds every implementation; the adapter files register themselves.
var impls = scenario.Registry[impl]{}

// register adds an implementation under its name.
func register(name string, im impl) { impls[name] = im }

// recorder is a thread-safe event recorder that writes each Event as a
// line of the step's log, like client-go's FakeRecorder but keyed by the
// object so the log can be grouped.
type recorder struct {
	log *actionLog
}

func (r *recorder) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...any) {
	key := "?"
	if m, err := meta.Accessor(object); err == nil {
		key = m.GetNamespace() + "/" + m.GetName()
	}
	r.log.add(key, "event %s %s %s: %s", eventtype, reason, key, fmt.Sprintf(messageFmt, args...))
}

// actionLog collects the lines of one step: the controller's writes and
// its Events, each tagged with the Rollout it is about.
type actionLog struct{ notation.Log[logLine] }

type logLine struct {
	rollout string // the "namespace/name" of the Rollout the line concerns
	text    string
}

func (l *actionLog) add(rollout, format string, args ...any) {
	l.Append(logLine{rollout, fmt.Sprintf(format, args...)})
}
