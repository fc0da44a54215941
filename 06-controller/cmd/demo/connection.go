package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/clientcmd"

	"example.com/walkthrough/06-controller/crd"
	"example.com/walkthrough/06-controller/fakeapi"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/06-controller/pkg/generated/clientset/versioned"
)

// world is where the demo runs: clients, a namespace, and whether the
// API server is the embedded fake (which can inject a conflict).
type world struct {
	kube     kubernetes.Interface
	walk     versioned.Interface
	ns       string
	where    string
	injectCo func() // makes the next status update conflict; nil on a real cluster
}

// connect builds the world: the embedded fake cluster, or a real one.
func connect(ctx context.Context, kubeconfig string) (*world, error) {
	if kubeconfig == "" {
		api := fakeapi.New(nil)
		w := &world{kube: api.Kube, walk: api.Walk, ns: "demo", where: "the embedded API server (client-go fake clientsets, in this process)"}
		var once sync.Once
		w.injectCo = func() {
			armed := true
			once.Do(func() {
				api.Walk.PrependReactor("update", "rollouts", func(a k8stesting.Action) (bool, runtime.Object, error) {
					if !armed || a.GetSubresource() != "status" {
						return false, nil, nil
					}
					armed = false
					m, _ := meta.Accessor(a.(k8stesting.UpdateAction).GetObject())
					return true, nil, apierrors.NewConflict(v1alpha1.Resource("rollouts"), m.GetName(), errors.New("the object has been modified"))
				})
			})
		}
		return w, nil
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
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
	ns := fmt.Sprintf("rollout-demo-%d", time.Now().Unix())
	if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create namespace %s: %w", ns, err)
	}
	return &world{kube: kube, walk: walk, ns: ns, where: "the cluster in " + kubeconfig}, nil
}
