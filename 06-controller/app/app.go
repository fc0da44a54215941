// Package app is the rollout-controller program minus its flags, so the
// end-to-end tests can run two replicas in one process.
package app

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	controller "example.com/walkthrough/06-controller"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/06-controller/pkg/generated/clientset/versioned"
	"example.com/walkthrough/06-controller/viewer"
	"example.com/walkthrough/06-controller/wiring/ours"
)

// Options are the command's flags.
type Options struct {
	Kubeconfig string
	Workers    int
	// Namespace, when set, is the only namespace the controller watches.
	Namespace                                 string
	LeaderElect                               bool
	LeaseNamespace, LeaseName, Identity       string
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// OnLeading, when set, hears when this replica starts and stops leading.
	OnLeading func(leading bool)
	// Recorder, when set, hears every step of every change, with what
	// each component holds: the step-through viewer's trace (-view).
	Recorder *viewer.Recorder
}

// Run runs the controller until ctx ends: at once, or, with LeaderElect,
// whenever this replica holds the Lease. Losing the Lease stops the
// controller (its queue drains) and Run returns.
func Run(ctx context.Context, cfg *rest.Config, opts Options) error {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	walk, err := versioned.NewForConfig(cfg)
	if err != nil {
		return err
	}
	if !opts.LeaderElect {
		return runController(ctx, kube, walk, opts)
	}
	id := opts.Identity
	if id == "" {
		host, _ := os.Hostname()
		id = fmt.Sprintf("%s_%d", host, os.Getpid())
	}
	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, opts.LeaseNamespace, opts.LeaseName,
		kube.CoreV1(), kube.CoordinationV1(), resourcelock.ResourceLockConfig{Identity: id})
	if err != nil {
		return err
	}
	// Leader election runs OnStartedLeading in a goroutine of its own,
	// under a context it cancels when the leadership ends, and RunOrDie
	// does not wait for it: the controller's error comes back on a
	// channel, and Run waits for it once the controller has started.
	var mu sync.Mutex
	var ran chan error // made when the controller starts
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   opts.LeaseDuration,
		RenewDeadline:   opts.RenewDeadline,
		RetryPeriod:     opts.RetryPeriod,
		ReleaseOnCancel: true,
		Name:            opts.LeaseName,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				klog.Infof("%s: leading; starting the controller", id)
				if opts.OnLeading != nil {
					opts.OnLeading(true)
				}
				done := make(chan error, 1)
				mu.Lock()
				ran = done
				mu.Unlock()
				done <- runController(ctx, kube, walk, opts)
			},
			OnStoppedLeading: func() {
				klog.Infof("%s: no longer leading", id)
				if opts.OnLeading != nil {
					opts.OnLeading(false)
				}
			},
			OnNewLeader: func(identity string) {
				if identity != id {
					klog.Infof("%s: %s leads", id, identity)
				}
			},
		},
	})
	mu.Lock()
	done := ran
	mu.Unlock()
	if done == nil {
		return nil // never led (or its goroutine has yet to start, on a context already cancelled)
	}
	return <-done
}

// runController wires the controller to our parts and runs it until ctx
// ends, recording real Events.
func runController(ctx context.Context, kube kubernetes.Interface, walk versioned.Interface, opts Options) error {
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(v1alpha1.AddToScheme(scheme))
	broadcaster := record.NewBroadcaster(record.WithContext(ctx))
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: kube.CoreV1().Events("")})
	defer broadcaster.Shutdown()
	recorder := broadcaster.NewRecorder(scheme, corev1.EventSource{Component: controller.Component})

	var trace func(stage, key, message string)
	if opts.Recorder != nil {
		trace = opts.Recorder.Trace
	}
	w := ours.New(kube, walk, ours.Options{Resync: 30 * time.Second, Namespace: opts.Namespace, Trace: trace})
	if opts.Recorder != nil {
		opts.Recorder.SetState(w.State)
	}
	c := controller.New(controller.Config{
		Rollouts:         w.Rollouts(),
		Deployments:      w.Deployments(),
		Queue:            w.Queue(),
		DeploymentClient: func(ns string) controller.DeploymentWriter { return kube.AppsV1().Deployments(ns) },
		RolloutClient:    func(ns string) controller.RolloutStatusWriter { return walk.WalkthroughV1alpha1().Rollouts(ns) },
		Recorder:         recorder,
		Synced:           w.Synced(),
		Errorf:           func(format string, args ...any) { utilruntime.HandleError(fmt.Errorf(format, args...)) },
		Trace:            trace,
	})
	if err := w.AddHandlers(ours.Handlers{
		RolloutAdd: c.OnRolloutAdd, RolloutUpdate: c.OnRolloutUpdate, RolloutDelete: c.OnRolloutDelete,
		DeploymentAdd: c.OnDeploymentAdd, DeploymentUpdate: c.OnDeploymentUpdate, DeploymentDelete: c.OnDeploymentDelete,
	}); err != nil {
		return err
	}
	w.Start(ctx)
	defer w.Shutdown()
	return c.Run(ctx, opts.Workers)
}
