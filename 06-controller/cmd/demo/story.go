package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	controller "example.com/walkthrough/06-controller"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/06-controller/viewer"
	"example.com/walkthrough/06-controller/wiring/ours"
)

// step is one change of the story: what it does, and when the controller
// has caught up with it.
type step struct {
	title string
	do    func() error
	until func() (bool, error)
}

// run tells the story with the options o. rec, when not nil, records every step with what
// each component holds.
func run(out io.Writer, o options, rec *viewer.Recorder) (err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w, err := connect(ctx, o.kubeconfig)
	if err != nil {
		return err
	}
	if w.close != nil {
		defer func() { err = errors.Join(err, w.close()) }()
	}
	p := newPrinter(out, w.ns, rec)
	p.banner(w.where)

	// The machinery: chapter 01–05 parts, traced at every stage.
	wiring := ours.New(w.kube, w.walk, ours.Options{Trace: p.trace, Classic: o.classic})
	if rec != nil && w.serverState != nil {
		rec.SetState(func() viewer.State {
			s := wiring.State()
			s.Server = w.serverState()
			return s
		})
	} else if rec != nil {
		rec.SetState(wiring.State)
	}
	if w.traceServer != nil {
		w.traceServer(p.trace)
	}
	c := controller.New(controller.Config{
		Rollouts:         wiring.Rollouts(),
		Deployments:      wiring.Deployments(),
		Queue:            wiring.Queue(),
		DeploymentClient: func(ns string) controller.DeploymentWriter { return w.kube.AppsV1().Deployments(ns) },
		RolloutClient:    func(ns string) controller.RolloutStatusWriter { return w.walk.WalkthroughV1alpha1().Rollouts(ns) },
		Recorder:         recorder{p},
		Synced:           wiring.Synced(),
		Trace:            p.trace,
	})
	if err := wiring.AddHandlers(ours.Handlers{
		RolloutAdd: c.OnRolloutAdd, RolloutUpdate: c.OnRolloutUpdate, RolloutDelete: c.OnRolloutDelete,
		DeploymentAdd: c.OnDeploymentAdd, DeploymentUpdate: c.OnDeploymentUpdate, DeploymentDelete: c.OnDeploymentDelete,
	}); err != nil {
		return err
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	if o.classic {
		p.section("Start: classic informers (LIST+WATCH, DeltaFIFO, single pops); workers wait")
	} else {
		p.section("Start: today's informers (WatchList or LIST, batch pops); workers wait")
	}
	wiring.Start(runCtx)
	runDone := make(chan error, 1)
	go func() { runDone <- c.Run(runCtx, 2) }()
	if o.simulate {
		go simulateDeployments(runCtx, w, p)
	}
	if err := waitFor(ctx, func() (bool, error) {
		for _, s := range wiring.Synced() {
			if !s() {
				return false, nil
			}
		}
		return true, nil
	}); err != nil {
		return fmt.Errorf("caches did not sync: %w", err)
	}
	p.done()

	rollouts := w.walk.WalkthroughV1alpha1().Rollouts(w.ns)
	deployments := w.kube.AppsV1().Deployments(w.ns)
	inStep := func(replicas int32, image string, wantAvailable bool) func() (bool, error) {
		return func() (bool, error) {
			r, err := rollouts.Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
			if err != nil || d.Spec.Replicas == nil || *d.Spec.Replicas != replicas || d.Spec.Template.Spec.Containers[0].Image != image {
				return false, nil
			}
			if r.Status.ObservedGeneration != r.Generation {
				return false, nil
			}
			return !wantAvailable || (r.Status.AvailableReplicas == replicas && d.Status.AvailableReplicas == replicas), nil
		}
	}

	steps := []step{
		{"Create Rollout web: 2 replicas of nginx:1.27", func() error {
			_, err := rollouts.Create(ctx, &v1alpha1.Rollout{
				ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: w.ns},
				Spec:       v1alpha1.RolloutSpec{DeploymentName: "web", Replicas: ptr.To[int32](2), Image: "nginx:1.27"},
			}, metav1.CreateOptions{})
			return err
		}, inStep(2, "nginx:1.27", o.simulate)},
		{"Scale web to 4 replicas", func() error {
			return updateRollout(ctx, w, func(r *v1alpha1.Rollout) { r.Spec.Replicas = ptr.To[int32](4) })
		}, inStep(4, "nginx:1.27", o.simulate)},
		{"Change web's image to nginx:1.28", func() error {
			return updateRollout(ctx, w, func(r *v1alpha1.Rollout) { r.Spec.Image = "nginx:1.28" })
		}, inStep(4, "nginx:1.28", o.simulate)},
		{"Delete the Deployment behind the controller's back", func() error {
			return deployments.Delete(ctx, "web", metav1.DeleteOptions{})
		}, inStep(4, "nginx:1.28", false)},
	}
	if w.injectCo != nil {
		steps = append(steps, step{"Scale to 3; the API server answers the status update with a Conflict", func() error {
			w.injectCo()
			return updateRollout(ctx, w, func(r *v1alpha1.Rollout) { r.Spec.Replicas = ptr.To[int32](3) })
		}, inStep(3, "nginx:1.28", o.simulate)})
	}
	steps = append(steps, step{"Delete Rollout web", func() error {
		return rollouts.Delete(ctx, "web", metav1.DeleteOptions{})
	}, func() (bool, error) { return p.stepSaw("rollout no longer exists"), nil }})

	for _, s := range steps {
		p.section(s.title)
		if err := s.do(); err != nil {
			return fmt.Errorf("%s: %w", s.title, err)
		}
		if err := waitFor(ctx, s.until); err != nil {
			return fmt.Errorf("%s: the controller did not catch up: %w", s.title, err)
		}
		p.settle()
		p.done()
		time.Sleep(o.pause)
	}

	p.section("Stop: the queue drains, the workers finish, Run returns")
	stop()
	if err := <-runDone; err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	wiring.Shutdown()
	p.done()
	p.summary()
	return nil
}

func updateRollout(ctx context.Context, w *world, change func(*v1alpha1.Rollout)) error {
	for {
		r, err := w.walk.WalkthroughV1alpha1().Rollouts(w.ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(r)
		_, err = w.walk.WalkthroughV1alpha1().Rollouts(w.ns).Update(ctx, r, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

func waitFor(ctx context.Context, cond func() (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	for {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}
