// Your copy of ../parts.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 06`
// checks your work, and `go run ./workshop/cmd/workshop hint 06 N` gives
// exercise N's hint.

package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
)

// The controller is written against the small interfaces in this file,
// never against a concrete informer or queue. Two wirings fill them in:
// wiring/ours with the workshop's chapters 01–05, and wiring/clientgo with
// client-go's generated informers and util/workqueue. The reconcile logic
// is the same code in both, which is what lets the tests compare them.

// Queue is the rate-limited work queue between the event handlers and the
// workers. It holds keys ("namespace/name"), never objects: a key is
// deduplicated while it waits, and the worker reads the newest object from
// the lister when it gets to it.
//
// client-go: util/workqueue/rate_limiting_queue.go (TypedRateLimitingInterface), for string keys
type Queue interface {
	Add(key string)
	AddRateLimited(key string)
	Forget(key string)
	NumRequeues(key string) int
	Get() (key string, shutdown bool)
	Done(key string)
	Len() int
	ShutDown()
	ShutDownWithDrain()
}

// RolloutLister reads Rollouts from an informer's cache.
//
// client-go: none; lister-gen writes its counterpart from the Rollout type,
// pkg/generated/listers/walkthrough/v1alpha1 (RolloutLister)
type RolloutLister interface {
	Get(namespace, name string) (*v1alpha1.Rollout, error)
}

// DeploymentLister reads Deployments from an informer's cache.
//
// client-go: listers/apps/v1/deployment.go (DeploymentLister)
type DeploymentLister interface {
	Get(namespace, name string) (*appsv1.Deployment, error)
}

// DeploymentWriter is the part of the typed Deployment client the
// controller writes with. Reads never go to the API server: they come
// from the listers.
//
// client-go: kubernetes/typed/apps/v1/deployment.go (DeploymentInterface)
type DeploymentWriter interface {
	Create(ctx context.Context, d *appsv1.Deployment, opts metav1.CreateOptions) (*appsv1.Deployment, error)
	Update(ctx context.Context, d *appsv1.Deployment, opts metav1.UpdateOptions) (*appsv1.Deployment, error)
}

// RolloutStatusWriter writes a Rollout's status subresource.
//
// client-go: none; client-gen writes its counterpart from the Rollout type,
// pkg/generated/clientset/versioned/typed/walkthrough/v1alpha1 (RolloutInterface)
type RolloutStatusWriter interface {
	UpdateStatus(ctx context.Context, r *v1alpha1.Rollout, opts metav1.UpdateOptions) (*v1alpha1.Rollout, error)
}

// EventRecorder records a Kubernetes Event about an object.
//
// client-go: tools/record/event.go (EventRecorder)
type EventRecorder interface {
	Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...any)
}

// Config is everything New needs. The wiring makes the informers, the
// queue and the clients; the controller only uses them.
//
// upstream: k8s.io/sample-controller/controller.go (NewController), whose
// parameters these are
type Config struct {
	Rollouts    RolloutLister
	Deployments DeploymentLister
	Queue       Queue
	// DeploymentClient and RolloutClient return the writers for one
	// namespace, as clientset.AppsV1().Deployments(ns) does.
	DeploymentClient func(namespace string) DeploymentWriter
	RolloutClient    func(namespace string) RolloutStatusWriter
	Recorder         EventRecorder
	// Synced reports whether every informer has delivered its first
	// list. Run starts no worker before all say yes.
	Synced []func() bool
	// MaxRetries is how many times a key whose sync keeps failing is
	// retried before the worker gives up on it (zero: DefaultMaxRetries).
	// The rate limiter only spaces the retries out; it never stops them.
	MaxRetries int
	// Trace, when set, hears every step the controller takes; make demo
	// prints them. It must be safe to call from several goroutines.
	Trace func(stage, key, message string)
	// Errorf hears the errors the controller drops or retries (client-go
	// sends these to utilruntime.HandleError). Nil means log nothing.
	Errorf func(format string, args ...any)
	// Crashed, when set, hears a panic from a worker goroutine instead of
	// the program dying of it; the tests use it to report an unfinished
	// exercise. Nil means panics crash the program, as they should.
	Crashed func(value any)
}
