package indexer_test

import (
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/listers"
	"k8s.io/client-go/tools/cache"

	ours "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/workshop/scenario"
)

// The differences docs/03-indexer.md declares under "How client-go
// differs", each run on both sides with what each does. Where client-go
// panics, ours returns an answer instead; everywhere else the two agree,
// and the test checks that too.

// outcome runs fn and says what it did: its result, or the panic.
func outcome(fn func() string) (s string) {
	defer func() {
		if p := recover(); p != nil {
			s = fmt.Sprintf("panic: %v", p)
		}
	}()
	return fn()
}

func pod(ns, name string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": "web"}}}
}

// TestDifferenceNilIndexers: an indexer made with nil Indexers. client-go
// keeps the nil map, so GetIndexers is nil and AddIndexers panics writing
// to it; ours starts with an empty map, so AddIndexers works.
func TestDifferenceNilIndexers(t *testing.T) {
	theirs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, nil)
	mine := ours.NewIndexer(ours.MetaNamespaceKeyFunc, nil)
	check(t, "client-go GetIndexers", fmt.Sprintf("nil=%t", theirs.GetIndexers() == nil), "nil=true")
	check(t, scenario.Ours()+" GetIndexers", fmt.Sprintf("nil=%t len=%d", mine.GetIndexers() == nil, len(mine.GetIndexers())), "nil=false len=0")
	check(t, "client-go AddIndexers", outcome(func() string {
		return fmt.Sprint(theirs.AddIndexers(cache.Indexers{"ns": cache.MetaNamespaceIndexFunc}))
	}), "panic: assignment to entry in nil map")
	check(t, scenario.Ours()+" AddIndexers", outcome(func() string {
		return fmt.Sprint(mine.AddIndexers(ours.Indexers{"ns": ours.MetaNamespaceIndexFunc}))
	}), "<nil>")
}

// TestDifferenceListerOverANonObject: a store holding something without
// metadata (an ExplicitKey). Listing every namespace with an empty
// selector, client-go appends it without looking and panics converting it;
// ours looks at each object's metadata and returns an error. With a
// selector, both return the error together with what they listed before
// it (the store lists in map order, so only the count before the bad one
// can vary: both sides see the same store).
func TestDifferenceListerOverANonObject(t *testing.T) {
	theirs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	mine := ours.NewIndexer(ours.MetaNamespaceKeyFunc, ours.Indexers{})
	for _, s := range []interface{ Add(any) error }{theirs, mine} {
		if err := s.Add(pod("ns", "a")); err != nil {
			t.Fatal(err)
		}
	}
	if err := theirs.Add(cache.ExplicitKey("ns/ghost")); err != nil {
		t.Fatal(err)
	}
	if err := mine.Add(ours.ExplicitKey("ns/ghost")); err != nil {
		t.Fatal(err)
	}
	gr := v1.Resource("pods")
	check(t, "client-go, every namespace, empty selector", outcome(func() string {
		_, err := listers.New[*v1.Pod](theirs, gr).List(labels.Everything())
		return fmt.Sprint(err)
	}), "panic: interface conversion: interface {} is cache.ExplicitKey, not *v1.Pod")
	check(t, scenario.Ours()+", every namespace, empty selector", outcome(func() string {
		_, err := ours.NewLister[*v1.Pod](mine, gr).List(labels.Everything())
		return fmt.Sprint(err)
	}), "object does not implement the Object interfaces")

	sel := labels.SelectorFromSet(labels.Set{"app": "web"})
	theirList, theirErr := listers.New[*v1.Pod](theirs, gr).List(sel)
	myList, myErr := ours.NewLister[*v1.Pod](mine, gr).List(sel)
	check(t, "client-go, with a selector", fmt.Sprint(theirErr), "object does not implement the Object interfaces")
	check(t, scenario.Ours()+", with a selector", fmt.Sprint(myErr), "object does not implement the Object interfaces")
	if len(theirList) > 1 || len(myList) > 1 {
		t.Errorf("with a selector: client-go listed %d, %s %d; want at most the one pod before the bad object", len(theirList), scenario.Ours(), len(myList))
	}
}

func check(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}
