// Command transcripts regenerates the runner transcripts of
// docs/workshop.md from real runs (make transcripts): it copies the
// repository's tracked files to a temporary directory, plays the story of
// package workshop/transcripts on it (a learner's commands, in order,
// each check a real go test of the chapter), writes each command's output
// into the doc's block marked for it, and records the sum of what the
// transcripts depend on in docs/.transcripts.sum, which the workshop
// tests compare. The story takes about 6 minutes (two status runs of
// every chapter, and a dozen checks).
//
//	go run ./workshop/cmd/transcripts
package main

import (
	"fmt"
	"os"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/transcripts"
)

func main() {
	root, err := chapters.Root()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := transcripts.Regenerate(root, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "transcripts:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "transcripts: wrote %s and %s\n", transcripts.Doc, transcripts.SumFile)
}
