// Your copy of ../sync.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=06` checks your work.

package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"

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
	// Exercise 4: Create or update the Deployment a Rollout owns.
	// Hint: Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error.
	panic(todo.Exercise("06-controller", 4, "Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error."))
}

// newDeployment is the Deployment a Rollout asks for: one container
// running the Rollout's image, selected by a label naming the Rollout, and
// controlled by the Rollout through an owner reference. The owner
// reference does two jobs: the garbage collector deletes the Deployment
// with its Rollout, and handleObject finds the Rollout from the Deployment.
func newDeployment(rollout *v1alpha1.Rollout) *appsv1.Deployment {
	// Exercise 4, continued.
	// Hint: Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error.
	panic(todo.Exercise("06-controller", 4, "Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error."))
}

// deploymentChanges lists, for people, what the Deployment must change to
// match the Rollout: its replicas (when the Rollout sets them) and its
// first container's image. Empty means in step.
func deploymentChanges(rollout *v1alpha1.Rollout, d *appsv1.Deployment) []string {
	// Exercise 4, continued.
	// Hint: Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error.
	panic(todo.Exercise("06-controller", 4, "Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error."))
}

func deploymentImage(d *appsv1.Deployment) string {
	// Exercise 4, continued.
	// Hint: Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error.
	panic(todo.Exercise("06-controller", 4, "Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error."))
}

// withRolloutSpec returns a copy of the Deployment with the Rollout's
// replicas and image, and everything else as it was: the controller owns
// those two fields, not the whole object. The cached object is never
// changed in place, because the informer and every other reader share it.
func withRolloutSpec(rollout *v1alpha1.Rollout, d *appsv1.Deployment) *appsv1.Deployment {
	// Exercise 4, continued.
	// Hint: Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error.
	panic(todo.Exercise("06-controller", 4, "Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error."))
}

// updateStatus copies what the Deployment reports into the Rollout's
// status, and writes it only when it changed: a write that changes nothing
// would still wake every watcher of Rollouts, this controller included.
//
// client-go: k8s.io/sample-controller/controller.go (updateFooStatus)
func (c *Controller) updateStatus(ctx context.Context, key string, rollout *v1alpha1.Rollout, d *appsv1.Deployment) error {
	// Exercise 4, continued.
	// Hint: Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error.
	panic(todo.Exercise("06-controller", 4, "Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error."))
}

// wantReplicas is a Deployment's desired size; nil means the API default, 1.
func wantReplicas(d *appsv1.Deployment) int32 {
	// Exercise 4, continued.
	// Hint: Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error.
	panic(todo.Exercise("06-controller", 4, "Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error."))
}

// event records an Event about the Rollout and traces it.
func (c *Controller) event(key string, rollout *v1alpha1.Rollout, eventtype, reason, format string, args ...any) {
	// Exercise 4, continued.
	// Hint: Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error.
	panic(todo.Exercise("06-controller", 4, "Split the key, read the Rollout (gone: return nil), read its Deployment, create it when missing, refuse one you do not control, update replicas and image when they differ, then update the status. The helpers below are yours too: newDeployment builds the Deployment (owner reference, labels, replicas, one container), deploymentChanges and withRolloutSpec compare and copy the spec, updateStatus writes the status only when it changed, event records an event. Record an Event for each change, and a Warning (ReasonResourceExists) for a Deployment you do not own, returning that message as the error."))
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
