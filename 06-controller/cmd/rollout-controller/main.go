// Command rollout-controller is chapter 06's controller as a program you
// run against a cluster: the reconcile logic of package controller, wired
// to the workshop's own parts (wiring/ours), with real Events and, with
// --leader-elect, client-go's leader election on a Lease so that several
// replicas can run and only one reconciles.
//
//	go run ./06-controller/cmd/rollout-controller -kubeconfig PATH [-leader-elect] [-workers 2] [-view 127.0.0.1:8089]
//
// Leader election is the one place this binary uses client-go's
// tools/cache (inside tools/leaderelection); the controller's own reads
// never do (see deps_test.go).
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"example.com/walkthrough/06-controller/app"
	"example.com/walkthrough/06-controller/viewer"
)

func main() {
	var opts app.Options
	flag.StringVar(&opts.Kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "path to a kubeconfig (default $KUBECONFIG, else in-cluster)")
	flag.IntVar(&opts.Workers, "workers", 2, "how many keys to sync at once")
	flag.StringVar(&opts.Namespace, "namespace", "", "watch and reconcile only this namespace (default: all)")
	flag.BoolVar(&opts.LeaderElect, "leader-elect", false, "run only while holding the leader Lease, so several replicas can run with one active")
	flag.StringVar(&opts.LeaseNamespace, "leader-elect-namespace", "default", "namespace of the leader Lease")
	flag.StringVar(&opts.LeaseName, "leader-elect-name", "rollout-controller", "name of the leader Lease")
	flag.StringVar(&opts.Identity, "id", "", "this replica's identity in the Lease (default hostname_pid)")
	flag.DurationVar(&opts.LeaseDuration, "lease-duration", 15*time.Second, "how long a leader's Lease lasts without renewal")
	flag.DurationVar(&opts.RenewDeadline, "renew-deadline", 10*time.Second, "how long the leader keeps trying to renew before giving up")
	flag.DurationVar(&opts.RetryPeriod, "retry-period", 2*time.Second, "how often candidates try to take or renew the Lease")
	view := flag.String("view", "", "serve the step-through viewer on this loopback address (such as 127.0.0.1:8089), with the newest 5000 steps")
	klog.InitFlags(nil)
	flag.Parse()
	if *view != "" {
		opts.Recorder = viewer.NewRecorder(nil)
		opts.Recorder.Keep(5000)
		srv, err := viewer.Serve(*view, opts.Recorder, "")
		if err != nil {
			klog.Fatal(err)
		}
		defer srv.Close()
		klog.Infof("the step-through viewer is at %s", srv.URL)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := clientcmd.BuildConfigFromFlags("", opts.Kubeconfig)
	if err != nil {
		klog.Fatalf("kubeconfig: %v", err)
	}
	if err := app.Run(ctx, cfg, opts); err != nil {
		klog.Fatal(err)
	}
}
