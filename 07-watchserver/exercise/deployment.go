// Your copy of ../deployment.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"example.com/walkthrough/workshop/todo"
)

// A Deployment is the first built-in here with a strategy of its own, the
// rules of kube-apiserver's deployment registry for what a write may
// change. A controller reads two numbers to know whether it has acted on
// the newest spec: metadata.generation, which the server bumps, and
// status.observedGeneration, which the controller writes through /status.
// Both only mean something if each writer keeps to its half:
//
//   - a create starts at generation 1 with no status: a client cannot
//     claim the controller has already done its work;
//   - an update of the Deployment keeps the stored status whatever the
//     body says, and bumps the generation when the spec changed or the
//     annotations did (they are copied to the ReplicaSets, so a change of
//     them is work for the controller too), not for a label or a status;
//   - an update of /status keeps the stored spec, labels and generation,
//     and takes the rest (the status, annotations) from the body.
//
// Both compare semantically (apiequality.Semantic): an absent map and an
// empty one are the same, so a client that sends annotations: {} bumps
// nothing.
//
// Each write first fills in what apps/v1 defaults (defaultDeployment), as
// kube-apiserver's decoder does for every body: a manifest without
// replicas means 1, and its update must compare equal to the stored,
// defaulted spec, or every `kubectl apply` of an unchanged file would
// bump the generation.
//
// The strategy is a Resource's PrepareForCreate and PrepareForUpdate (and
// PrepareForStatusUpdate for /status), the hooks a custom resource's
// strategy uses: one set of handlers (createCustom, updateCustom, patch)
// runs them for both.
//
// upstream: k8s.io/kubernetes/pkg/registry/apps/deployment/strategy.go
// (deploymentStrategy.PrepareForCreate, deploymentStrategy.PrepareForUpdate,
// deploymentStrategy.AllowUnconditionalUpdate,
// deploymentStatusStrategy.PrepareForUpdate), with the generation kept from
// the stored object by k8s.io/apiserver/pkg/registry/rest/update.go
// (BeforeUpdate).

// prepareDeploymentCreate is a Deployment's create strategy: the
// defaults, no status, and generation 1.
func prepareDeploymentCreate(obj runtime.Object) {
	// Exercise 1: prepareDeploymentCreate is a Deployment's create strategy.
	panic(todo.Exercise("07-watchserver", 1, "prepareDeploymentCreate"))
}

// prepareDeploymentUpdate is a Deployment's update strategy, d the body
// and o the stored object: the defaults, the stored status, and the
// stored generation, plus 1 when the spec or the annotations changed.
func prepareDeploymentUpdate(obj, old runtime.Object) {
	// Exercise 2: prepareDeploymentUpdate is a Deployment's update strategy, d the body and o the stored object.
	panic(todo.Exercise("07-watchserver", 2, "prepareDeploymentUpdate"))
}

// prepareDeploymentStatusUpdate is the strategy of a Deployment's
// /status, d the body and o the stored object: the stored spec, labels
// and generation, the rest the body's.
func prepareDeploymentStatusUpdate(obj, old runtime.Object) {
	// Exercise 2: prepareDeploymentStatusUpdate is the strategy of a Deployment's /status.
	panic(todo.Exercise("07-watchserver", 2, "prepareDeploymentStatusUpdate"))
}

// defaultDeployment fills in what apps/v1 defaults in a Deployment: one
// replica, a RollingUpdate of 25% up and 25% down, ten old ReplicaSets
// kept, ten minutes to progress, and its pod template's defaults.
//
// upstream: k8s.io/kubernetes/pkg/apis/apps/v1/defaults.go
// (SetDefaults_Deployment), with the pod template's from
// k8s.io/kubernetes/pkg/apis/core/v1/defaults.go (SetDefaults_PodSpec,
// SetDefaults_Container); the generated
// k8s.io/kubernetes/pkg/apis/apps/v1/zz_generated.defaults.go
// (SetObjectDefaults_Deployment) also defaults volumes, probes and env
// sources, which these do not (see docs/07's "How kube-apiserver differs").
func defaultDeployment(d *appsv1.Deployment) {
	// Exercise 1: defaultDeployment fills in what apps/v1 defaults in a Deployment.
	panic(todo.Exercise("07-watchserver", 1, "defaultDeployment"))
}

// defaultPodSpec fills in a pod template's defaults, and each container's.
func defaultPodSpec(p *corev1.PodSpec) {
	// Exercise 1: defaultPodSpec fills in a pod template's defaults, and each container's.
	panic(todo.Exercise("07-watchserver", 1, "defaultPodSpec"))
}

// defaultContainer fills in a container's defaults: where its termination
// message goes, its ports' protocol, and when its image is pulled.
func defaultContainer(c *corev1.Container) {
	// Exercise 1: defaultContainer fills in a container's defaults.
	panic(todo.Exercise("07-watchserver", 1, "defaultContainer"))
}

// imageTag is an image reference's tag: "latest" when it has neither a
// tag nor a digest (the registry's default), "" when it has a digest
// only, or is empty. The tag follows the last ':' of the last path
// element: a registry's port (host:5000/app) is not one.
func imageTag(image string) string {
	// Exercise 1: imageTag is an image reference's tag: "latest" when it has neither a tag nor a digest.
	panic(todo.Exercise("07-watchserver", 1, "imageTag"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = strings.Cut
	_ = apiequality.Semantic
	_ = intstr.FromString
	_ = ptr.To[int]
)
