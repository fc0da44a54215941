package ours

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
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
