package processor

import (
	"context"
	"reflect"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
)

// NewInformerFunc builds the informer for one type, with the resync
// period the factory chose for it.
type NewInformerFunc func(resyncPeriod time.Duration) *SharedIndexInformer

// SharedInformerFactory hands out one informer per object type, however
// many callers ask for it, so that ten controllers watching pods share one
// watch and one cache. Start runs the informers not yet running;
// Shutdown waits for every informer it started to return.
//
// client-go: informers/factory.go (sharedInformerFactory)
type SharedInformerFactory struct {
	mu            sync.Mutex
	defaultResync time.Duration
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
type FactoryOption func(*SharedInformerFactory)

// WithCustomResyncConfig sets the resync period of some types.
func WithCustomResyncConfig(resync map[runtime.Object]time.Duration) FactoryOption {
	// exercise:begin 16 The factory: one informer per type, started and waited for together
	// exercise:hint InformerFor returns the informer already made for the object's type, or makes one with the type's resync period (custom or the default) and sets the factory's transform. StartWithContext runs every informer not started yet, each on its own goroutine, unless the factory is shutting down. WaitForCacheSync waits for every started informer's synced channel (or stop) and reports HasSynced per type. Shutdown stops Start from starting more and waits for every informer it started to return.
	// exercise:deeper Key informers by reflect.TypeOf(obj). WaitForCacheSync copies the started informers under the lock and waits without it, or a slow sync would block InformerFor. Shutdown does not stop anything: the caller cancels the context first. The package-level WaitForCacheSync polls every 100ms (wait.PollImmediateUntil) until every function reports synced or stop is closed.
	// exercise:track deep
	return func(f *SharedInformerFactory) {
		for obj, period := range resync {
			f.customResync[reflect.TypeOf(obj)] = period
		}
	}
	// exercise:end 16
}

// WithTransform sets the transform of every informer the factory makes.
func WithTransform(transform TransformFunc) FactoryOption {
	// exercise:begin 16
	return func(f *SharedInformerFactory) { f.transform = transform }
	// exercise:end 16
}

// NewSharedInformerFactory makes a factory whose informers resync every
// defaultResync unless configured otherwise.
func NewSharedInformerFactory(defaultResync time.Duration, options ...FactoryOption) *SharedInformerFactory {
	// exercise:begin 16
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
	// exercise:end 16
}

// InformerFor returns the informer for obj's type, making it with newFunc
// the first time. Later calls return the same informer, whatever newFunc
// they pass.
func (f *SharedInformerFactory) InformerFor(obj runtime.Object, newFunc NewInformerFunc) *SharedIndexInformer {
	// exercise:begin 16
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
	informer := newFunc(resync)
	if f.transform != nil {
		_ = informer.SetTransform(f.transform) // a fresh informer has not started
	}
	f.informers[t] = informer
	return informer
	// exercise:end 16
}

// Start runs every informer not yet started, until stop is closed.
func (f *SharedInformerFactory) Start(stop <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stop))
}

// StartWithContext runs every informer not yet started, until ctx ends.
func (f *SharedInformerFactory) StartWithContext(ctx context.Context) {
	// exercise:begin 16
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
	// exercise:end 16
}

// WaitForCacheSync waits until every started informer has synced or stop
// is closed, and says which have.
func (f *SharedInformerFactory) WaitForCacheSync(stop <-chan struct{}) map[reflect.Type]bool {
	// exercise:begin 16
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
	// exercise:end 16
}

// Shutdown stops Start from starting anything more and waits until every
// informer it started has returned from Run: cancel their context first,
// or Shutdown waits forever.
func (f *SharedInformerFactory) Shutdown() {
	// exercise:begin 16
	f.mu.Lock()
	f.shuttingDown = true
	f.mu.Unlock()
	f.wg.Wait()
	// exercise:end 16
}
