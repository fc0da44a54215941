package ours

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "example.com/walkthrough/01-listwatch"
)

// clientListWatch is chapter 01's ListerWatcher over a typed clientset's
// List and Watch: the clientset does the HTTP (or, in the tests, talks to
// a fake), and chapter 01's Reflector does everything else. Each watch
// event is traced as the Reflector's stage.
//
// client-go: tools/cache/listwatch.go (NewListWatchFromClient)
type clientListWatch struct {
	resource string
	list     func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)
	watch    func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	trace    func(stage, key, message string)
}

func (lw *clientListWatch) List(ctx context.Context, opts metav1.ListOptions) (*listwatch.List, error) {
	obj, err := lw.list(ctx, opts)
	if err != nil {
		return nil, err
	}
	lm, err := meta.ListAccessor(obj)
	if err != nil {
		return nil, err
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		return nil, err
	}
	lw.trace(StageReflector, "", fmt.Sprintf("LIST %s: %d items at rv %s", lw.resource, len(items), lm.GetResourceVersion()))
	return &listwatch.List{
		ResourceVersion:    lm.GetResourceVersion(),
		Continue:           lm.GetContinue(),
		RemainingItemCount: lm.GetRemainingItemCount(),
		Items:              items,
	}, nil
}

func (lw *clientListWatch) Watch(ctx context.Context, opts metav1.ListOptions) (listwatch.Watcher, error) {
	w, err := lw.watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	out := &watcher{w: w, result: make(chan listwatch.Event), done: make(chan struct{})}
	go out.relay(lw)
	return out, nil
}

// watcher turns an apimachinery watch into chapter 01's.
type watcher struct {
	w      watch.Interface
	result chan listwatch.Event
	done   chan struct{}
}

func (w *watcher) ResultChan() <-chan listwatch.Event { return w.result }

func (w *watcher) Stop() {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	w.w.Stop()
}

func (w *watcher) relay(lw *clientListWatch) {
	defer close(w.result)
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.w.ResultChan():
			if !ok {
				return
			}
			out := listwatch.Event{Type: listwatch.EventType(ev.Type), Object: ev.Object}
			if ev.Type == watch.Error {
				out.Object = nil
				out.Err = apierrors.FromObject(ev.Object)
			} else if m, err := meta.Accessor(ev.Object); err == nil && ev.Type != watch.Bookmark {
				lw.trace(StageReflector, m.GetNamespace()+"/"+m.GetName(),
					fmt.Sprintf("watch %s %s rv=%s", ev.Type, lw.resource, m.GetResourceVersion()))
			}
			select {
			case w.result <- out:
			case <-w.done:
				return
			}
		}
	}
}
