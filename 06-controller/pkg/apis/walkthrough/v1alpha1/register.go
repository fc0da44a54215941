package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"example.com/walkthrough/06-controller/pkg/apis/walkthrough"
)

// SchemeGroupVersion is the group and version of every type in this
// package. The generated clientset sends requests to
// /apis/walkthrough.example.com/v1alpha1.
var SchemeGroupVersion = schema.GroupVersion{Group: walkthrough.GroupName, Version: "v1alpha1"}

// Kind qualifies a kind name with this package's group.
func Kind(kind string) schema.GroupKind { return SchemeGroupVersion.WithKind(kind).GroupKind() }

// Resource qualifies a resource name with this package's group; listers
// use it to build NotFound errors.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

var (
	// SchemeBuilder collects the functions that register this package's
	// types; the generated clientset calls AddToScheme on its scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme registers Rollout and RolloutList.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes tells a scheme which Go types stand for which kinds, so a
// decoder can turn {"kind":"Rollout"} into a *Rollout.
func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion, &Rollout{}, &RolloutList{})
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
