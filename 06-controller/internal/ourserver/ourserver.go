// Package ourserver starts chapter 07's API server for a test of chapter
// 06, as make demo starts it: in the test's process, on an etcd of its
// own, with the Rollout's CustomResourceDefinition applied over HTTP.
package ourserver

import (
	"context"
	"testing"
	"time"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/client-go/rest"

	"example.com/walkthrough/06-controller/crd"
	watchserver "example.com/walkthrough/07-watchserver"
)

// Start runs the server until the test ends and returns a config for it
// (no client-side rate limit: the tests' stories are short bursts).
func Start(t testing.TB) *rest.Config {
	t.Helper()
	srv, err := watchserver.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("closing chapter 07's server: %v", err)
		}
	})
	cfg := &rest.Config{Host: srv.URL, QPS: -1}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := crd.Apply(ctx, apiextensions.NewForConfigOrDie(cfg)); err != nil {
		t.Fatal(err)
	}
	return cfg
}
