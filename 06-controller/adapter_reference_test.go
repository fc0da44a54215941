package controller_test

import (
	"context"

	controller "example.com/walkthrough/06-controller"
	"example.com/walkthrough/06-controller/wiring/ours"
	"example.com/walkthrough/workshop/scenario"
)

// The adapter for our own controller on our own parts (chapters 01–05).
// `make exercises` derives two twins from this file, so keep everything
// inside init (a twin must not redeclare anything): the exercise adapter,
// pointed at the exercise/ copy, and the client-go adapter, through which
// the goldens are recorded: the same controller on client-go's generated
// informers, listers and util/workqueue. wiring/clientgo has wiring/ours's
// API (it translates client-go's tombstones for the handlers), so renaming
// the package (the directive below) is all the client-go one needs.
//
//exgen:clientgo example.com/walkthrough/06-controller/wiring/clientgo ours
func init() {
	register(scenario.Reference, impl{Build: func(e env) system {
		w := ours.New(e.Kube, e.Walk, ours.Options{Resync: e.Resync})
		c := controller.New(controller.Config{
			Rollouts:         w.Rollouts(),
			Deployments:      w.Deployments(),
			Queue:            e.Queue(w.Queue()),
			DeploymentClient: func(ns string) controller.DeploymentWriter { return e.Kube.AppsV1().Deployments(ns) },
			RolloutClient: func(ns string) controller.RolloutStatusWriter {
				return e.Walk.WalkthroughV1alpha1().Rollouts(ns)
			},
			Recorder:   e.Recorder,
			MaxRetries: e.MaxRetries,
			Synced:     w.Synced(),
			Errorf:     e.Errorf,
			Crashed:    e.Crashed,
		})
		rolloutDelete, deploymentDelete := e.Guard1(c.OnRolloutDelete), e.Guard1(c.OnDeploymentDelete)
		if err := w.AddHandlers(ours.Handlers{
			RolloutAdd:       e.Guard1(c.OnRolloutAdd),
			RolloutUpdate:    e.Guard2(c.OnRolloutUpdate),
			RolloutDelete:    rolloutDelete,
			DeploymentAdd:    e.Guard1(c.OnDeploymentAdd),
			DeploymentUpdate: e.Guard2(c.OnDeploymentUpdate),
			DeploymentDelete: deploymentDelete,
		}); err != nil {
			panic(err)
		}
		synced := w.Synced()
		return system{
			Start: w.Start,
			Synced: func() bool {
				for _, s := range synced {
					if !s() {
						return false
					}
				}
				return true
			},
			Run:              func(ctx context.Context) error { return c.Run(ctx, e.Workers) },
			Sync:             c.Sync,
			Shutdown:         w.Shutdown,
			RolloutDelete:    rolloutDelete,
			DeploymentDelete: deploymentDelete,
			Tombstone:        ours.NewTombstone,
		}
	}})
}
