package watchserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestKubectlCustomResource drives the real kubectl through chapter 06's
// Rollout on our server: kubectl apply -f of the CRD's manifest, a wait for
// its Established condition, kubectl apply -f of a Rollout (a create),
// get by its short name, an apply of a changed spec (for a custom
// resource, a JSON merge patch: no Go type gives kubectl strategic merge
// keys), whose generation is then 2, and a delete. Skipped without kubectl,
// as TestKubectl is.
func TestKubectlCustomResource(t *testing.T) {
	_, k := kubectlOn(t)
	run, expect, dir := k.run, k.expect, k.Dir

	crd := filepath.Join("..", "06-controller", "crd", crdName+".yaml")
	expect(run("apply", "-f", crd), "customresourcedefinition.apiextensions.k8s.io/"+crdName+" created", "kubectl apply -f the CRD")
	expect(run("wait", "--for", "condition=Established", "crd/"+crdName), "customresourcedefinition.apiextensions.k8s.io/"+crdName+" condition met", "kubectl wait")

	manifest := filepath.Join(dir, "rollout.yaml")
	write := func(replicas int) {
		t.Helper()
		if err := os.WriteFile(manifest, []byte(fmt.Sprintf("apiVersion: walkthrough.example.com/v1alpha1\nkind: Rollout\nmetadata:\n  name: web\nspec:\n  deploymentName: web\n  image: nginx\n  replicas: %d\n", replicas)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(2)
	expect(run("apply", "-f", manifest), "rollout.walkthrough.example.com/web created", "kubectl apply, first")
	expect(run("get", "ro", "-o", "name"), "rollout.walkthrough.example.com/web", "kubectl get ro")
	write(3)
	expect(run("apply", "-f", manifest), "rollout.walkthrough.example.com/web configured", "kubectl apply, changed")
	expect(run("get", "rollout", "web", "-o", "jsonpath={.spec.replicas} {.metadata.generation}"), "3 2", "kubectl get rollout web, after the change")
	expect(run("delete", "rollout", "web"), `rollout.walkthrough.example.com "web" deleted`, "kubectl delete rollout web")
}
