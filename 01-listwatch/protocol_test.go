package listwatch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	ours "example.com/walkthrough/01-listwatch"
	"example.com/walkthrough/01-listwatch/testserver"
)

// These tests prove the test server speaks the real protocol (client-go's
// own REST client and dynamic client work against it over a real socket)
// and that our client reads it, bad input included, without panicking.

var widgets = testserver.Resource{Group: "example.com", Version: "v1", Resource: "widgets", Kind: "Widget", Namespaced: true}

func pod(ns, name string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

func seeded(t *testing.T, n int) (*testserver.Server, *testserver.Collection) {
	t.Helper()
	srv := testserver.New(testserver.Options{})
	pods := srv.Serve(testserver.Pods)
	for i := range n {
		if _, err := pods.Create(pod("ns", fmt.Sprintf("p%02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	return srv, pods
}

// nextEvent reads one event from a client-go watch, or fails after a
// (real) second.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("the watch closed")
		}
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5s")
	}
	return watch.Event{}
}

func TestClientGoRESTClientSpeaksToTestServer(t *testing.T) {
	srv, podsOnServer := seeded(t, 7)
	hs := srv.Listen()
	defer hs.Close()
	cs := kubernetes.NewForConfigOrDie(&rest.Config{Host: hs.URL, QPS: -1})
	pods := cs.CoreV1().Pods("ns")
	ctx := t.Context()

	// Pagination: limit and continue, one snapshot.
	var names []string
	opts := metav1.ListOptions{Limit: 3}
	first := ""
	for {
		list, err := pods.List(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if first == "" {
			first = list.ResourceVersion
		} else if list.ResourceVersion != first {
			t.Errorf("page at %s, first page at %s: pages must share a snapshot", list.ResourceVersion, first)
		}
		for _, p := range list.Items {
			names = append(names, p.Name)
		}
		if list.Continue == "" {
			break
		}
		if list.RemainingItemCount == nil {
			t.Error("a page with a continue token should say how many items remain")
		}
		opts.Continue = list.Continue
		// A write between pages does not show up in the snapshot.
		if _, err := podsOnServer.Create(pod("ns", "zz-late")); err != nil && !strings.Contains(err.Error(), "exists") {
			t.Fatal(err)
		}
	}
	if got := strings.Join(names, ","); got != "p00,p01,p02,p03,p04,p05,p06" {
		t.Errorf("paged list saw %s", got)
	}

	// Exact reads of the past, and 410 after compaction.
	if l, err := pods.List(ctx, metav1.ListOptions{ResourceVersion: "3", ResourceVersionMatch: metav1.ResourceVersionMatchExact}); err != nil || len(l.Items) != 3 {
		t.Fatalf("exact list at 3: %v, %d items", err, len(l.Items))
	}

	// Watch from a resource version: replay, then live events.
	w, err := pods.Watch(ctx, metav1.ListOptions{ResourceVersion: "6", AllowWatchBookmarks: true})
	if err != nil {
		t.Fatal(err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Added || ev.Object.(*v1.Pod).Name != "p06" {
		t.Errorf("replay: got %s %v", ev.Type, ev.Object)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Added || ev.Object.(*v1.Pod).Name != "zz-late" {
		t.Errorf("replay: got %s %v", ev.Type, ev.Object)
	}
	if _, err := podsOnServer.Delete("ns", "p00"); err != nil {
		t.Fatal(err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Deleted || ev.Object.(*v1.Pod).ResourceVersion != "9" {
		t.Errorf("live: got %s %v", ev.Type, ev.Object)
	}
	srv.Bookmark()
	if ev := nextEvent(t, w); ev.Type != watch.Bookmark || ev.Object.(*v1.Pod).ResourceVersion != "9" {
		t.Errorf("bookmark: got %s %v", ev.Type, ev.Object)
	}
	w.Stop()

	srv.Compact()
	if _, err := pods.List(ctx, metav1.ListOptions{ResourceVersion: "3", ResourceVersionMatch: metav1.ResourceVersionMatchExact}); !apierrors.IsResourceExpired(err) {
		t.Errorf("exact list below the compaction: want 410 Expired, got %v", err)
	}
	w, err = pods.Watch(ctx, metav1.ListOptions{ResourceVersion: "3"})
	if err != nil {
		t.Fatal(err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Error || !apierrors.IsResourceExpired(apierrors.FromObject(ev.Object)) {
		t.Errorf("watch below the compaction: want an ERROR 410 Expired, got %s %v", ev.Type, ev.Object)
	}
	w.Stop()

	// WatchList: initial events, then the end bookmark.
	w, err = pods.Watch(ctx, metav1.ListOptions{SendInitialEvents: ptr.To(true), AllowWatchBookmarks: true,
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan})
	if err != nil {
		t.Fatal(err)
	}
	for range 7 { // p01..p06 and zz-late
		if ev := nextEvent(t, w); ev.Type != watch.Added {
			t.Fatalf("initial events: got %s", ev.Type)
		}
	}
	ev := nextEvent(t, w)
	if ev.Type != watch.Bookmark || ev.Object.(*v1.Pod).Annotations[metav1.InitialEventsAnnotationKey] != "true" {
		t.Errorf("want the initial-events-end bookmark, got %s %v", ev.Type, ev.Object)
	}
	w.Stop()

	// A dropped connection: client-go's watch just closes.
	w, err = pods.Watch(ctx, metav1.ListOptions{ResourceVersion: srv.ResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	srv.DropWatches()
	select {
	case ev, ok := <-w.ResultChan():
		if ok {
			t.Errorf("after a drop, want the channel closed, got %s", ev.Type)
		}
	case <-time.After(5 * time.Second):
		t.Error("the watch did not close after the drop")
	}
}

func TestDynamicClientListsAnyResourceAsUnstructured(t *testing.T) {
	srv := testserver.New(testserver.Options{})
	ws := srv.Serve(widgets)
	for _, name := range []string{"a", "b"} {
		u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name, "namespace": "ns"}, "spec": map[string]any{"size": 3}}}
		if _, err := ws.Create(u); err != nil {
			t.Fatal(err)
		}
	}
	hs := srv.Listen()
	defer hs.Close()
	dc := dynamic.NewForConfigOrDie(&rest.Config{Host: hs.URL, QPS: -1})
	gvr := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	list, err := dc.Resource(gvr).Namespace("ns").List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 2 || list.Items[0].GetKind() != "Widget" {
		t.Errorf("dynamic list: %+v", list.Items)
	}

	// Ours, over the same socket, as Unstructured.
	c := &ours.Client{HTTP: hs.Client(), Base: hs.URL, Path: widgets.Path("ns"), Kind: ours.Unstructured()}
	l, err := c.List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != 2 || l.ResourceVersion != "2" {
		t.Fatalf("our list: %d items at %q", len(l.Items), l.ResourceVersion)
	}
	size, _, _ := unstructured.NestedInt64(l.Items[1].(*unstructured.Unstructured).Object, "spec", "size")
	if size != 3 {
		t.Errorf("widget b's spec.size = %d", size)
	}
}

func TestOurClientOverARealSocket(t *testing.T) {
	srv, podsOnServer := seeded(t, 5)
	hs := srv.Listen()
	defer hs.Close()
	c := &ours.Client{HTTP: hs.Client(), Base: hs.URL, Path: testserver.Pods.Path(""), Kind: ours.Typed[v1.Pod]("Pod")}
	ctx := t.Context()

	list, paginated, err := ours.ListAll(ctx, c, metav1.ListOptions{}, 2)
	if err != nil || !paginated || len(list.Items) != 5 || list.ResourceVersion != "5" {
		t.Fatalf("ListAll: %v paginated=%t items=%d rv=%s", err, paginated, len(list.Items), list.ResourceVersion)
	}

	w, err := c.Watch(ctx, metav1.ListOptions{ResourceVersion: "5"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := podsOnServer.Update(pod("ns", "p01")); err != nil {
		t.Fatal(err)
	}
	ev := <-w.ResultChan()
	if ev.Type != ours.Modified || ev.Object.(*v1.Pod).ResourceVersion != "6" {
		t.Errorf("got %s %v", ev.Type, ev.Object)
	}
	srv.SendError(http.StatusGone, metav1.StatusReasonExpired, "too old resource version: 1 (5)")
	ev = <-w.ResultChan()
	var se *ours.StatusError
	if ev.Type != ours.Error || !errors.As(ev.Err, &se) || !apierrors.IsResourceExpired(ev.Err) || se.ErrStatus.Code != 410 {
		t.Errorf("want a typed 410 Expired, got %s %v", ev.Type, ev.Err)
	}
	if _, ok := <-w.ResultChan(); ok {
		t.Error("the stream should end after an ERROR frame")
	}

	// A watch from a compacted version: the ERROR frame, typed.
	srv.Compact()
	w, err = c.Watch(ctx, metav1.ListOptions{ResourceVersion: "2"})
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-w.ResultChan(); !apierrors.IsResourceExpired(ev.Err) {
		t.Errorf("want 410 Expired, got %s %v", ev.Type, ev.Err)
	}
	w.Stop()

	// A dropped connection ends the stream quietly.
	w, err = c.Watch(ctx, metav1.ListOptions{ResourceVersion: srv.ResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	srv.DropWatches()
	if ev, ok := <-w.ResultChan(); ok {
		t.Errorf("after a drop, want the channel closed, got %s %v", ev.Type, ev.Err)
	}
	w.Stop()
	w.Stop() // twice is fine
}

// TestResetOverARealSocket: the test server's reset fault is a real TCP
// reset on a socket, and both clients send the LIST again after it
// (list-retry.txt shows the same in process, recorded from client-go).
// Each waits a second of the real clock before the retry, so the two run
// side by side, each on a server of its own.
func TestResetOverARealSocket(t *testing.T) {
	lists := map[string]func(ctx context.Context, hs *httptest.Server) (int, error){
		"ours": func(ctx context.Context, hs *httptest.Server) (int, error) {
			c := &ours.Client{HTTP: hs.Client(), Base: hs.URL, Path: testserver.Pods.Path(""), Kind: ours.Typed[v1.Pod]("Pod")}
			list, err := c.List(ctx, metav1.ListOptions{})
			if err != nil {
				return 0, err
			}
			return len(list.Items), nil
		},
		"client-go": func(ctx context.Context, hs *httptest.Server) (int, error) {
			cs := kubernetes.NewForConfigOrDie(&rest.Config{Host: hs.URL, QPS: -1})
			list, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
			if err != nil {
				return 0, err
			}
			return len(list.Items), nil
		},
	}
	for name, list := range lists {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, _ := seeded(t, 3)
			hs := srv.Listen()
			defer hs.Close()
			srv.FailNext(testserver.Fault{Verb: "list", Reset: true})
			if n, err := list(t.Context(), hs); err != nil || n != 3 {
				t.Errorf("after one reset, want the 3 pods, got %d %v", n, err)
			}
		})
	}
}

func TestHTTPErrorsBecomeStatusErrors(t *testing.T) {
	srv, _ := seeded(t, 1)
	c := &ours.Client{HTTP: srv.HTTPClient(), Base: testserver.Host, Path: testserver.Pods.Path(""), Kind: ours.Typed[v1.Pod]("Pod")}
	ctx := t.Context()
	cases := []struct {
		fault testserver.Fault
		is    func(error) bool
	}{
		{testserver.Fault{Verb: "list", Code: 500, Reason: metav1.StatusReasonInternalError, Message: "boom"}, apierrors.IsInternalError},
		{testserver.Fault{Verb: "list", Code: 503, Body: "<html>down for maintenance</html>"}, apierrors.IsServiceUnavailable},
		{testserver.Fault{Verb: "list", Code: 429, Body: "slow down"}, apierrors.IsTooManyRequests},
		{testserver.Fault{Verb: "watch", Code: 410, Reason: metav1.StatusReasonGone, Message: "gone"}, apierrors.IsGone},
		{testserver.Fault{Verb: "watch", Code: 403, Body: "{not json"}, apierrors.IsForbidden},
	}
	for _, tc := range cases {
		srv.FailNext(tc.fault)
		var err error
		if tc.fault.Verb == "list" {
			_, err = c.List(ctx, metav1.ListOptions{})
		} else {
			_, err = c.Watch(ctx, metav1.ListOptions{})
		}
		var se *ours.StatusError
		if !errors.As(err, &se) || !tc.is(err) || se.ErrStatus.Code != tc.fault.Code {
			t.Errorf("%+v: got %T %v", tc.fault, err, err)
		}
	}
	bad := &ours.Client{HTTP: srv.HTTPClient(), Base: testserver.Host, Path: "/api/v1/nothings", Kind: ours.Unstructured()}
	if _, err := bad.List(ctx, metav1.ListOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("unknown resource: got %v", err)
	}
}

func TestFrameDecoderOnBadInput(t *testing.T) {
	podFrame := `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","resourceVersion":"3"}}}`
	cases := []struct{ stream, want string }{
		{podFrame + "\n", "ADDED ns/a@3, EOF"},
		{podFrame + podFrame, "ADDED ns/a@3, ADDED ns/a@3, EOF"},
		{podFrame[:40], "unexpected EOF"},
		{"", "EOF"},
		{"   \n", "EOF"},
		{"not json", "decode error"},
		{`{"type":"ADDED"}`, "decode error"},
		{`{"type":"ADDED","object":null}`, "decode error"},
		{`{"type":"SURPRISE","object":{}}`, "decode error"},
		{`{"type":"ADDED","object":[1,2]}`, "decode error"},
		{`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","code":410,"reason":"Expired","message":"too old"}}`, "ERROR code=410 reason=Expired expired=true"},
		{`{"type":"ERROR","object":{"kind":"Pod"}}`, "decode error"},
		{`[]`, "decode error"},
	}
	for _, tc := range cases {
		next := impls["reference"].NewFrameDecoder(strings.NewReader(tc.stream))
		var got []string
		for {
			s, err := next()
			got = append(got, s)
			if err != nil {
				break
			}
		}
		if g := strings.Join(got, ", "); g != tc.want {
			t.Errorf("%q: got %s, want %s", tc.stream, g, tc.want)
		}
	}
	// A DecodeError says what was wrong.
	_, err := ours.NewFrameDecoder(strings.NewReader(`{"type":"SURPRISE","object":{}}`), ours.Unstructured()).Next()
	if err == nil || !strings.Contains(err.Error(), "got invalid watch event type: SURPRISE") {
		t.Errorf("an event of type SURPRISE: got %v, want an error that says %q, as client-go's decoder does", err, "got invalid watch event type: SURPRISE")
	}
	var de *ours.DecodeError
	if !errors.As(err, &de) {
		t.Errorf("want a *DecodeError, got %T", err)
	}
}

// The in-process transport is a plain http.RoundTripper: reading the
// body and closing it early both work.
func TestTransportClosesEarly(t *testing.T) {
	srv, _ := seeded(t, 3)
	resp, err := srv.HTTPClient().Get(testserver.Host + "/api/v1/pods?watch=true")
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := srv.HTTPClient().Do(must(http.NewRequestWithContext(ctx, "GET", testserver.Host+"/api/v1/pods", nil))); err == nil {
		t.Error("a cancelled request should fail")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A 200 answer that is not a list is an error, not a panic.
func TestListBodyIsNotAList(t *testing.T) {
	for _, body := range []string{"<html>hello</html>", `[1,2]`, `{"items":{}}`, `{"items":[1]}`, `{"metadata":{"resourceVersion":"4"},"items":null}`, `{"kind":"PodList"`} {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, body) }))
		for _, kind := range []ours.Kind{ours.Typed[v1.Pod]("Pod"), ours.Unstructured()} {
			c := &ours.Client{HTTP: hs.Client(), Base: hs.URL, Path: "/api/v1/pods", Kind: kind}
			l, err := c.List(t.Context(), metav1.ListOptions{})
			ok := body == `{"metadata":{"resourceVersion":"4"},"items":null}`
			if ok && (err != nil || l.ResourceVersion != "4" || len(l.Items) != 0) {
				t.Errorf("%q: got %v, %v", body, l, err)
			}
			if !ok && err == nil {
				t.Errorf("%q: want an error", body)
			}
		}
		hs.Close()
	}
}
