// Package workshop is the harness every chapter of the walkthrough shares.
//
// Nothing here is about one chapter. The pieces, in the order a chapter
// meets them:
//
//   - todo: the panic value that stands in for an unfinished exercise.
//   - exgen: the generator that turns marked regions of a chapter's
//     reference code into the learner's exercise/ copy.
//   - scenario: runs datadriven scenario files against the implementation
//     you select (reference, exercise or client-go) and reports the first
//     step that diverged, with the exercise's hint.
//   - mutant: known-bug variants of a chapter, applied with go build
//     overlays, that the scenarios must catch.
//   - gotest, chapters and progress: run a chapter's tests with
//     `go test -json` and say, per exercise, what passed.
//   - exindex: each chapter's exercise index (testdata/exercises.txt),
//     what the markers, scenario headers, blame file, checked-together
//     groups and mutants say of each exercise, for people to read.
//   - runner: the learner's runner behind cmd/workshop (status, check,
//     hint, watch, reset, solution, --mine).
//   - cluster: a real etcd and kube-apiserver on 127.0.0.1 for the
//     TestE2E… tests (docs/e2e.md).
//
// The commands under cmd/ put those together: exgen (make exercises),
// selftest (the tests of the tests) and workshop (the learner's runner).
package workshop
