// Package walkthrough names the API group of chapter 06's custom resource.
// Its versions live in subpackages; v1alpha1 is the only one.
package walkthrough

// GroupName is the API group of every kind the walkthrough defines.
const GroupName = "walkthrough.example.com"
