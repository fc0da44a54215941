package watchserver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	ws "example.com/walkthrough/07-watchserver"
)

// TestClusterScopedCustomResource holds what no recorded scenario shows
// (the scenarios post chapter 06's namespaced Rollout): a cluster-scoped
// CRD's objects are keyed /registry/<group>/<plural>/<name>, served at
// /apis/<group>/<version>/<plural>/<name> and nowhere under a namespace,
// with the same strategy (generation, /status) as a namespaced one; a
// second server on the same etcd serves them from the CRD it finds there;
// and deleting the CRD deletes its objects.
func TestClusterScopedCustomResource(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := startServer(t, ws.CacheOptions{})
	dyn := dynamic.NewForConfigOrDie(&rest.Config{Host: s.http.URL})
	crds := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.example.com"},
		"spec": map[string]any{
			"group": "example.com", "scope": "Cluster",
			"names": map[string]any{"kind": "Widget", "plural": "widgets"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
					"spec":   map[string]any{"type": "object", "properties": map[string]any{"size": map[string]any{"type": "integer"}}},
					"status": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true},
				}}},
			}},
		},
	}}
	if _, err := crds.Create(ctx, crd, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	widgets := dyn.Resource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"})
	w := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"},
		"spec": map[string]any{"size": int64(1), "colour": "pruned"},
	}}
	created, err := widgets.Create(ctx, w, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(created.Object, "spec", "colour"); found || created.GetGeneration() != 1 || created.GetNamespace() != "" {
		t.Fatalf("created %v: want generation 1, no namespace, spec.colour pruned", created.Object)
	}
	if resp, err := s.etcd.Client.Get(ctx, "/registry/example.com/widgets/w"); err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("etcd key /registry/example.com/widgets/w: %v, %d keys", err, len(resp.Kvs))
	}
	if resp, err := http.Get(s.http.URL + "/apis/example.com/v1/namespaces/x/widgets/w"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a cluster-scoped Widget under a namespace: %v, want 404", resp.Status)
	}

	_ = unstructured.SetNestedField(created.Object, int64(2), "spec", "size")
	updated, err := widgets.Update(ctx, created, metav1.UpdateOptions{})
	if err != nil || updated.GetGeneration() != 2 {
		t.Fatalf("update of the spec: %v, generation %d, want 2", err, updated.GetGeneration())
	}
	_ = unstructured.SetNestedField(updated.Object, int64(9), "spec", "size")
	_ = unstructured.SetNestedField(updated.Object, "ok", "status", "phase")
	status, err := widgets.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if size, _, _ := unstructured.NestedInt64(status.Object, "spec", "size"); size != 2 || status.GetGeneration() != 2 {
		t.Fatalf("after /status: spec.size %d generation %d, want the stored 2 and 2", size, status.GetGeneration())
	}
	if phase, _, _ := unstructured.NestedString(status.Object, "status", "phase"); phase != "ok" {
		t.Fatalf("after /status: status.phase %q, want ok", phase)
	}

	// A second server on the same etcd has never seen the CRD's create:
	// it serves the Widget from the CRD it reads there.
	srv := ws.NewServer(s.storage, s.cache)
	t.Cleanup(srv.Close)
	second := httptest.NewServer(srv)
	t.Cleanup(second.Close)
	widgetsGVR := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	again, err := dynamic.NewForConfigOrDie(&rest.Config{Host: second.URL}).Resource(widgetsGVR).Get(ctx, "w", metav1.GetOptions{})
	if err != nil || again.GetUID() != created.GetUID() {
		t.Fatalf("a second server's GET of the Widget: %v", err)
	}

	if err := crds.Delete(ctx, "widgets.example.com", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if resp, err := s.etcd.Client.Get(ctx, "/registry/example.com/widgets/", clientv3.WithPrefix(), clientv3.WithCountOnly()); err != nil || resp.Count != 0 {
		t.Fatalf("after the CRD's delete, its Widgets: %v, %d keys left", err, resp.Count)
	}
	if _, err := widgets.Get(ctx, "w", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("a Widget after its CRD's delete: %v, want a 404", err)
	}
}
