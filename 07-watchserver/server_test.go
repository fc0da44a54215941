package watchserver_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	ws "example.com/walkthrough/07-watchserver"
)

// clientFor is a client-go clientset that speaks contentType to s.
func clientFor(t testing.TB, s *testServer, contentType string) *kubernetes.Clientset {
	t.Helper()
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: s.http.URL, ContentConfig: rest.ContentConfig{
		ContentType: contentType, AcceptContentTypes: contentType,
	}})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestClientGoWatchesBothWireFormats: client-go's own decoders read our
// JSON lines and our length-prefixed protobuf frames, and see the stream
// end cleanly at timeoutSeconds.
func TestClientGoWatchesBothWireFormats(t *testing.T) {
	t.Parallel() // its own etcd and server: it waits beside the others
	s := startServer(t, ws.CacheOptions{})
	for _, ct := range []string{"application/json", "application/vnd.kubernetes.protobuf"} {
		t.Run(ct, func(t *testing.T) {
			ctx := context.Background()
			cms := clientFor(t, s, ct).CoreV1().ConfigMaps("ns-" + strings.TrimSuffix(ct[12:16], ".")) // a namespace must be a DNS label
			a, err := cms.Create(ctx, cm("", "a", "1"), metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			a.Data["v"] = "2"
			if _, err := cms.Update(ctx, a, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			_, err = cms.Update(ctx, a, metav1.UpdateOptions{}) // a's rv is stale now
			if !apierrors.IsConflict(err) {
				t.Fatalf("stale update over HTTP: want 409, got %v", err)
			}
			if err := cms.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			// The watch starts after the writes and replays them from the
			// cache's window: its second can go to the stream's end alone,
			// however slowly the writes went.
			w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: a.ResourceVersion, TimeoutSeconds: new(int64(1))})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			var got []string
			for ev := range w.ResultChan() { // ends at timeoutSeconds
				got = append(got, string(ev.Type))
			}
			if strings.Join(got, " ") != "MODIFIED DELETED" {
				t.Fatalf("events: %v, want MODIFIED DELETED then a clean end", got)
			}
		})
	}
}

