// Package v1alpha1 is version v1alpha1 of the walkthrough.example.com API
// group: the Rollout kind that chapter 06's controller reconciles.
//
// The comment tags below are read by k8s.io/code-generator, not by Go.
// deepcopy-gen=package asks for DeepCopy methods on every type here;
// groupName tells client-gen which API group the package serves.
//
// +k8s:deepcopy-gen=package
// +groupName=walkthrough.example.com
package v1alpha1
