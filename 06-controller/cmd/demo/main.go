// Command demo runs the chapter 06 controller, built only from the
// workshop's own parts, through a short story, and prints every step each
// change takes on its way through the machinery:
//
//	reflector → fifo → indexer → handler → queue → worker → api
//
// By default it needs nothing installed: the "cluster" is client-go's
// fake clientsets in this process (package fakeapi). With -kubeconfig it
// runs against a real cluster instead, applying the Rollout CRD first.
//
//	go run ./06-controller/cmd/demo                       # embedded
//	go run ./06-controller/cmd/demo -kubeconfig PATH      # a real cluster
//	go run ./06-controller/cmd/demo -trace PATH           # also record each step with every component's state
//	go run ./06-controller/cmd/demo -view web             # watch it in the browser (package viewer)
//	go run ./06-controller/cmd/demo -view web -trace PATH # replay a recorded trace in the browser
//
// Its files, one job each: options.go (the flags), main.go (the viewer,
// the trace file, the replay), story.go (the controller and the story's
// steps), connection.go (the cluster it runs on), simulator.go (the
// Deployment controller the embedded cluster lacks) and printer.go (the
// live trace and the summary).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"example.com/walkthrough/06-controller/viewer"
)

func main() {
	o, err := parseOptions(flag.CommandLine, os.Args[1:])
	fail(2, err)
	if o.view == "web" && o.tracePath != "" {
		fail(1, replay(o.tracePath, o.viewAddr))
	}
	var traceFile *os.File
	if o.tracePath != "" {
		f, err := os.Create(o.tracePath)
		if err != nil {
			fail(1, fmt.Errorf("trace: %w", err))
		}
		traceFile = f
	}
	var rec *viewer.Recorder
	if traceFile != nil {
		rec = viewer.NewRecorder(traceFile)
	} else if o.view == "web" {
		rec = viewer.NewRecorder(nil) // steps for the page, no file
	}
	var srv *viewer.Server
	if o.view == "web" {
		var err error
		if srv, err = viewer.Serve(o.viewAddr, rec, repoRoot()); err != nil {
			fail(1, err)
		}
		fmt.Printf("The step-through viewer is at %s (it follows the demo live).\n\n", srv.URL)
	}
	err = run(os.Stdout, o, rec)
	if rec != nil {
		if cerr := rec.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("trace %s: %w", o.tracePath, cerr)
		}
	}
	if traceFile != nil {
		if cerr := traceFile.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("trace %s: %w", o.tracePath, cerr)
		}
		if err == nil {
			fmt.Printf("\nThe trace is in %s: replay it with make demo VIEW=web TRACE=%s\n", o.tracePath, o.tracePath)
		}
	}
	if err != nil {
		fail(1, err)
	}
	nextSteps(os.Stdout, o, srv != nil)
	if srv != nil {
		fmt.Printf("\nThe story is over; the viewer stays at %s to step through it. Ctrl-C stops it.\n", srv.URL)
		waitForInterrupt()
		srv.Close()
	}
}

// nextSteps ends the demo with the other ways to run it, leaving out the
// one just run; on your own chapters, they stay on them.
func nextSteps(out io.Writer, o options, web bool) {
	mine := ""
	if o.mine {
		mine = " MINE=1"
	}
	try := [][2]string{{"make demo MODE=classic" + mine, "the classic informers, one pop at a time"}}
	if o.classic {
		try[0] = [2]string{"make demo" + mine, "today's informers, with batch pops"}
	}
	if !web {
		try = append(try, [2]string{"make demo VIEW=web" + mine, "step through this story in your browser"})
	}
	if !o.mine {
		try = append(try, [2]string{"make demo MINE=1", "on your own chapters (those that pass)"})
	}
	if onOurServer && !o.mine {
		try = append(try, [2]string{"make demo SERVER=fake", "on client-go's fake clientsets, no server or wire"})
	}
	width := 0
	for _, t := range try {
		width = max(width, len(t[0]))
	}
	fmt.Fprintln(out)
	for i, t := range try {
		label := "Next: "
		if i > 0 {
			label = "      "
		}
		fmt.Fprintf(out, "%s%-*s  %s\n", label, width, t[0], t[1])
	}
}

func fail(code int, err error) {
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "demo:", err)
	os.Exit(code)
}

// replay serves a recorded trace in the viewer until Ctrl-C.
func replay(path, addr string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("trace: %w (record one with make demo TRACE=%s)", err, path)
	}
	defer f.Close()
	rec, err := viewer.Replay(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	srv, err := viewer.Serve(addr, rec, repoRoot())
	if err != nil {
		return err
	}
	defer srv.Close()
	steps, _, _ := rec.Steps(0)
	fmt.Printf("Replaying %s (%d steps) at %s. Ctrl-C stops it.\n", path, len(steps), srv.URL)
	waitForInterrupt()
	return nil
}

func waitForInterrupt() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	<-ctx.Done()
}

// repoRoot is the workshop's root, where the viewer's links to chapter
// docs and files point, when the demo runs inside it (make demo does):
// the nearest directory at or above this one with a go.work file. It is
// "" elsewhere, and the page's links go nowhere. (The workshop's harness
// finds it the same way; the demo, a program a learner ships, does not
// import the harness.)
func repoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for ; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}
