package controller

import (
	"context"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	indexer "example.com/walkthrough/03-indexer"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
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
// upstream: k8s.io/sample-controller/controller.go (Controller.syncHandler)
func (c *Controller) syncHandler(ctx context.Context, key string) error {
	// exercise:begin 4 Create or update the Deployment a Rollout owns
	// exercise:hint Split the key, read the Rollout (gone: return nil), read its Deployment, create
	//   it when missing, refuse one you do not control, update replicas and image when they differ,
	//   then update the status. The helpers below are yours too: newDeployment builds the
	//   Deployment (owner reference, labels, replicas, one container), deploymentChanges and
	//   withRolloutSpec compare and copy the spec, updateStatus writes the status only when it
	//   changed, event records an event.
	// exercise:hint Record an Event for each change, and a Warning (ReasonResourceExists) for a
	//   Deployment you do not own, returning that message as the error.
	// exercise:deeper Use apierrors.IsNotFound on lister errors, newDeployment(rollout) to create,
	//   metav1.IsControlledBy for ownership, deploymentChanges to see what differs, and
	//   c.updateStatus at the end.
	// exercise:deeper The texts the scenarios recorded: labels app=<spec.deploymentName> and
	//   rollout=<the Rollout's name> (on the Deployment, its selector and its pod template);
	//   one container named app; changes "replicas 2→4" ("unset→4" when the Deployment has
	//   none) and "image a→b"; events "Created Deployment %q" and "Updated Deployment %q: "
	//   with the changes joined by ", "; the Ready condition's message "N of M replicas
	//   available", its reason Available once every replica is, else Progressing.
	namespace, name, err := indexer.SplitMetaNamespaceKey(key)
	if err != nil {
		c.errorf("invalid resource key %q: %v", key, err)
		return nil
	}
	rollout, err := c.rollouts.Get(namespace, name)
	if apierrors.IsNotFound(err) {
		c.tracef(StageWorker, key, "rollout no longer exists; nothing to do")
		return nil
	}
	if err != nil {
		return err
	}
	if rollout.Spec.DeploymentName == "" {
		c.errorf("%s: spec.deploymentName must be set", key)
		return nil
	}

	deployment, err := c.deployments.Get(namespace, rollout.Spec.DeploymentName)
	if apierrors.IsNotFound(err) {
		c.tracef(StageAPI, key, "create deployment %s", rollout.Spec.DeploymentName)
		deployment, err = c.deployFor(namespace).Create(ctx, newDeployment(rollout), metav1.CreateOptions{FieldManager: FieldManager})
		if err == nil {
			c.event(key, rollout, corev1.EventTypeNormal, ReasonCreated, "Created Deployment %q", deployment.Name)
		}
	}
	if err != nil {
		return err
	}

	if !metav1.IsControlledBy(deployment, rollout) {
		msg := fmt.Sprintf(MessageResourceExists, deployment.Name)
		c.event(key, rollout, corev1.EventTypeWarning, ReasonResourceExists, "%s", msg)
		return fmt.Errorf("%s", msg)
	}

	if changes := deploymentChanges(rollout, deployment); len(changes) > 0 {
		c.tracef(StageAPI, key, "update deployment %s: %s", deployment.Name, strings.Join(changes, ", "))
		deployment, err = c.deployFor(namespace).Update(ctx, withRolloutSpec(rollout, deployment), metav1.UpdateOptions{FieldManager: FieldManager})
		if err != nil {
			return err
		}
		c.event(key, rollout, corev1.EventTypeNormal, ReasonUpdated, "Updated Deployment %q: %s", deployment.Name, strings.Join(changes, ", "))
	}

	return c.updateStatus(ctx, key, rollout, deployment)
	// exercise:end 4
}

// newDeployment is the Deployment a Rollout asks for: one container
// running the Rollout's image, selected by a label naming the Rollout, and
// controlled by the Rollout through an owner reference. The owner
// reference does two jobs: the garbage collector deletes the Deployment
// with its Rollout, and handleObject finds the Rollout from the Deployment.
func newDeployment(rollout *v1alpha1.Rollout) *appsv1.Deployment {
	// exercise:begin 4
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
	// exercise:end 4
}

// deploymentChanges lists, for people, what the Deployment must change to
// match the Rollout: its replicas (when the Rollout sets them) and its
// first container's image. Empty means in step.
func deploymentChanges(rollout *v1alpha1.Rollout, d *appsv1.Deployment) []string {
	// exercise:begin 4
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
	// exercise:end 4
}

// deploymentImage is the image of a Deployment's first container, or "".
func deploymentImage(d *appsv1.Deployment) string {
	// exercise:begin 4
	if cs := d.Spec.Template.Spec.Containers; len(cs) > 0 {
		return cs[0].Image
	}
	return ""
	// exercise:end 4
}

// withRolloutSpec returns a copy of the Deployment with the Rollout's
// replicas and image, and everything else as it was: the controller owns
// those two fields, not the whole object. The cached object is never
// changed in place, because the informer and every other reader share it.
func withRolloutSpec(rollout *v1alpha1.Rollout, d *appsv1.Deployment) *appsv1.Deployment {
	// exercise:begin 4
	d = d.DeepCopy()
	if rollout.Spec.Replicas != nil {
		d.Spec.Replicas = rollout.Spec.Replicas
	}
	if len(d.Spec.Template.Spec.Containers) == 0 {
		d.Spec.Template.Spec.Containers = []corev1.Container{{Name: "app"}}
	}
	d.Spec.Template.Spec.Containers[0].Image = rollout.Spec.Image
	return d
	// exercise:end 4
}

// updateStatus copies what the Deployment reports into the Rollout's
// status, and writes it only when it changed: a write that changes nothing
// would still wake every watcher of Rollouts, this controller included.
//
// upstream: k8s.io/sample-controller/controller.go (Controller.updateFooStatus)
func (c *Controller) updateStatus(ctx context.Context, key string, rollout *v1alpha1.Rollout, d *appsv1.Deployment) error {
	// exercise:begin 4
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
	// exercise:end 4
}

// wantReplicas is a Deployment's desired size; nil means the API default, 1.
func wantReplicas(d *appsv1.Deployment) int32 {
	// exercise:begin 4
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
	// exercise:end 4
}

// event records an Event about the Rollout and traces it.
func (c *Controller) event(key string, rollout *v1alpha1.Rollout, eventtype, reason, format string, args ...any) {
	// exercise:begin 4
	msg := fmt.Sprintf(format, args...)
	c.tracef(StageEvent, key, "%s %s: %s", eventtype, reason, msg)
	if c.recorder != nil {
		c.recorder.Eventf(rollout, eventtype, reason, "%s", msg)
	}
	// exercise:end 4
}
