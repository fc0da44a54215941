// Your copy of ../sync.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 06`
// checks your work, and `go run ./workshop/cmd/workshop hint 06 N` gives
// exercise N's hint.

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
// upstream: k8s.io/sample-controller/controller.go (Controller.syncHandler)
func (c *Controller) syncHandler(ctx context.Context, key string) error {
	// Exercise 4: syncHandler makes the cluster match one Rollout.
	panic(todo.Exercise("06-controller", 4, "Controller.syncHandler"))
}

// newDeployment is the Deployment a Rollout asks for: one container
// running the Rollout's image, selected by a label naming the Rollout, and
// controlled by the Rollout through an owner reference. The owner
// reference does two jobs: the garbage collector deletes the Deployment
// with its Rollout, and handleObject finds the Rollout from the Deployment.
func newDeployment(rollout *v1alpha1.Rollout) *appsv1.Deployment {
	// Exercise 4: newDeployment is the Deployment a Rollout asks for.
	panic(todo.Exercise("06-controller", 4, "newDeployment"))
}

// deploymentChanges lists, for people, what the Deployment must change to
// match the Rollout: its replicas (when the Rollout sets them) and its
// first container's image. Empty means in step.
func deploymentChanges(rollout *v1alpha1.Rollout, d *appsv1.Deployment) []string {
	// Exercise 4: deploymentChanges lists, for people, what the Deployment must change to match the Rollout.
	panic(todo.Exercise("06-controller", 4, "deploymentChanges"))
}

// deploymentImage is the image of a Deployment's first container, or "".
func deploymentImage(d *appsv1.Deployment) string {
	// Exercise 4: deploymentImage is the image of a Deployment's first container, or "".
	panic(todo.Exercise("06-controller", 4, "deploymentImage"))
}

// withRolloutSpec returns a copy of the Deployment with the Rollout's
// replicas and image, and everything else as it was: the controller owns
// those two fields, not the whole object. The cached object is never
// changed in place, because the informer and every other reader share it.
func withRolloutSpec(rollout *v1alpha1.Rollout, d *appsv1.Deployment) *appsv1.Deployment {
	// Exercise 4: withRolloutSpec returns a copy of the Deployment with the Rollout's replicas and image.
	panic(todo.Exercise("06-controller", 4, "withRolloutSpec"))
}

// updateStatus copies what the Deployment reports into the Rollout's
// status, and writes it only when it changed: a write that changes nothing
// would still wake every watcher of Rollouts, this controller included.
//
// upstream: k8s.io/sample-controller/controller.go (Controller.updateFooStatus)
func (c *Controller) updateStatus(ctx context.Context, key string, rollout *v1alpha1.Rollout, d *appsv1.Deployment) error {
	// Exercise 4: updateStatus copies what the Deployment reports into the Rollout's status.
	panic(todo.Exercise("06-controller", 4, "Controller.updateStatus"))
}

// wantReplicas is a Deployment's desired size; nil means the API default, 1.
func wantReplicas(d *appsv1.Deployment) int32 {
	// Exercise 4: wantReplicas is a Deployment's desired size; nil means the API default, 1.
	panic(todo.Exercise("06-controller", 4, "wantReplicas"))
}

// event records an Event about the Rollout and traces it.
func (c *Controller) event(key string, rollout *v1alpha1.Rollout, eventtype, reason, format string, args ...any) {
	// Exercise 4: event records an Event about the Rollout and traces it.
	panic(todo.Exercise("06-controller", 4, "Controller.event"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = fmt.Sprintf
	_ = strings.Join
	_ = corev1.EventTypeNormal
	_ = equality.Semantic
	_ = apierrors.IsNotFound
	_ = meta.SetStatusCondition
	_ = metav1.IsControlledBy
	_ = indexer.SplitMetaNamespaceKey
)
