// Your copy of ../watch.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 01`
// checks your work, and `go run ./workshop/cmd/workshop hint 01 N` gives
// exercise N's hint.

package listwatch

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"syscall"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	klog "k8s.io/klog/v2"

	"example.com/walkthrough/workshop/todo"
)

// errStopRequested: the context ended while watching.
var errStopRequested = errors.New("stop requested")

// VeryShortWatchError is a watch that ended within a second without a
// single event: something is wrong (a proxy that cuts streams, a server
// that is going away), so the Reflector lists again after a backoff
// instead of re-watching in a tight loop.
//
// client-go: tools/cache/reflector.go (VeryShortWatchError)
type VeryShortWatchError struct {
	Name string
}

func (e *VeryShortWatchError) Error() string {
	return fmt.Sprintf("very short watch: %s: Unexpected watch close - watch lasted less than a second and no items received", e.Name)
}

// watchWithResync watches, with the periodic Resync running beside it
// when there is a resync period.
//
// client-go: tools/cache/reflector.go (Reflector.watchWithResync)
func (r *Reflector) watchWithResync(ctx context.Context, w Watcher) error {
	resyncErr := make(chan error, 1)
	resyncCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	if r.resync > 0 {
		wg.Go(func() { r.startResync(resyncCtx, resyncErr) })
	}
	defer func() {
		cancel()
		wg.Wait()
	}()
	return r.watch(ctx, w, resyncErr)
}

// startResync calls the store's Resync every resync period. The timer
// starts again with every ListAndWatch, so a relist restarts the period.
// A failing Resync ends the watch.
//
// client-go: tools/cache/reflector.go (Reflector.startResync)
func (r *Reflector) startResync(ctx context.Context, errc chan<- error) {
	for {
		t := r.clk().NewTimer(r.resync)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
		if r.ShouldResync == nil || r.ShouldResync() {
			if err := r.store.Resync(); err != nil {
				errc <- err
				return
			}
		}
	}
}

// watch watches from the last synced resource version, again and again:
// a watch that ends cleanly (its timeout ran out, the connection dropped)
// is simply reopened where it left off. It returns, so that Run backs off
// and lists again, when the watch ends with an error: 410 Gone above all.
// w, when not nil, is the stream a streaming list left open.
//
// client-go: tools/cache/reflector.go (Reflector.watch)
func (r *Reflector) watch(ctx context.Context, w Watcher, resyncErr chan error) error {
	logger := klog.FromContext(ctx)
	defer func() {
		if w != nil {
			w.Stop()
		}
	}()
	for {
		if ctx.Err() != nil {
			return nil
		}
		start := r.clk().Now()
		// A watch from "" or "0" begins with synthetic ADDED events in no
		// particular order: their versions must not move lastSyncRV until
		// a real change has come through.
		propagateFromStart := true
		if w == nil {
			opts := metav1.ListOptions{
				ResourceVersion:     r.LastSyncResourceVersion(),
				TimeoutSeconds:      watchTimeout(),
				AllowWatchBookmarks: true,
			}
			if opts.ResourceVersion == "" || opts.ResourceVersion == "0" {
				propagateFromStart = false
			}
			var err error
			w, err = r.lw.Watch(ctx, opts)
			if err != nil {
				if isWatchErrorRetriable(err) {
					if !r.sleep(ctx, r.backoff.next()) {
						return nil
					}
					continue
				}
				return err
			}
		}
		_, err := r.handleWatch(ctx, start, w, r.store, false, func(rv string, pastInitial bool) {
			if propagateFromStart || pastInitial {
				r.setLastSyncRV(rv)
			}
		}, resyncErr)
		w = nil // handleWatch stopped it
		repanic(err)
		if err == nil {
			continue
		}
		switch {
		case errors.Is(err, errStopRequested):
		case isExpiredError(err):
			// Listing from lastSyncRV is still right: "not older than"
			// is what the store needs. So the flag stays clear.
			logger.V(4).Info("Watch closed", "reflector", r.name, "type", r.typeDescription, "err", err)
		case apierrors.IsTooManyRequests(err):
			if !r.sleep(ctx, r.backoff.next()) {
				return nil
			}
			continue
		default:
			logger.Info("Warning: watch ended with error", "reflector", r.name, "type", r.typeDescription, "err", err)
		}
		return nil
	}
}

// sleep waits d, or until ctx ends; it reports whether the wait ran out.
func (r *Reflector) sleep(ctx context.Context, d time.Duration) bool {
	t := r.clk().NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}

// isWatchErrorRetriable: errors worth retrying the watch for, without a
// relist: the server refused the connection, or asked us to slow down.
func isWatchErrorRetriable(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || apierrors.IsTooManyRequests(err)
}

// handleWatch applies a watch's events to store until the stream ends,
// and reports each accepted event's resource version through setRV, with
// whether a non-ADDED event has come through yet. It returns nil when the
// stream ends cleanly, the error that ended it otherwise. Unless it
// returns early at the initial-events-end bookmark (exitOnInitialEventsEnd),
// it stops w.
//
// client-go: tools/cache/reflector.go (handleAnyWatch)
func (r *Reflector) handleWatch(ctx context.Context, start time.Time, w Watcher, store ReflectorStore,
	exitOnInitialEventsEnd bool, setRV func(rv string, pastInitial bool), errc <-chan error) (initialEventsEnd bool, err error) {
	// Exercise 12: handleWatch applies a watch's events to store until the stream ends.
	panic(todo.Exercise("01-listwatch", 12, "Reflector.handleWatch"))
}

// accept checks an event's object before it reaches the store: the
// expected type, the expected kind for Unstructured, not a Table, and
// metadata to read. A refused object is logged and skipped, and does not
// move the resource version.
func (r *Reflector) accept(ctx context.Context, obj runtime.Object) bool {
	logger := klog.FromContext(ctx)
	if r.expectedType != nil && reflect.TypeOf(obj) != r.expectedType {
		logger.Info("Unexpected watch event object type", "reflector", r.name, "expectedType", r.expectedType, "actualType", reflect.TypeOf(obj))
		return false
	}
	if r.expectedGVK != nil && obj.GetObjectKind().GroupVersionKind() != *r.expectedGVK {
		logger.Info("Unexpected watch event object gvk", "reflector", r.name, "expectedGVK", *r.expectedGVK, "actualGVK", obj.GetObjectKind().GroupVersionKind())
		return false
	}
	if u, ok := obj.(*unstructured.Unstructured); ok && u.GetKind() == "Table" &&
		(u.GetAPIVersion() == "meta.k8s.io/v1" || u.GetAPIVersion() == "meta.k8s.io/v1beta1") {
		return false
	}
	if _, err := meta.Accessor(obj); err != nil {
		logger.Info("Unable to understand watch event", "reflector", r.name, "err", err)
		return false
	}
	return true
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = reflect.TypeOf
	_ sync.WaitGroup
	_ = syscall.ECONNREFUSED
	_ = apierrors.IsTooManyRequests
	_ = meta.Accessor
	_ = metav1.InitialEventsAnnotationKey
	_ unstructured.Unstructured
	_ = klog.FromContext
)
