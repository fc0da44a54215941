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

// TestKubectlCustomResource drives the real kubectl through chapter 06's
// Rollout on our server: kubectl apply -f of the CRD's manifest, a wait for
// its Established condition, kubectl apply -f of a Rollout (a create),
// get by its short name, an apply of a changed spec (for a custom
// resource, a JSON merge patch: no Go type gives kubectl strategic merge
// keys), whose generation is then 2, and a delete. Skipped without kubectl,
// as TestKubectl is.
func TestKubectlCustomResource(t *testing.T) {
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
