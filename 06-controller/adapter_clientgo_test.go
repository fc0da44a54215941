package controller_test

import (
	"context"

	"k8s.io/client-go/tools/cache"

	controller "example.com/walkthrough/06-controller"
	"example.com/walkthrough/06-controller/wiring/clientgo"
	"example.com/walkthrough/workshop/scenario"
)

// The client-go twin: the chapter's reconcile logic on client-go's
// generated informers, listers and util/workqueue. The goldens are
// recorded through it.
func init() {
	register(scenario.ClientGo, impl{Build: func(e env) system {
		w := clientgo.New(e.Kube, e.Walk, 0)
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
		deploymentDelete := e.Guard1(c.OnDeploymentDelete)
		if err := w.AddHandlers(clientgo.Handlers{
			RolloutAdd:       e.Guard1(c.OnRolloutAdd),
			RolloutUpdate:    e.Guard2(c.OnRolloutUpdate),
			RolloutDelete:    e.Guard1(c.OnRolloutDelete),
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
			Run:      func(ctx context.Context) error { return c.Run(ctx, e.Workers) },
			Sync:     c.Sync,
			Shutdown: w.Shutdown,
			// The twin's delete handler is the one client-go calls, so it
			// takes client-go's tombstone and translates it.
			DeploymentDelete: func(obj any) { deploymentDelete(clientgo.Tombstone(obj)) },
			Tombstone: func(key string, obj any) any {
				return cache.DeletedFinalStateUnknown{Key: key, Obj: obj}
			},
		}
	}})
}
