// Package crd carries the Rollout CustomResourceDefinition inside the
// binary, so the demo and the end-to-end tests can apply it to any cluster
// without a file on disk.
package crd

import (
	_ "embed"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// YAML is the manifest, as written in rollouts.walkthrough.example.com.yaml.
//
//go:embed rollouts.walkthrough.example.com.yaml
var YAML []byte

// Rollouts decodes the manifest.
func Rollouts() (*apiextensionsv1.CustomResourceDefinition, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(YAML, crd); err != nil {
		return nil, err
	}
	return crd, nil
}
