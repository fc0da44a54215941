package main

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// simulateDeployments plays the Deployment controller, which neither the
// embedded cluster nor the local control plane runs: 150ms after a
// Deployment changes, it reports all its replicas available.
func simulateDeployments(ctx context.Context, w *world, p *printer) {
	deployments := w.kube.AppsV1().Deployments(w.ns)
	watcher, err := deployments.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		p.trace("cluster", "", fmt.Sprintf("(simulated) cannot watch deployments: %v", err))
		return
	}
	defer watcher.Stop()
	for ev := range watcher.ResultChan() {
		d, ok := ev.Object.(*appsv1.Deployment)
		if !ok || d.Spec.Replicas == nil || d.Status.AvailableReplicas == *d.Spec.Replicas && d.Status.ObservedGeneration == d.Generation {
			continue
		}
		go func(name string) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(150 * time.Millisecond):
			}
			d, err := deployments.Get(ctx, name, metav1.GetOptions{})
			if err != nil || d.Spec.Replicas == nil || d.Status.AvailableReplicas == *d.Spec.Replicas && d.Status.ObservedGeneration == d.Generation {
				return
			}
			n := *d.Spec.Replicas
			d.Status.ObservedGeneration = d.Generation
			d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.ReadyReplicas, d.Status.AvailableReplicas = n, n, n, n
			if _, err := deployments.UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil {
				p.trace("cluster", w.ns+"/"+name, fmt.Sprintf("(simulated) status update failed: %v", err))
				return
			}
			p.trace("cluster", w.ns+"/"+name, fmt.Sprintf("(simulated) deployment %s: %d/%d available", name, n, n))
		}(d.Name)
	}
}
