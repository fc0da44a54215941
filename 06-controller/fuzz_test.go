package controller_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"

	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/workshop/scenario"
)

// FuzzControllers plays one random sequence of API actions (create a
// Rollout, scale it, change its image, delete it or its Deployment, make
// the Deployment available, inject Conflicts and server errors, let time
// pass) on our controller and on its client-go twin, each
// on its own fake API server in its own synctest bubble. Afterwards both
// servers must hold the same objects (normalised as TestDifferential does),
// and neither controller may hot-loop: once every retry is over, an hour
// of fake time passes with no write, no key queued and no sync.
//
// `make test` runs the seed corpus; `make fuzz CH=06` searches for more.
func FuzzControllers(f *testing.F) {
	f.Add([]byte{0, 0, 5, 2, 8, 10, 1, 3, 2, 4})
	f.Add([]byte{0, 1, 0, 2, 6, 1, 1, 2, 8, 40, 4, 1, 8, 3, 3, 0, 9, 0})
	f.Add([]byte{0, 0, 7, 2, 5, 3, 8, 20, 2, 5, 6, 4, 1, 7, 8, 30, 3, 0, 4, 0, 9, 0, 0, 0})
	f.Add([]byte{0, 2, 0, 1, 4, 2, 4, 1, 8, 1, 5, 2, 5, 1, 10, 0, 7, 3, 2, 2, 8, 49})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 120 {
			ops = ops[:120]
		}
		type final struct {
			rollouts    []v1alpha1.Rollout
			deployments []appsv1.Deployment
		}
		finals := map[string]final{}
		for _, name := range []string{scenario.ClientGo, scenario.Reference} {
			synctest.Test(t, func(t *testing.T) {
				d := newDriverState(t, impls[name])
				fuzzStep(t, d, "start")
				failures := 0
				for i := 0; i+1 < len(ops); i += 2 {
					line := fuzzAction(d, ops[i], ops[i+1], &failures)
					if line == "" {
						continue
					}
					fuzzStep(t, d, line)
					if strings.HasPrefix(line, "delete rollout") {
						// A cluster's garbage collector deletes the
						// Deployment its owner left behind; without it, a
						// Rollout created again under the same name finds
						// a Deployment it does not own and retries forever.
						fuzzStep(t, d, "gc")
					}
				}
				// Every retry is over well within the limiter's longest
				// wait (1000 s); then nothing may happen for an hour.
				time.Sleep(20 * time.Minute)
				d.settle()
				d.log.Take()
				d.takeQueued()
				d.mu.Lock()
				syncs := d.gets
				d.mu.Unlock()
				time.Sleep(time.Hour)
				d.settle()
				d.mu.Lock()
				syncs = d.gets - syncs
				d.mu.Unlock()
				if syncs > 0 {
					t.Fatalf("%s: the controller synced %d times in an hour with nothing changing (hot loop)", name, syncs)
				}
				if lines := d.log.Take(); len(lines) > 0 {
					t.Fatalf("%s: the controller kept writing with nothing changing (hot loop): %v", name, lines)
				}
				if keys := d.takeQueued(); len(keys) > 0 {
					t.Fatalf("%s: the controller kept queueing with nothing changing (hot loop): %v", name, keys)
				}
				var fin final
				fin.rollouts, fin.deployments = d.finalObjects(t)
				finals[name] = fin
			})
		}
		want, got := finals[scenario.ClientGo], finals[scenario.Reference]
		if diff := cmp.Diff(want.rollouts, got.rollouts); diff != "" {
			t.Errorf("final Rollouts differ (-client-go +%s):\n%s", scenario.Ours(), diff)
		}
		if diff := cmp.Diff(want.deployments, got.deployments); diff != "" {
			t.Errorf("final Deployments differ (-client-go +%s):\n%s", scenario.Ours(), diff)
		}
	})
}

// fuzzAction decodes one action from two bytes into a scenario line, or ""
// when it does not apply (a Rollout that does not exist yet, a Deployment
// the controller has not made). Rollouts are demo/r0..r2, each naming a
// Deployment of its own name. Injected failures stop at maxFailures in all,
// so that every retry is over long before the quiet hour: a key that
// failed n times in a row waits 5ms·2ⁿ before its next try.
func fuzzAction(d *driver, code, arg byte, failures *int) string {
	key := fmt.Sprintf("demo/r%d", arg%3)
	_, rolloutErr := d.env.Walk.Tracker().Get(rolloutsGVR, "demo", nameOf(key))
	_, deploymentErr := d.env.Kube.Tracker().Get(deploymentsGVR, "demo", nameOf(key))
	rolloutExists, deploymentExists := rolloutErr == nil, deploymentErr == nil
	failure := []string{"conflict", "server"}[arg/3%2]
	inject := func(format string, times int) string {
		if *failures+times > maxFailures {
			return ""
		}
		*failures += times
		return fmt.Sprintf(format, times, failure)
	}
	switch code % 10 {
	case 0:
		if !rolloutExists {
			return fmt.Sprintf("create rollout %s deployment=%s replicas=%d image=nginx:1.%d", key, nameOf(key), arg%4+1, arg%2)
		}
	case 1:
		if rolloutExists {
			return fmt.Sprintf("update rollout %s replicas=%d", key, arg/3%5+1)
		}
	case 2:
		if rolloutExists {
			return fmt.Sprintf("update rollout %s image=nginx:1.%d", key, arg/3%3)
		}
	case 3:
		if rolloutExists {
			return "delete rollout " + key
		}
	case 4:
		if deploymentExists {
			return "delete deployment " + key
		}
	case 5:
		if deploymentExists {
			return fmt.Sprintf("deployment-status %s available=%d", key, arg/3%5)
		}
	case 6:
		return inject("fail update deployments times=%d error=%s", int(arg%3+1))
	case 7:
		return inject("fail update rollouts/status times=%d error=%s", int(arg%3+1))
	case 8:
		return fmt.Sprintf("advance %dms", arg%50+1)
	case 9:
		return inject("fail create deployments times=%d error=%s", int(arg%2+1))
	}
	return ""
}

// maxFailures caps the failures one sequence injects.
const maxFailures = 8

// fuzzStep plays one scenario line on the driver.
func fuzzStep(t *testing.T, d *driver, line string) {
	t.Helper()
	cmd, args, err := datadriven.ParseLine(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	commands.Run(d, t, &datadriven.TestData{Pos: "fuzz: " + line, Cmd: cmd, CmdArgs: args})
}
