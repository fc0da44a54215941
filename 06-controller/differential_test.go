package controller_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/cockroachdb/datadriven"
	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/workshop/scenario"
)

// TestDifferential runs every scenario on the reference controller and
// on its client-go twin in the same test, and compares with go-cmp what
// each step printed and the objects each left in its fake API server.
// The goldens already pin both to the same text; this test also compares
// the full objects, down to fields no step prints.
func TestDifferential(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatal("no scenarios")
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			type result struct {
				steps       []string
				rollouts    []v1alpha1.Rollout
				deployments []appsv1.Deployment
			}
			results := map[string]*result{}
			for _, name := range []string{scenario.ClientGo, scenario.Reference} {
				res := &result{}
				results[name] = res
				synctest.Test(t, func(t *testing.T) {
					d := newDriverState(t, impls[name])
					step := commands.Driver(d)
					datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
						res.steps = append(res.steps, td.Pos+": "+step(t, td))
						return td.Expected
					})
					res.rollouts, res.deployments = d.finalObjects(t)
				})
			}
			want, got := results[scenario.ClientGo], results[scenario.Reference]
			if diff := cmp.Diff(want.steps, got.steps); diff != "" {
				t.Errorf("steps differ (-client-go +%s):\n%s", scenario.Ours(), diff)
			}
			if diff := cmp.Diff(want.rollouts, got.rollouts); diff != "" {
				t.Errorf("final Rollouts differ (-client-go +%s):\n%s", scenario.Ours(), diff)
			}
			if diff := cmp.Diff(want.deployments, got.deployments); diff != "" {
				t.Errorf("final Deployments differ (-client-go +reference):\n%s", diff)
			}
		})
	}
}

// finalObjects returns the fake API server's objects, sorted, without
// the fields that legitimately differ between two runs: UIDs (handed out
// in creation order, which concurrent workers may change),
// resourceVersions, and the time a condition last changed.
func (d *driver) finalObjects(t testing.TB) ([]v1alpha1.Rollout, []appsv1.Deployment) {
	rs, err := d.env.Walk.Tracker().List(rolloutsGVR, v1alpha1.SchemeGroupVersion.WithKind("Rollout"), "")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := d.env.Kube.Tracker().List(deploymentsGVR, appsv1.SchemeGroupVersion.WithKind("Deployment"), "")
	if err != nil {
		t.Fatal(err)
	}
	rollouts := rs.(*v1alpha1.RolloutList).Items
	for i := range rollouts {
		r := &rollouts[i]
		r.UID, r.ResourceVersion = "", ""
		for j := range r.Status.Conditions {
			r.Status.Conditions[j].LastTransitionTime = metav1.Time{}
		}
	}
	deployments := ds.(*appsv1.DeploymentList).Items
	for i := range deployments {
		dep := &deployments[i]
		dep.UID, dep.ResourceVersion = "", ""
		for j := range dep.OwnerReferences {
			dep.OwnerReferences[j].UID = ""
		}
	}
	sort.Slice(rollouts, func(i, j int) bool {
		return rollouts[i].Namespace+"/"+rollouts[i].Name < rollouts[j].Namespace+"/"+rollouts[j].Name
	})
	sort.Slice(deployments, func(i, j int) bool {
		return deployments[i].Namespace+"/"+deployments[i].Name < deployments[j].Namespace+"/"+deployments[j].Name
	})
	return rollouts, deployments
}
