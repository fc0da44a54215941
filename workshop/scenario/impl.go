// Package scenario runs a chapter's datadriven scenario files against one
// implementation and reports the first step whose trace diverged.
//
// A scenario file (testdata/scenarios/*.txt) is a story told in steps:
//
//	# Replace drops the objects that are not in the new list.
//	# exercise: 3
//
//	# Two pods to start with.
//	add ns/a ns/b
//	----
//	ok
//
// The header comment says what the scenario shows and which exercise it
// checks; each step is a command whose output (its trace) was recorded from
// client-go. The same files run against three implementations, chosen with
// WALKTHROUGH_IMPL (or the test flag -impl):
//
//	reference  the chapter's own code (the default)
//	exercise   your copy in the chapter's exercise/ directory
//	client-go  the real library, through a thin adapter in the test code
package scenario

import (
	"flag"
	"fmt"
	"os"
	"slices"
)

// The implementations a scenario can run against.
const (
	Reference = "reference"
	Exercise  = "exercise"
	ClientGo  = "client-go"
)

// EnvImpl is the environment variable that selects the implementation.
const EnvImpl = "WALKTHROUGH_IMPL"

// EnvStandIn, set to "1", says that the learner's copy stands in for the
// reference package in this test binary: the runner builds the chapter's
// tests with exercise/'s files in place of the reference's (a go build
// overlay), so every test that judges the reference, scenario or not,
// judges your code. Reports then name your copy, leave blame to the
// runner, and tests skip the client-go runs they make beside the
// reference.
const EnvStandIn = "WALKTHROUGH_STANDIN"

// StandInTag is the build tag of the binary the runner builds with your
// copy standing in: test files that can never judge your copy (the
// end-to-end tests, client-go's informer factory) say
// `//go:build !walkthrough_standin`, and leave client-go's clientsets out
// of the binary, which halves its link.
const StandInTag = "walkthrough_standin"

// OnYourCopy reports whether the learner's copy stands in for the
// reference in this test binary (EnvStandIn).
func OnYourCopy() bool { return os.Getenv(EnvStandIn) == "1" }

// Ours names the chapter's own implementation in a test's message:
// "your copy" when the runner stands it in for the reference, else
// "reference" (the 01 trial read "+reference" over a diff of its code).
func Ours() string {
	if OnYourCopy() {
		return "your copy"
	}
	return Reference
}

var implFlag = flag.String("impl", "", "implementation to test: reference, exercise or client-go (default $"+EnvImpl+", else reference)")

// Selected is the implementation this test run is about: the -impl flag,
// else $WALKTHROUGH_IMPL, else the reference.
func Selected() (string, error) {
	name := *implFlag
	if name == "" {
		name = os.Getenv(EnvImpl)
	}
	if name == "" {
		return Reference, nil
	}
	if !slices.Contains([]string{Reference, Exercise, ClientGo}, name) {
		return "", fmt.Errorf("unknown implementation %q: use reference, exercise or client-go", name)
	}
	return name, nil
}

// Rewriting reports whether datadriven's -rewrite flag is set: this run
// records goldens.
func Rewriting() bool { return rewriting() }

// rewriting reports whether datadriven's -rewrite flag is set.
func rewriting() bool {
	f := flag.Lookup("rewrite")
	return f != nil && f.Value.String() == "true"
}
