//go:build ours

package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	controller "example.com/walkthrough/06-controller"
	"example.com/walkthrough/06-controller/app"
	"example.com/walkthrough/06-controller/internal/ourserver"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/06-controller/pkg/generated/clientset/versioned"
)

// TestControllerRecordsEventsOnOurServer runs the rollout-controller
// (app.Run: our parts, and client-go's event broadcaster) on chapter 07's
// API server, started in this process as make demo SERVER=ours starts it,
// and reads its Events back as `kubectl get events` would, with a LIST: a
// Rollout's Deployment created is one Event, POSTed; the Deployment
// deleted behind the controller's back and created again is the same
// event again, which the broadcaster counts on the first one with a
// strategic merge PATCH (count 2). Without Events on our server, both
// were 404s the broadcaster logged and dropped.
func TestControllerRecordsEventsOnOurServer(t *testing.T) {
	cfg := ourserver.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	kube, walk := kubernetes.NewForConfigOrDie(cfg), versioned.NewForConfigOrDie(cfg)
	const ns = "demo"

	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- app.Run(runCtx, cfg, app.Options{Workers: 2, Namespace: ns}) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("app.Run: %v", err)
		}
	}()

	if _, err := walk.WalkthroughV1alpha1().Rollouts(ns).Create(ctx, &v1alpha1.Rollout{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec:       v1alpha1.RolloutSpec{DeploymentName: "web", Replicas: ptr.To[int32](2), Image: "nginx:1.27"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	created := fmt.Sprintf("Created Deployment %q", "web")
	// listed waits until the namespace's Events (a LIST, kubectl get
	// events) hold the controller's "Created" Event with count, and
	// returns it.
	listed := func(count int32) corev1.Event {
		t.Helper()
		var found corev1.Event
		var seen []string
		err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			list, err := kube.CoreV1().Events(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, err
			}
			seen = seen[:0]
			for _, e := range list.Items {
				seen = append(seen, fmt.Sprintf("%s %s %s: %s (count %d)", e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Reason, e.Message, e.Count))
				if e.Reason == controller.ReasonCreated && e.Message == created && e.Count == count {
					found = e
					return true, nil
				}
			}
			return false, nil
		})
		if err != nil {
			t.Fatalf("no Event %q with count %d on our server: %v; its Events:\n  %s", created, count, err, strings.Join(seen, "\n  "))
		}
		return found
	}
	first := listed(1)
	if first.InvolvedObject.Kind != "Rollout" || first.InvolvedObject.Name != "web" || first.Source.Component != controller.Component ||
		first.Type != corev1.EventTypeNormal {
		t.Errorf("the Created Event: %+v", first)
	}
	t.Logf("the controller's Event on our server: %s %s/%s %s: %s", first.Name, first.InvolvedObject.Kind, first.InvolvedObject.Name, first.Reason, first.Message)

	if err := kube.AppsV1().Deployments(ns).Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	again := listed(2)
	if again.Name != first.Name || again.UID != first.UID || !again.FirstTimestamp.Equal(&first.FirstTimestamp) {
		t.Errorf("the repeat is not the first Event counted again: first %s (uid %s), then %s (uid %s)", first.Name, first.UID, again.Name, again.UID)
	}
	t.Logf("the Deployment created again: the same Event, patched to count %d", again.Count)
}
