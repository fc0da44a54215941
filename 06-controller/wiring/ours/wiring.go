// Package ours (wiring/ours) wires the controller to the workshop's own parts: chapter
// 01's ListerWatcher and Reflector, chapter 02's RealFIFO, chapter 03's
// Indexer and generic Lister, chapter 04's SharedIndexInformer, and
// chapter 05's rate-limited workqueue. The generated clientset is used for
// what it is good at, the HTTP calls; nothing here reads through
// client-go's tools/cache or util/workqueue (deps_test.go checks).
//
// Every stage can be traced, which is what make demo prints:
//
//	reflector → fifo → indexer → handler → queue → worker → api
package ours

import (
	"context"
	"time"

	"golang.org/x/time/rate"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"

	indexer "example.com/walkthrough/03-indexer"
	processor "example.com/walkthrough/04-processor"
	workqueue "example.com/walkthrough/05-workqueue"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/06-controller/pkg/generated/clientset/versioned"
)

// The stages this wiring traces; the controller traces the later ones.
const (
	StageReflector = "reflector"
	StageFIFO      = "fifo"
	StageIndexer   = "indexer"
	StageHandler   = "handler"
)

// Options tune a Wiring.
type Options struct {
	// Resync is every informer's resync period; 0 turns resync off.
	Resync time.Duration
	// Trace, when set, hears each stage a change passes through.
	Trace func(stage, key, message string)
	// Classic runs the informers on chapter 04's classic path (list+watch,
	// DeltaFIFO, one pop at a time) instead of today's (WatchList, atomic
	// RealFIFO, batch pops).
	Classic bool
	// Namespace, when set, limits both informers to one namespace (chapter
	// 04's WithNamespace): the controller then sees, and reconciles, only
	// the Rollouts there.
	Namespace string
}

// Handlers are the controller's informer handlers.
type Handlers struct {
	RolloutAdd, DeploymentAdd       func(obj any)
	RolloutUpdate, DeploymentUpdate func(old, new any)
	RolloutDelete, DeploymentDelete func(obj any)
}

// Wiring holds the informers and the queue of one controller.
type Wiring struct {
	factory     *processor.SharedInformerFactory
	rollouts    *processor.SharedIndexInformer
	deployments *processor.SharedIndexInformer
	queue       workqueue.TypedRateLimitingInterface[string]
	trace       func(stage, key, message string)
	// views keep what the step-through viewer shows of each informer:
	// rollouts, then deployments. They are kept only when someone traces:
	// the viewer reads them at each traced step, and no one else does.
	views  []*informerView
	traced bool
}

// NewRateLimiter is the sample-controller's limiter, from chapter 05:
// per-key exponential backoff from 5 ms to 1000 s, and an overall bucket
// of 50 qps, burst 300.
func NewRateLimiter() workqueue.TypedRateLimiter[string] {
	return workqueue.NewTypedMaxOfRateLimiter(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second),
		&workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(50), 300)},
	)
}

// New makes the two informers (through one chapter 04 factory) and the
// queue. Nothing runs until Start.
func New(kube kubernetes.Interface, walk versioned.Interface, opts Options) *Wiring {
	w := &Wiring{trace: opts.Trace, traced: opts.Trace != nil}
	if w.trace == nil {
		w.trace = func(string, string, string) {}
	}
	var factoryOpts []processor.FactoryOption
	if opts.Namespace != "" {
		factoryOpts = append(factoryOpts, processor.WithNamespace(opts.Namespace))
	}
	w.factory = processor.NewSharedInformerFactory(opts.Resync, factoryOpts...)
	rolloutsLW := func(scope processor.ListScope) *clientListWatch {
		return scopedListWatch(walk, walk.WalkthroughV1alpha1().Rollouts(scope.Namespace), scope)
	}
	deploymentsLW := func(scope processor.ListScope) *clientListWatch {
		return scopedListWatch(kube, kube.AppsV1().Deployments(scope.Namespace), scope)
	}
	path := processor.TodaysPath
	if opts.Classic {
		path = processor.ClassicPath
	}
	phase := "listing (WatchList when the server streams)"
	if opts.Classic {
		phase = "listing"
	}
	newInformer := func(resource string, lw func(processor.ListScope) *clientListWatch, example runtime.Object) processor.NewInformerFunc {
		return func(resync time.Duration, scope processor.ListScope) *processor.SharedIndexInformer {
			v := &informerView{resource: resource, phase: phase, byKey: opts.Classic}
			w.views = append(w.views, v)
			v.informer = processor.NewSharedIndexInformerWithOptions(lw(scope), example, processor.SharedIndexInformerOptions{
				ResyncPeriod: resync,
				Indexers:     indexer.Indexers{indexer.NamespaceIndex: indexer.MetaNamespaceIndexFunc},
				Path:         path,
				NewPipeline:  v.pipeline,
				Tracer:       newTracer(resource, v, opts.Trace),
			})
			return v.informer
		}
	}
	w.rollouts = w.factory.InformerFor(&v1alpha1.Rollout{}, newInformer("rollouts", rolloutsLW, &v1alpha1.Rollout{}))
	w.deployments = w.factory.InformerFor(&appsv1.Deployment{}, newInformer("deployments", deploymentsLW, &appsv1.Deployment{}))
	w.queue = workqueue.NewTypedRateLimitingQueueWithConfig(NewRateLimiter(),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "rollouts"})
	return w
}

