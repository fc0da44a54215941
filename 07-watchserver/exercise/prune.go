// Your copy of ../prune.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import "example.com/walkthrough/workshop/todo"

// prune drops from obj, in place, every field its structural schema does
// not declare, as kube-apiserver does on every write of a custom
// resource: an object's properties are the schema's properties (or any
// key, each under additionalProperties, when that is a schema), an array's
// items are pruned by its items, and x-kubernetes-preserve-unknown-fields
// keeps what is unknown at that level. At the root, apiVersion, kind and
// metadata are never pruned (metadata is ObjectMeta's, checked as any
// object's). A schema that is nil prunes nothing.
//
// upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go
// (PruneWithOptions, prune, skipPrune)
func prune(obj map[string]any, schema map[string]any) {
	// Exercise 1: prune drops from obj, in place, every field its structural schema does not declare.
	panic(todo.Exercise("07-watchserver", 1, "prune"))
}

// pruneObject drops the fields of obj its schema does not declare, unless
// the schema preserves unknown fields; at the root, apiVersion, kind and
// metadata stay.
func pruneObject(obj map[string]any, schema map[string]any, root bool) {
	// Exercise 1: pruneObject drops the fields of obj its schema does not declare.
	panic(todo.Exercise("07-watchserver", 1, "pruneObject"))
}

// pruneValue prunes the objects inside v, a value or a list of them.
func pruneValue(v any, schema map[string]any) {
	// Exercise 1: pruneValue prunes the objects inside v, a value or a list of them.
	panic(todo.Exercise("07-watchserver", 1, "pruneValue"))
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