// TestWatchStreamOnTheWire reads the raw HTTP response: headers first,
// one JSON line per event, 406 for a type with no stream framing, 422 for
// options kube-apiserver refuses.
func TestWatchStreamOnTheWire(t *testing.T) {
	t.Parallel() // its own etcd and server: it waits beside the others
	s := startServer(t, ws.CacheOptions{})
	if _, err := s.storage.Create(context.Background(), cm("ns", "a", "1")); err != nil {
		t.Fatal(err)
	}
	base := s.http.URL + "/api/v1/namespaces/ns/configmaps"
	get := func(query, accept string) *http.Response {
		req, _ := http.NewRequest("GET", base+"?"+query, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	resp := get("watch=true&allowWatchBookmarks=true&timeoutSeconds=1", "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || resp.TransferEncoding[0] != "chunked" {
		t.Fatalf("watch response: %d %v %v", resp.StatusCode, resp.Header, resp.TransferEncoding)
	}
	lines := bufio.NewScanner(resp.Body)
	var got []string
	for lines.Scan() {
		got = append(got, lines.Text())
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"ns",`) ||
		got[1] != `{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"2","annotations":{"k8s.io/initial-events-end":"true"}}}}` {
		t.Fatalf("stream:\n%s", strings.Join(got, "\n"))
	}
	resp = get("watch=true", "application/yaml")
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 406 || !strings.Contains(string(body), "only the following media types are accepted") {
		t.Fatalf("yaml watch: %d %s", resp.StatusCode, body)
	}
	resp = get("watch=true&sendInitialEvents=true", "")
	body, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 422 || !strings.Contains(string(body), `ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`) {
		t.Fatalf("sendInitialEvents without NotOlderThan: %d %s", resp.StatusCode, body)
	}
}

// TestWatchTooOldIsAnErrorFrameIn200 is kube-apiserver's 410 for a version
// older than the cache's window: a 200 stream with one ERROR frame, then
// the end.
func TestWatchTooOldIsAnErrorFrameIn200(t *testing.T) {
	t.Parallel() // its own etcd and server: it waits beside the others
	// A ring that cannot grow, so four writes overflow it.
	s := startServer(t, ws.CacheOptions{History: 2, MaxHistory: 2})
	ctx := context.Background()
	for _, name := range []string{"a", "b", "c", "d"} { // revisions 2..5; the ring keeps 4 and 5
		if _, err := s.storage.Create(ctx, cm("ns", name, "1")); err != nil {
			t.Fatal(err)
		}
	}
	waitRV(t, s.cache, 5)
	w, err := s.cs.CoreV1().ConfigMaps("ns").Watch(ctx, metav1.ListOptions{ResourceVersion: "2"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	select {
	case ev := <-w.ResultChan():
		st, _ := ev.Object.(*metav1.Status)
		if ev.Type != watch.Error || st == nil {
			t.Fatalf("want an ERROR event carrying a Status, got %v %+v", ev.Type, ev.Object)
		}
		// Each field apart, so that the report says which one differs
		// (trial C's Reason Gone read "want 410, got ... 410").
		got := fmt.Sprintf("code %d, reason %s, message %q", st.Code, st.Reason, st.Message)
		if want := `code 410, reason Expired, message "too old resource version: 2 (3)"`; got != want {
			t.Fatalf("the ERROR event's Status:\n  got  %s\n  want %s", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
	}
	if _, open := <-w.ResultChan(); open {
		t.Fatal("the stream goes on after the ERROR frame")
	}
}

// TestNamespaceSelectorNarrowsTheList: a LIST of every namespace with
// fieldSelector=metadata.namespace=b reads b only, as kube-apiserver's
// registry narrows the key: a page that ends on b's last object has no
// continue token, although namespace c's objects follow in etcd.
// (list-namespace-selector.txt shows it against kube-apiserver, whose
// etcd holds other namespaces; ours, in a scenario, holds only one.)
func TestNamespaceSelectorNarrowsTheList(t *testing.T) {
	t.Parallel() // its own etcd and server: it waits beside the others
	s := startServer(t, ws.CacheOptions{})
	cs := clientFor(t, s, "application/json")
	ctx := context.Background()
	for _, o := range [][2]string{{"a", "x"}, {"b", "x"}, {"b", "y"}, {"c", "x"}} {
		if _, err := cs.CoreV1().ConfigMaps(o[0]).Create(ctx, cm("", o[1], "1"), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := cs.CoreV1().ConfigMaps("").List(ctx, metav1.ListOptions{FieldSelector: "metadata.namespace=b", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 2 || list.Continue != "" {
		t.Fatalf("every namespace, metadata.namespace=b, limit 2: want b/x and b/y with no continue token, got %d items, continue %q", len(list.Items), list.Continue)
	}
}

// TestListItemsCarryNoKind: kube-apiserver's LIST names its kind once, on
// the list; the items come without kind and apiVersion (storage decodes
// them without, and the encoder sets them on the top object only), while a
// GET's single object carries both. Read from kube-apiserver v1.37.1:
// {"kind":"ConfigMapList","apiVersion":"v1","metadata":{...},"items":[{"metadata":...}]}.
func TestListItemsCarryNoKind(t *testing.T) {
	t.Parallel()
	s := startServer(t, ws.CacheOptions{})
	if _, err := s.storage.Create(context.Background(), cm("ns", "a", "1")); err != nil {
		t.Fatal(err)
	}
	waitRV(t, s.cache, 2) // the cache holds it: rv=0 reads the cache
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(s.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(body)
	}
	for _, path := range []string{"/api/v1/namespaces/ns/configmaps", "/api/v1/namespaces/ns/configmaps?resourceVersion=0", "/api/v1/configmaps?limit=1"} {
		body := get(path)
		if !strings.HasPrefix(body, `{"kind":"ConfigMapList","apiVersion":"v1",`) || !strings.Contains(body, `"items":[{"metadata":`) {
			t.Errorf("GET %s:\n%s\nwant the kind on the list only, as kube-apiserver: \"items\":[{\"metadata\":...", path, body)
		}
	}
	if body := get("/api/v1/namespaces/ns/configmaps/a"); !strings.HasPrefix(body, `{"kind":"ConfigMap","apiVersion":"v1",`) {
		t.Errorf("GET one ConfigMap:\n%s\nwant it to name its kind, as kube-apiserver's", body)
	}
}

// TestCreateInANamespaceNobodyMade pins a declared difference: our server
// has no namespaces, so a ConfigMap may be created in any namespace name.
// kube-apiserver's NamespaceLifecycle admission refuses a create in a
// namespace that does not exist: 404 NotFound, `namespaces "nowhere" not
// found` (a LIST there is an empty 200 on both). docs/07-watchserver.md,
// "How kube-apiserver differs", Not built.
func TestCreateInANamespaceNobodyMade(t *testing.T) {
	t.Parallel()
	s := startServer(t, ws.CacheOptions{})
	if _, err := s.cs.CoreV1().ConfigMaps("nowhere").Create(context.Background(), cm("nowhere", "x", "1"), metav1.CreateOptions{}); err != nil {
		t.Fatalf("create in a namespace nobody made: %v; ours has no namespaces and accepts it (kube-apiserver: 404)", err)
	}
}
