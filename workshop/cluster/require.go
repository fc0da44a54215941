package cluster

import (
	"context"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// The environment variables that connect end-to-end tests to a running cluster. `make e2e`
// sets both, from `go run ./workshop/cmd/cluster env`.
const (
	EnvKubeconfig = "WALKTHROUGH_E2E_KUBECONFIG" // path of an admin kubeconfig
	EnvEtcd       = "WALKTHROUGH_E2E_ETCD"       // etcd's client URL, for tests that compact
)

// Require returns a client configuration for the cluster named by WALKTHROUGH_E2E_KUBECONFIG,
// or skips the test when the variable is unset. Every TestE2E… test starts with it, so a plain
// `go test ./...` skips them and stays fast and offline.
func Require(t testing.TB) *rest.Config {
	t.Helper()
	path := os.Getenv(EnvKubeconfig)
	if path == "" {
		t.Skip("no cluster: run `make e2e`, or set " + EnvKubeconfig + "=path")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		t.Fatalf("%s=%s does not load: %v\nStart a cluster with `make cluster-up` and use the kubeconfig it prints.", EnvKubeconfig, path, err)
	}
	// Tests write in bursts; client-go's default of 5 requests a second would only slow them.
	cfg.QPS, cfg.Burst = 200, 400
	return cfg
}

// RequireEtcd returns etcd's client URL from WALKTHROUGH_E2E_ETCD, or skips the test.
func RequireEtcd(t testing.TB) string {
	t.Helper()
	url := os.Getenv(EnvEtcd)
	if url == "" {
		t.Skip("no etcd endpoint: run `make e2e`, or set " + EnvEtcd + "=http://127.0.0.1:PORT " +
			"(`go run ./workshop/cmd/cluster env` prints it)")
	}
	return url
}

// Namespace creates a fresh namespace for one test and deletes it when the test ends, so tests
// never see each other's objects. There is no namespace controller in this cluster, so the
// namespace stays Terminating after the delete; Down throws it away with the data directory.
func Namespace(t testing.TB, core typedcorev1.CoreV1Interface) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ns, err := core.Namespaces().Create(ctx, &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "e2e-", Labels: map[string]string{"walkthrough/e2e": "true"}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating a test namespace: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := core.Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting test namespace %s: %v", ns.Name, err)
		}
	})
	return ns.Name
}
