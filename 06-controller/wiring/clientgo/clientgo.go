// Package clientgo (wiring/clientgo) wires the controller to client-go itself: the
// generated Rollout informer and lister, client-go's Deployment informer
// and lister, and util/workqueue. It is the twin of wiring/ours. The
// scenario goldens are recorded through it, so whatever the twin does is,
// by definition, what the workshop's own parts must do.
package clientgo

import (
	"context"
	"time"

	"golang.org/x/time/rate"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/06-controller/pkg/generated/clientset/versioned"
	walkinformers "example.com/walkthrough/06-controller/pkg/generated/informers/externalversions"
	walklisters "example.com/walkthrough/06-controller/pkg/generated/listers/walkthrough/v1alpha1"
)

// Handlers are the controller's informer handlers.
type Handlers struct {
	RolloutAdd, DeploymentAdd       func(obj any)
	RolloutUpdate, DeploymentUpdate func(old, new any)
	RolloutDelete, DeploymentDelete func(obj any)
}

// Wiring holds the informers and the queue of one controller.
type Wiring struct {
	kubeFactory informers.SharedInformerFactory
	walkFactory walkinformers.SharedInformerFactory
	rollouts    cache.SharedIndexInformer
	deployments cache.SharedIndexInformer
	rolloutList walklisters.RolloutLister
	deployList  appslisters.DeploymentLister
	queue       workqueue.TypedRateLimitingInterface[string]
}

// NewRateLimiter is the sample-controller's limiter: per-key exponential
// backoff from 5 ms to 1000 s, and an overall bucket of 50 qps, burst 300.
func NewRateLimiter() workqueue.TypedRateLimiter[string] {
	return workqueue.NewTypedMaxOfRateLimiter(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second),
		&workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(50), 300)},
	)
}

// Options tune a Wiring: the part of wiring/ours's Options the twin
// has.
type Options struct {
	// Resync is every informer's resync period; 0 turns resync off.
	Resync time.Duration
}

// New makes the informers (one factory per clientset) and the queue.
func New(kube kubernetes.Interface, walk versioned.Interface, opts Options) *Wiring {
	w := &Wiring{
		kubeFactory: informers.NewSharedInformerFactory(kube, opts.Resync),
		walkFactory: walkinformers.NewSharedInformerFactory(walk, opts.Resync),
	}
	ro := w.walkFactory.Walkthrough().V1alpha1().Rollouts()
	de := w.kubeFactory.Apps().V1().Deployments()
	w.rollouts, w.rolloutList = ro.Informer(), ro.Lister()
	w.deployments = de.Informer()
	w.deployList = de.Lister()
	w.queue = workqueue.NewTypedRateLimitingQueueWithConfig(NewRateLimiter(),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "rollouts"})
	return w
}

// Rollouts is the Rollout lister, keyed by namespace and name.
func (w *Wiring) Rollouts() RolloutLister { return RolloutLister{w.rolloutList} }

// Deployments is the Deployment lister, keyed by namespace and name.
func (w *Wiring) Deployments() DeploymentLister { return DeploymentLister{w.deployList} }

// Queue is the controller's work queue.
func (w *Wiring) Queue() workqueue.TypedRateLimitingInterface[string] { return w.queue }

// Synced reports each informer's HasSynced.
func (w *Wiring) Synced() []func() bool {
	return []func() bool{w.rollouts.HasSynced, w.deployments.HasSynced}
}

// AddHandlers registers the controller's handlers. client-go hands a
// delete handler either the object or a cache.DeletedFinalStateUnknown;
// the controller is written against chapter 03's tombstone type, so the
// twin translates one into the other and changes nothing else.
func (w *Wiring) AddHandlers(h Handlers) error {
	if _, err := w.rollouts.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    h.RolloutAdd,
		UpdateFunc: h.RolloutUpdate,
		DeleteFunc: func(obj any) { h.RolloutDelete(Tombstone(obj)) },
	}); err != nil {
		return err
	}
	_, err := w.deployments.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    h.DeploymentAdd,
		UpdateFunc: h.DeploymentUpdate,
		DeleteFunc: func(obj any) { h.DeploymentDelete(Tombstone(obj)) },
	})
	return err
}

// Tombstone turns client-go's tombstone into chapter 03's and leaves any
// other object alone.
func Tombstone(obj any) any {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		return indexer.DeletedFinalStateUnknown{Key: t.Key, Obj: t.Obj}
	}
	return obj
}

// NewTombstone is the tombstone a delete handler gets for key's last
// known obj: client-go's, as AddHandlers hands it on (translated by
// Tombstone). wiring/ours has the same function.
func NewTombstone(key string, obj any) any {
	return Tombstone(cache.DeletedFinalStateUnknown{Key: key, Obj: obj})
}

// Start runs the informers until ctx ends.
func (w *Wiring) Start(ctx context.Context) {
	w.kubeFactory.Start(ctx.Done())
	w.walkFactory.Start(ctx.Done())
}

// Shutdown waits for the informers' goroutines to end after ctx ends.
func (w *Wiring) Shutdown() {
	w.kubeFactory.Shutdown()
	w.walkFactory.Shutdown()
}

// RolloutLister adapts the generated lister to controller.RolloutLister.
type RolloutLister struct{ l walklisters.RolloutLister }

// Get reads one Rollout from the cache.
func (r RolloutLister) Get(namespace, name string) (*v1alpha1.Rollout, error) {
	return r.l.Rollouts(namespace).Get(name)
}

// DeploymentLister adapts client-go's lister to controller.DeploymentLister.
type DeploymentLister struct{ l appslisters.DeploymentLister }

// Get reads one Deployment from the cache.
func (d DeploymentLister) Get(namespace, name string) (*appsv1.Deployment, error) {
	return d.l.Deployments(namespace).Get(name)
}
