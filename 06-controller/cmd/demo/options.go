package main

import (
	"flag"
	"fmt"
	"time"
)

// options are the demo's flags.
type options struct {
	kubeconfig string        // "" runs on the embedded fake cluster
	pause      time.Duration // between steps, to read the trace as it goes
	simulate   bool          // play the Deployment controller
	classic    bool          // the classic informers' path instead of today's
	tracePath  string        // record (or, with view, replay) the trace here
	view       string        // "web", or "" for no viewer
	viewAddr   string        // where the viewer serves
	mine       bool          // on the learner's own chapters (make demo MINE=1)
	server     string        // "ours" asks for chapter 07's server, which the build must have
}

// parseOptions reads the flags; an error is a usage error (exit status 2).
func parseOptions(fs *flag.FlagSet, args []string) (options, error) {
	var o options
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "run against this cluster instead of the embedded fake one")
	fs.DurationVar(&o.pause, "pause", 300*time.Millisecond, "pause between steps, to read the trace as it goes")
	fs.BoolVar(&o.simulate, "simulate-deployments", true, "play the Deployment controller (make Deployments report their replicas available); the embedded cluster and the local control plane have none")
	mode := fs.String("mode", "today", `the informers' path: "today" (WatchList, atomic RealFIFO, batch pops) or "classic" (LIST then WATCH, DeltaFIFO, one pop at a time)`)
	fs.StringVar(&o.tracePath, "trace", "", "write every step, with what each component holds, to this file as JSON lines; with -view web, replay this file instead of running")
	fs.StringVar(&o.view, "view", "", `"web" serves the step-through viewer on -view-addr while the demo runs, and after it until Ctrl-C`)
	fs.StringVar(&o.viewAddr, "view-addr", "127.0.0.1:8089", "where -view web serves (loopback only)")
	fs.BoolVar(&o.mine, "mine", false, "say that the demo runs on your own chapters: the workshop's demo command sets it (make demo MINE=1), and the next steps keep MINE=1")
	fs.StringVar(&o.server, "server", "", `"ours": run on chapter 07's API server in this process (make demo's default, which builds with the tag ours); "fake": on client-go's fake clientsets (make demo SERVER=fake, built without it); "" runs on whichever embedded server the build has`)
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case o.server != "" && o.server != "ours" && o.server != "fake":
		return o, fmt.Errorf("-server is %q; use ours (chapter 07's, make demo) or fake (make demo SERVER=fake)", o.server)
	case o.server == "ours" && !onOurServer:
		return o, fmt.Errorf("-server=ours needs the build tag ours: go run -tags ours ./06-controller/cmd/demo (make demo does)")
	case o.server == "fake" && onOurServer:
		return o, fmt.Errorf("-server=fake needs a build without the tag ours: go run ./06-controller/cmd/demo (make demo SERVER=fake does)")
	}
	if *mode != "today" && *mode != "classic" {
		return o, fmt.Errorf("-mode is %q; use today or classic (make demo MODE=classic)", *mode)
	}
	if o.view != "" && o.view != "web" {
		return o, fmt.Errorf("-view is %q; the one viewer is web (make demo VIEW=web)", o.view)
	}
	o.classic = *mode == "classic"
	return o, nil
}
