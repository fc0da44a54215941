package ours

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	processor "example.com/walkthrough/04-processor"
)

// clientListWatch lists and watches one resource through a typed
// clientset: the clientset does the HTTP (or, in the tests, talks to a
// fake), and chapter 04's informer, through chapter 01's Reflector, does
// everything else. It has client-go's ListerWatcher method set, and the
// context-taking pair too, so a LIST or WATCH in flight ends with the
// informer.
//
// client-go: tools/cache/listwatch.go (NewListWatchFromClient)
type clientListWatch struct {
	list  func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)
	watch func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	// client is the clientset, asked whether it can stream a list.
	client any
}

// IsWatchListSemanticsUnSupported passes on the clientset's answer: a
// fake clientset cannot serve a WatchList, so the informer lists and
// watches instead, as client-go's generated informers do.
//
// client-go: tools/cache/listwatch.go (ToListWatcherWithWatchListSemantics)
func (lw *clientListWatch) IsWatchListSemanticsUnSupported() bool {
	u, ok := lw.client.(interface{ IsWatchListSemanticsUnSupported() bool })
	return ok && u.IsWatchListSemanticsUnSupported()
}

func (lw *clientListWatch) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.list(context.Background(), opts)
}

func (lw *clientListWatch) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.watch(context.Background(), opts)
}

func (lw *clientListWatch) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	return lw.list(ctx, opts)
}

func (lw *clientListWatch) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return lw.watch(ctx, opts)
}

// namespacedClient is the list-and-watch half of a typed client for one
// namespace, as clientset.AppsV1().Deployments(ns) is.
type namespacedClient[L runtime.Object] interface {
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// scopedListWatch lists and watches through c, tweaking every request's
// options with the factory's scope, as a generated informer does; c is
// already in the scope's namespace. clientset answers whether it can
// stream a list.
func scopedListWatch[L runtime.Object](clientset any, c namespacedClient[L], scope processor.ListScope) *clientListWatch {
	return &clientListWatch{
		client: clientset,
		list: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			scope.Apply(&o)
			return c.List(ctx, o)
		},
		watch: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			scope.Apply(&o)
			return c.Watch(ctx, o)
		},
	}
}