// Rollouts is the Rollout lister: chapter 03's generic Lister over the
// informer's Indexer.
func (w *Wiring) Rollouts() Lister[*v1alpha1.Rollout] {
	return Lister[*v1alpha1.Rollout]{indexer.NewLister[*v1alpha1.Rollout](w.rollouts.GetIndexer(), v1alpha1.Resource("rollouts"))}
}

// Deployments is the Deployment lister.
func (w *Wiring) Deployments() Lister[*appsv1.Deployment] {
	return Lister[*appsv1.Deployment]{indexer.NewLister[*appsv1.Deployment](w.deployments.GetIndexer(), appsv1.Resource("deployments"))}
}

// Queue is the controller's work queue (chapter 05).
func (w *Wiring) Queue() workqueue.TypedRateLimitingInterface[string] { return w.queue }

// Synced reports each informer's HasSynced.
func (w *Wiring) Synced() []func() bool {
	return []func() bool{w.rollouts.HasSynced, w.deployments.HasSynced}
}

// AddHandlers registers the controller's handlers, each traced.
func (w *Wiring) AddHandlers(h Handlers) error {
	rollouts, deployments := w.views[0], w.views[1]
	if _, err := w.rollouts.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    w.traced1(rollouts, "OnRolloutAdd", h.RolloutAdd),
		UpdateFunc: w.traced2(rollouts, "OnRolloutUpdate", h.RolloutUpdate),
		DeleteFunc: w.traced1(rollouts, "OnRolloutDelete", h.RolloutDelete),
	}); err != nil {
		return err
	}
	_, err := w.deployments.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    w.traced1(deployments, "OnDeploymentAdd", h.DeploymentAdd),
		UpdateFunc: w.traced2(deployments, "OnDeploymentUpdate", h.DeploymentUpdate),
		DeleteFunc: w.traced1(deployments, "OnDeploymentDelete", h.DeploymentDelete),
	})
	return err
}

func (w *Wiring) traced1(v *informerView, name string, f func(any)) func(any) {
	if !w.traced {
		return f // untraced, a handler costs no key and no view
	}
	return func(obj any) {
		k, _ := indexer.DeletionHandlingMetaNamespaceKeyFunc(obj)
		v.handled(k)
		w.trace(StageHandler, k, name)
		f(obj)
	}
}

func (w *Wiring) traced2(v *informerView, name string, f func(any, any)) func(any, any) {
	if !w.traced {
		return f
	}
	return func(old, new any) {
		k, _ := indexer.DeletionHandlingMetaNamespaceKeyFunc(new)
		v.handled(k)
		w.trace(StageHandler, k, name)
		f(old, new)
	}
}

// Start runs the informers until ctx ends.
func (w *Wiring) Start(ctx context.Context) { w.factory.StartWithContext(ctx) }

// Shutdown waits for the informers' goroutines to end after ctx ends.
func (w *Wiring) Shutdown() { w.factory.Shutdown() }

// Lister adapts chapter 03's generic Lister to the controller's
// Get(namespace, name).
type Lister[T runtime.Object] struct{ l indexer.Lister[T] }

// Get reads one object from the cache.
func (l Lister[T]) Get(namespace, name string) (T, error) {
	return l.l.Namespace(namespace).Get(name)
}

// NewTombstone is the tombstone a delete handler gets for key's last
// known obj: chapter 03's (the controller's own type already).
func NewTombstone(key string, obj any) any {
	return indexer.DeletedFinalStateUnknown{Key: key, Obj: obj}
}
