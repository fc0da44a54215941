package testserver_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/01-listwatch/testserver"
)

func pod(ns, name string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

type listBody struct {
	Metadata metav1.ListMeta `json:"metadata"`
	Items    []v1.Pod        `json:"items"`
}

func get(t *testing.T, srv *testserver.Server, path string) (int, string) {
	t.Helper()
	resp, err := srv.HTTPClient().Get(testserver.Host + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		b.WriteString(sc.Text() + "\n")
	}
	return resp.StatusCode, b.String()
}

func names(t *testing.T, body string) (string, []string) {
	t.Helper()
	var l listBody
	if err := json.Unmarshal([]byte(body), &l); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	var out []string
	for _, p := range l.Items {
		out = append(out, p.Namespace+"/"+p.Name+"@"+p.ResourceVersion)
	}
	return l.Metadata.ResourceVersion, out
}

func TestListSnapshotsAndNamespaces(t *testing.T) {
	srv := testserver.New(testserver.Options{})
	pods := srv.Serve(testserver.Pods)
	pods.Create(pod("b", "x")) // 1
	pods.Create(pod("a", "y")) // 2
	pods.Update(pod("b", "x")) // 3
	pods.Delete("a", "y")      // 4

	_, body := get(t, srv, "/api/v1/pods")
	if rv, got := names(t, body); rv != "4" || strings.Join(got, " ") != "b/x@3" {
		t.Errorf("current: rv=%s %v", rv, got)
	}
	_, body = get(t, srv, "/api/v1/pods?resourceVersion=2&resourceVersionMatch=Exact")
	if rv, got := names(t, body); rv != "2" || strings.Join(got, " ") != "a/y@2 b/x@1" {
		t.Errorf("exact 2: rv=%s %v", rv, got)
	}
	_, body = get(t, srv, "/api/v1/namespaces/a/pods?resourceVersion=2&resourceVersionMatch=Exact")
	if _, got := names(t, body); strings.Join(got, " ") != "a/y@2" {
		t.Errorf("namespace a at 2: %v", got)
	}
	if code, body := get(t, srv, "/api/v1/pods?resourceVersion=99"); code != http.StatusGatewayTimeout || !strings.Contains(body, "ResourceVersionTooLarge") {
		t.Errorf("too large: %d %s", code, body)
	}
	if code, _ := get(t, srv, "/api/v1/services"); code != http.StatusNotFound {
		t.Errorf("unknown resource: %d", code)
	}
}

func TestContinueTokens(t *testing.T) {
	srv := testserver.New(testserver.Options{})
	pods := srv.Serve(testserver.Pods)
	for _, n := range []string{"a", "b", "c"} {
		pods.Create(pod("ns", n))
	}
	_, body := get(t, srv, "/api/v1/pods?limit=2")
	var l listBody
	json.Unmarshal([]byte(body), &l)
	if len(l.Items) != 2 || l.Metadata.Continue == "" || *l.Metadata.RemainingItemCount != 1 {
		t.Fatalf("page 1: %s", body)
	}
	pods.Create(pod("ns", "d")) // after the snapshot
	_, body = get(t, srv, "/api/v1/pods?limit=2&continue="+l.Metadata.Continue)
	if rv, got := names(t, body); rv != "3" || strings.Join(got, " ") != "ns/c@3" {
		t.Errorf("page 2 of snapshot 3: rv=%s %v", rv, got)
	}
	srv.Compact()
	if code, body := get(t, srv, "/api/v1/pods?limit=2&continue="+l.Metadata.Continue); code != http.StatusGone || !strings.Contains(body, `"Expired"`) {
		t.Errorf("after compaction: %d %s", code, body)
	}
}

func TestWatchReplayTypes(t *testing.T) {
	srv := testserver.New(testserver.Options{})
	pods := srv.Serve(testserver.Pods)
	pods.Create(pod("ns", "a")) // 1
	pods.Update(pod("ns", "a")) // 2
	pods.Delete("ns", "a")      // 3
	pods.Create(pod("ns", "a")) // 4
	// The watch replays what came after 1, then ends at its timeout.
	code, body := get(t, srv, "/api/v1/pods?watch=1&resourceVersion=1&timeoutSeconds=1")
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		var f struct{ Type string }
		json.Unmarshal([]byte(line), &f)
		types = append(types, f.Type)
	}
	if code != 200 || strings.Join(types, " ") != "MODIFIED DELETED ADDED" {
		t.Errorf("replay from 1: %d %v", code, types)
	}
}
