package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Rollout asks for one Deployment to exist with a given image and size.
// The controller owns that Deployment: it creates it, keeps its replicas
// and image in step with the Rollout, and copies what the Deployment
// reports back into the Rollout's status.
//
// The tags ask client-gen for a typed client (with UpdateStatus, since the
// kind has a status subresource), and deepcopy-gen for a DeepCopyObject,
// which makes Rollout a runtime.Object.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
//
// upstream: k8s.io/sample-controller/pkg/apis/samplecontroller/v1alpha1/types.go (Foo)
type Rollout struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RolloutSpec   `json:"spec"`
	Status RolloutStatus `json:"status,omitempty"`
}

// RolloutSpec is what the user asks for.
//
// upstream: k8s.io/sample-controller/pkg/apis/samplecontroller/v1alpha1/types.go (FooSpec)
type RolloutSpec struct {
	// DeploymentName names the Deployment the Rollout owns, in the
	// Rollout's namespace.
	DeploymentName string `json:"deploymentName"`
	// Replicas is the Deployment's size; nil leaves the size alone after
	// creation (the Deployment then defaults to one replica).
	Replicas *int32 `json:"replicas,omitempty"`
	// Image is the container image the Deployment's single container runs.
	Image string `json:"image"`
}

// RolloutStatus is what the controller last saw of the Deployment.
//
// upstream: k8s.io/sample-controller/pkg/apis/samplecontroller/v1alpha1/types.go (FooStatus)
type RolloutStatus struct {
	// AvailableReplicas mirrors the Deployment's status.availableReplicas.
	AvailableReplicas int32 `json:"availableReplicas"`
	// ObservedGeneration is the Rollout generation the controller last
	// acted on: when it equals metadata.generation, status is current.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions say, in the usual Kubernetes shape, whether the
	// Deployment is in step (type Ready).
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// RolloutList is a page of Rollouts, what a LIST returns.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
//
// upstream: k8s.io/sample-controller/pkg/apis/samplecontroller/v1alpha1/types.go (FooList)
type RolloutList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`

	Items []Rollout `json:"items"`
}
