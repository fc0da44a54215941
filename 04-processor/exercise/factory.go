// Your copy of ../factory.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import (
	"context"
	"reflect"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"

	"example.com/walkthrough/workshop/todo"
)

// NewInformerFunc builds the informer for one type, with the resync
// period the factory chose for it and the scope its ListerWatcher must
// list and watch in.
//
// client-go: informers/internalinterfaces/factory_interfaces.go (NewInformerFunc)
type NewInformerFunc func(resyncPeriod time.Duration, scope ListScope) *SharedIndexInformer

// ListScope is what every informer of a factory lists and watches: one
// namespace ("" for all of them) and a tweak of the ListOptions of each
// LIST and WATCH, for label and field selectors. The server does the
// filtering; an informer caches only what it is sent. client-go's
// generated informers read the same two settings from their factory; ours
// is handed them, because the factory knows no clients.
//
// client-go: informers/factory.go (sharedInformerFactory.namespace,
// sharedInformerFactory.tweakListOptions), and the generated
// informers/core/v1/pod.go (NewFilteredPodInformer)
type ListScope struct {
	Namespace string
	Tweak     func(*metav1.ListOptions)
}

// Apply tweaks opts, when the scope has a tweak.
func (s ListScope) Apply(opts *metav1.ListOptions) {
	if s.Tweak != nil {
		s.Tweak(opts)
	}
}

// SharedInformerFactory hands out one informer per object type, however
// many callers ask for it, so that ten controllers watching pods share one
// watch and one cache. Start runs the informers not yet running;
// Shutdown waits for every informer it started to return.
//
// client-go: informers/factory.go (sharedInformerFactory)
type SharedInformerFactory struct {
	mu            sync.Mutex
	defaultResync time.Duration
	scope         ListScope
	customResync  map[reflect.Type]time.Duration
	transform     TransformFunc
	informers     map[reflect.Type]*SharedIndexInformer
	// started records the types whose informer Start has launched; an
	// informer asked for after Start needs another Start.
	started      map[reflect.Type]bool
	shuttingDown bool           // set by Shutdown: Start does nothing after it
	wg           sync.WaitGroup // the Run goroutines Start launched
}

// FactoryOption configures a factory.
//
// client-go: informers/factory.go (SharedInformerOption)
type FactoryOption func(*SharedInformerFactory)

// WithCustomResyncConfig sets the resync period of some types.
func WithCustomResyncConfig(resync map[runtime.Object]time.Duration) FactoryOption {
	return func(f *SharedInformerFactory) {
		for obj, period := range resync {
			f.customResync[reflect.TypeOf(obj)] = period
		}
	}
}

// WithNamespace limits every informer the factory makes to one namespace.
func WithNamespace(namespace string) FactoryOption {
	return func(f *SharedInformerFactory) { f.scope.Namespace = namespace }
}

// WithTweakListOptions changes the ListOptions of every LIST and WATCH
// the factory's informers send: a label or field selector, usually.
func WithTweakListOptions(tweak func(*metav1.ListOptions)) FactoryOption {
	return func(f *SharedInformerFactory) { f.scope.Tweak = tweak }
}

// WithTransform sets the transform of every informer the factory makes.
func WithTransform(transform TransformFunc) FactoryOption {
	return func(f *SharedInformerFactory) { f.transform = transform }
}

// NewSharedInformerFactory makes a factory whose informers resync every
// defaultResync, unless options say otherwise.
func NewSharedInformerFactory(defaultResync time.Duration, options ...FactoryOption) *SharedInformerFactory {
	f := &SharedInformerFactory{
		defaultResync: defaultResync,
		customResync:  map[reflect.Type]time.Duration{},
		informers:     map[reflect.Type]*SharedIndexInformer{},
		started:       map[reflect.Type]bool{},
	}
	for _, opt := range options {
		opt(f)
	}
	return f
}

// InformerFor returns the informer for obj's type, making it with newFunc
// the first time. Later calls return the same informer, whatever newFunc
// they pass.
func (f *SharedInformerFactory) InformerFor(obj runtime.Object, newFunc NewInformerFunc) *SharedIndexInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := reflect.TypeOf(obj)
	if informer, ok := f.informers[t]; ok {
		return informer
	}
	resync, ok := f.customResync[t]
	if !ok {
		resync = f.defaultResync
	}
	informer := newFunc(resync, f.scope)
	if f.transform != nil {
		_ = informer.SetTransform(f.transform) // a fresh informer has not started
	}
	f.informers[t] = informer
	return informer
}

// Start runs every informer not yet started, until stop is closed.
func (f *SharedInformerFactory) Start(stop <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stop))
}

// StartWithContext runs every informer not yet started, until ctx ends.
func (f *SharedInformerFactory) StartWithContext(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shuttingDown {
		return
	}
	for t, informer := range f.informers {
		if f.started[t] {
			continue
		}
		f.wg.Go(func() { informer.Run(ctx) })
		f.started[t] = true
	}
}

// WaitForCacheSync waits until every started informer has synced or stop
// is closed, and says which have.
func (f *SharedInformerFactory) WaitForCacheSync(stop <-chan struct{}) map[reflect.Type]bool {
	informers := map[reflect.Type]*SharedIndexInformer{}
	func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for t, informer := range f.informers {
			if f.started[t] {
				informers[t] = informer
			}
		}
	}()
	for _, informer := range informers {
		select {
		case <-informer.synced:
		case <-stop:
		}
	}
	res := make(map[reflect.Type]bool, len(informers))
	for t, informer := range informers {
		res[t] = informer.HasSynced()
	}
	return res
}

// Shutdown stops Start from starting anything more, then waits until every
// informer it started has returned from Run: cancel their context first,
// or Shutdown waits forever.
func (f *SharedInformerFactory) Shutdown() {
	f.mu.Lock()
	f.shuttingDown = true
	f.mu.Unlock()
	f.wg.Wait()
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
