package watchserver_test

import (
	"context"
	"net/http"
	"testing"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"example.com/walkthrough/workshop/cluster"
	"example.com/walkthrough/workshop/scenario"
)

// The recording side: a real kube-apiserver and etcd (`make cluster-up`,
// docs/e2e.md). The harness calls it "client-go", the name under which
// every chapter's goldens are recorded; for this chapter the thing
// recorded is the server. Without a cluster the scenarios skip, so
// `WALKTHROUGH_IMPL=client-go go test` is green offline and records
// nothing.
func init() {
	register(scenario.ClientGo, impl{Start: func(t testing.TB) target {
		cfg := cluster.Require(t)
		cs, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		hc, err := rest.HTTPClientFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		tlsConfig, err := rest.TLSConfigFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		// Idle keep-alive connections (HTTP/2 read loops) would outlive the
		// test and fail the leak check.
		t.Cleanup(func() { utilnet.CloseIdleConnectionsFor(hc.Transport) })
		ns := cluster.Namespace(t, cs.CoreV1())
		etcd := cluster.RequireEtcd(t)
		return target{
			Base: cfg.Host + "/api/v1/namespaces/" + ns + "/configmaps", HTTP: hc, TLS: tlsConfig,
			Compact: func(t testing.TB) {
				_, err := cluster.CompactEtcd(context.Background(), etcd)
				// It talks to etcd through the default client: its idle
				// connection would outlive the test.
				http.DefaultClient.CloseIdleConnections()
				if err != nil {
					t.Fatal(err)
				}
			},
		}
	}})
}
