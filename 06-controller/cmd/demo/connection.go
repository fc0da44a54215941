package main

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"example.com/walkthrough/06-controller/crd"
	"example.com/walkthrough/06-controller/pkg/generated/clientset/versioned"
	"example.com/walkthrough/06-controller/viewer"
)

// world is where the demo runs: clients, a namespace, and whether the
// API server is the embedded fake (which can inject a conflict).
type world struct {
	kube     kubernetes.Interface
	walk     versioned.Interface
	ns       string
	where    string
	injectCo func()       // makes the next status update conflict; nil on a real cluster
	close    func() error // stops the API server connect started; nil when it started none
	// traceServer starts tracing the server's side of each change, and
	// serverState reads it for the viewer: on chapter 07's server only
	// (servertrace.go), nil elsewhere.
	traceServer func(trace func(stage, key, msg string))
	serverState func() *viewer.APIServer
}

// connect builds the world: the API server embedded in this process (a
// fake one, or chapter 07's: the build chose, embedded_fake.go and
// embedded_ours.go), or the cluster in kubeconfig.
func connect(ctx context.Context, kubeconfig string) (*world, error) {
	if kubeconfig == "" {
		return embedded(ctx)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	w, err := dial(ctx, cfg)
	if err != nil {
		return nil, err
	}
	w.ns = fmt.Sprintf("rollout-demo-%d", time.Now().Unix())
	if _, err := w.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: w.ns}}, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create namespace %s: %w", w.ns, err)
	}
	w.where = "the cluster in " + kubeconfig
	return w, nil
}

// dial makes the clients of an API server reached over HTTP and applies
// the Rollout's CustomResourceDefinition there, waiting until it is
// established.
func dial(ctx context.Context, cfg *rest.Config) (*world, error) {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	walk, err := versioned.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ext, err := apiextensions.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	if err := crd.Apply(ctx, ext); err != nil {
		return nil, err
	}
	return &world{kube: kube, walk: walk}, nil
}
