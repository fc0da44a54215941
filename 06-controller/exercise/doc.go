// Your copy of ../doc.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 06`
// checks your work, and `go run ./workshop/cmd/workshop hint 06 N` gives
// exercise N's hint.

// Package controller is chapter 06 of the client-go walkthrough: a
// complete sample controller, the workshop's destination.
//
// A Rollout (pkg/apis/walkthrough/v1alpha1) asks for a Deployment with a
// given image and size. The controller creates that Deployment, keeps its
// replicas and image in step, refuses to adopt a Deployment it does not
// own, and mirrors the Deployment's available replicas into the Rollout's
// status. It is kubernetes/sample-controller's loop, rebuilt on the
// workshop's own parts.
//
// Read the files in this order:
//
//	parts.go       the small interfaces the controller is written against
//	controller.go  the Controller, its names and its trace stages
//	handlers.go    informer handlers: changes become keys in the queue (exercises 2, 3)
//	sync.go        syncHandler: one key made true in the cluster (exercise 4)
//	worker.go      the worker loop: retries with backoff, Forget on success (exercise 5)
//	run.go         Run: wait for caches, start workers, drain on shutdown
//
// Then the wirings, which build the parts: wiring/ours from chapters 01–05,
// wiring/clientgo from client-go (the twin the goldens are recorded from),
// and cmd/rollout-controller, the binary with --leader-elect.
package controller
