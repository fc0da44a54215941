// Your copy of ../sync.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=06` checks your work.

package controller

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"

	"example.com/walkthrough/workshop/todo"
)

// syncHandler makes the cluster match one Rollout: its Deployment exists,
// is ours, has the Rollout's replicas and image, and the Rollout's status
// says what the Deployment reports. It reads only from the listers and
// writes only what differs, so running it twice in a row writes nothing
// the second time: that is what makes retries and duplicate keys safe.
//
// A nil error means "done with this key"; an error means "try again
// later", and the worker requeues the key with backoff.
//
// client-go: k8s.io/sample-controller/controller.go (syncHandler)
func (c *Controller) syncHandler(ctx context.Context, key string) error {
	// Exercise 3: Create or update the Deployment a Rollout owns.
	// Hint: Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error.
	panic(todo.Exercise("06-controller", 3, "Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error."))
}

// newDeployment is the Deployment a Rollout asks for: one container
// running the Rollout's image, selected by a label naming the Rollout, and
// controlled by the Rollout through an owner reference. The owner
// reference does two jobs: the garbage collector deletes the Deployment
// with its Rollout, and handleObject finds the Rollout from the Deployment.
func newDeployment(rollout *v1alpha1.Rollout) *appsv1.Deployment {
	labels := map[string]string{"app": rollout.Spec.DeploymentName, "rollout": rollout.Name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{
			Name:      rollout.Spec.DeploymentName,
			Namespace: rollout.Namespace,
			Labels:    labels,
			OwnerReferences: []metav1.OwnerReference{
				*metav1.NewControllerRef(rollout, v1alpha1.SchemeGroupVersion.WithKind("Rollout")),
			},
		},
		Spec: appsv1.DeploymentSpec{
			Replicas: rollout.Spec.Replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{Name: "app", Image: rollout.Spec.Image}},
				},
			},
		},
	}
}

// deploymentChanges lists, for people, what the Deployment must change to
// match the Rollout: its replicas (when the Rollout sets them) and its
// first container's image. Empty means in step.
func deploymentChanges(rollout *v1alpha1.Rollout, d *appsv1.Deployment) []string {
	var changes []string
	if want := rollout.Spec.Replicas; want != nil && (d.Spec.Replicas == nil || *d.Spec.Replicas != *want) {
		have := "unset"
		if d.Spec.Replicas != nil {
			have = fmt.Sprint(*d.Spec.Replicas)
		}
		changes = append(changes, fmt.Sprintf("replicas %s→%d", have, *want))
	}
	if have := deploymentImage(d); have != rollout.Spec.Image {
		changes = append(changes, fmt.Sprintf("image %s→%s", have, rollout.Spec.Image))
	}
	return changes
}

func deploymentImage(d *appsv1.Deployment) string {
	if cs := d.Spec.Template.Spec.Containers; len(cs) > 0 {
		return cs[0].Image
	}
	return ""
}

// withRolloutSpec returns a copy of the Deployment with the Rollout's
// replicas and image, and everything else as it was: the controller owns
// those two fields, not the whole object. The cached object is never
// changed in place, because the informer and every other reader share it.
func withRolloutSpec(rollout *v1alpha1.Rollout, d *appsv1.Deployment) *appsv1.Deployment {
	d = d.DeepCopy()
	if rollout.Spec.Replicas != nil {
		d.Spec.Replicas = rollout.Spec.Replicas
	}
	if len(d.Spec.Template.Spec.Containers) == 0 {
		d.Spec.Template.Spec.Containers = []corev1.Container{{Name: "app"}}
	}
	d.Spec.Template.Spec.Containers[0].Image = rollout.Spec.Image
	return d
}

// updateStatus copies what the Deployment reports into the Rollout's
// status, and writes it only when it changed: a write that changes nothing
// would still wake every watcher of Rollouts, this controller included.
//
// client-go: k8s.io/sample-controller/controller.go (updateFooStatus)
func (c *Controller) updateStatus(ctx context.Context, key string, rollout *v1alpha1.Rollout, d *appsv1.Deployment) error {
	updated := rollout.DeepCopy()
	updated.Status.AvailableReplicas = d.Status.AvailableReplicas
	updated.Status.ObservedGeneration = rollout.Generation
	ready := metav1.Condition{
		Type:               ConditionReady,
		Status:             metav1.ConditionFalse,
		Reason:             "Progressing",
		Message:            fmt.Sprintf("%d of %d replicas available", d.Status.AvailableReplicas, wantReplicas(d)),
		ObservedGeneration: rollout.Generation,
	}
	if d.Status.AvailableReplicas >= wantReplicas(d) {
		ready.Status, ready.Reason = metav1.ConditionTrue, "Available"
	}
	meta.SetStatusCondition(&updated.Status.Conditions, ready)
	if equality.Semantic.DeepEqual(updated.Status, rollout.Status) {
		return nil
	}
	c.tracef(StageAPI, key, "update status: available %d, %s=%s", updated.Status.AvailableReplicas, ConditionReady, ready.Status)
	_, err := c.rolloutFor(rollout.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: FieldManager})
	return err
}

// wantReplicas is a Deployment's desired size; nil means the API default, 1.
func wantReplicas(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// event records an Event about the Rollout and traces it.
func (c *Controller) event(key string, rollout *v1alpha1.Rollout, eventtype, reason, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	c.tracef(StageEvent, key, "%s %s: %s", eventtype, reason, msg)
	if c.recorder != nil {
		c.recorder.Eventf(rollout, eventtype, reason, "%s", msg)
	}
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
