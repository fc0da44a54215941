package watchserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestKubectlDeployment drives the real kubectl through a Deployment on
// our server: kubectl apply -f of a manifest (a create, at generation 1,
// with apps/v1's defaults), get by the short name deploy and through the
// category all, an apply of the same file (unchanged: the defaults make
// it equal to what is stored), an apply of a changed spec (a strategic
// merge patch, generation 2) and a delete. Skipped without kubectl, as
// TestKubectl is.
func TestKubectlDeployment(t *testing.T) {
	_, k := kubectlOn(t)
	run, expect, dir := k.run, k.expect, k.Dir

	manifest := filepath.Join(dir, "deployment.yaml")
	write := func(replicas int) {
		t.Helper()
		if err := os.WriteFile(manifest, []byte(fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`, replicas)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(2)
	expect(run("apply", "-f", manifest), "deployment.apps/web created", "kubectl apply, first")
	expect(run("get", "deploy", "-o", "name"), "deployment.apps/web", "kubectl get deploy")
	expect(run("get", "all", "-o", "name"), "deployment.apps/web", "kubectl get all")
	expect(run("get", "deploy", "web", "-o", "jsonpath={.metadata.generation} {.spec.template.spec.containers[0].imagePullPolicy} {.spec.strategy.type}"),
		"1 Always RollingUpdate", "kubectl get deploy web (generation, pull policy, strategy)")
	expect(run("apply", "-f", manifest), "deployment.apps/web unchanged", "kubectl apply, again")
	write(3)
	expect(run("apply", "-f", manifest), "deployment.apps/web configured", "kubectl apply, changed")
	expect(run("get", "deploy", "web", "-o", "jsonpath={.metadata.generation} {.spec.replicas}"), "2 3", "kubectl get deploy web after the change")
	expect(run("delete", "deploy", "web"), `deployment.apps "web" deleted`, "kubectl delete deploy web")
}
