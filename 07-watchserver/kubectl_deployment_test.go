package watchserver_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/scenario"
)

// TestKubectlDeployment drives the real kubectl through a Deployment on
// our server: kubectl apply -f of a manifest (a create, at generation 1,
// with apps/v1's defaults), get by the short name deploy and through the
// category all, an apply of the same file (unchanged: the defaults make
// it equal to what is stored), an apply of a changed spec (a strategic
// merge patch, generation 2) and a delete. Skipped without kubectl, as
// TestKubectl is.
func TestKubectlDeployment(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not on the PATH")
	}
	name, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	if name == scenario.ClientGo {
		t.Skip("kubectl is made for kube-apiserver: this test judges our server")
	}
	t.Parallel()
	tg := impls[name].Start(t)
	root, rest, _ := strings.Cut(tg.Base, "/api/v1/namespaces/")
	ns, _, _ := strings.Cut(rest, "/")
	dir := t.TempDir()
	config := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(config, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: ours, cluster: {server: %q}}]
contexts: [{name: ours, context: {cluster: ours, namespace: %q}}]
current-context: ours
`, root, ns)), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), eventWait)
		defer cancel()
		cmd := exec.CommandContext(ctx, kubectl, append([]string{"--kubeconfig", config, "--cache-dir", filepath.Join(dir, "cache")}, args...)...)
		out, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			t.Fatalf("kubectl %s did not finish in %v: our server never answered it\n%s", strings.Join(args, " "), eventWait, out)
		}
		if err != nil {
			t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	expect := func(got, want, what string) {
		t.Helper()
		if got != want {
			t.Errorf("%s printed %q, want %q", what, got, want)
		}
	}

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
