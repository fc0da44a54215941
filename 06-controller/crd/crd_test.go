package crd

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
)

// TestManifestMatchesTypes keeps the hand-written schema and the Go types
// in step: every JSON field of RolloutSpec and RolloutStatus has a schema
// property, and every property a field.
func TestManifestMatchesTypes(t *testing.T) {
	crd, err := Rollouts()
	if err != nil {
		t.Fatal(err)
	}
	if crd.Spec.Group != v1alpha1.SchemeGroupVersion.Group || crd.Spec.Names.Kind != "Rollout" {
		t.Fatalf("the CRD serves %s %s, want %s Rollout", crd.Spec.Group, crd.Spec.Names.Kind, v1alpha1.SchemeGroupVersion.Group)
	}
	if len(crd.Spec.Versions) != 1 || crd.Spec.Versions[0].Name != v1alpha1.SchemeGroupVersion.Version {
		t.Fatalf("want exactly version %s", v1alpha1.SchemeGroupVersion.Version)
	}
	v := crd.Spec.Versions[0]
	if v.Subresources == nil || v.Subresources.Status == nil {
		t.Error("the status subresource must be on: the controller writes status with UpdateStatus")
	}
	root := v.Schema.OpenAPIV3Schema.Properties
	for name, typ := range map[string]reflect.Type{
		"spec":   reflect.TypeOf(v1alpha1.RolloutSpec{}),
		"status": reflect.TypeOf(v1alpha1.RolloutStatus{}),
	} {
		props := root[name].Properties
		got := keys(props)
		want := jsonFields(typ)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: the schema has %v, the Go type %v", name, got, want)
		}
	}
	spec := root["spec"]
	if strings.Join(spec.Required, ",") != "deploymentName,image" {
		t.Errorf("spec.required = %v, want deploymentName and image", spec.Required)
	}
	if r := spec.Properties["replicas"]; r.Minimum == nil || *r.Minimum != 0 {
		t.Error("spec.replicas must not be negative")
	}
}

func keys(m map[string]apiextensionsv1.JSONSchemaProps) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
