package watchserver_test

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"example.com/walkthrough/workshop/scenario"
)

// TestKubectl drives the real kubectl against our server (your copy under
// the runner): it reads the discovery documents, creates a ConfigMap,
// lists and gets it, watches while another is created and the first
// deleted, and deletes; then it applies a manifest (a create), changes it
// and applies it again (a strategic merge patch), and reads the change
// and the last applied configuration back. It needs kubectl on the PATH (Debian's package, or
// one built from the pinned Kubernetes module) and is skipped without it.
func TestKubectl(t *testing.T) {
	tg, k := kubectlOn(t)
	if tg.Serving != nil {
		tg.Serving(t) // the watch cache, for get --watch
	}
	command, run, expect, dir := k.command, k.run, k.expect, k.Dir

	expect(run("create", "configmap", "a", "--from-literal=k=v"), "configmap/a created", "kubectl create configmap a")
	expect(run("get", "cm", "-o", "name"), "configmap/a", "kubectl get cm")
	expect(run("get", "configmap", "a", "-o", "jsonpath={.data.k}"), "v", "kubectl get configmap a")

	// get --watch: the list first, then each change (a deletion prints the
	// deleted object); it runs until it is stopped.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	watch := command(ctx, "get", "cm", "--watch", "-o", "name")
	stdout, err := watch.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	watch.Stderr = watch.Stdout
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	// Each line is waited for eventWait, not the command's 30 s: a server
	// that loses an event should cost a check seconds, with this reason.
	lines := make(chan string)
	scanned := make(chan error, 1)
	go func() {
		scan := bufio.NewScanner(stdout)
		for scan.Scan() {
			select {
			case lines <- scan.Text():
			case <-ctx.Done():
			}
		}
		scanned <- scan.Err()
	}()
	next := func(after string) string {
		t.Helper()
		select {
		case line := <-lines:
			return line
		case err := <-scanned:
			t.Fatalf("kubectl get --watch ended early, %s: %v", after, err)
		case <-time.After(eventWait):
			t.Fatalf("kubectl get --watch printed nothing in %v %s: the watch lost that event", eventWait, after)
		}
		return ""
	}
	expect(next("at its start"), "configmap/a", "kubectl get --watch, first")
	run("create", "configmap", "b", "--from-literal=k=w")
	expect(next("after create b"), "configmap/b", "kubectl get --watch, after create b")
	expect(run("delete", "configmap", "a"), `configmap "a" deleted`, "kubectl delete configmap a")
	expect(next("after delete a"), "configmap/a", "kubectl get --watch, after delete a")
	cancel()
	_ = watch.Wait()
	expect(run("get", "cm", "-o", "name"), "configmap/b", "kubectl get cm, after the watch")

	// kubectl apply: a GET (404), then a POST of the manifest with the
	// last-applied-configuration annotation; once the object exists, a
	// GET and a PATCH of the difference between the annotation and the
	// file, a strategic merge patch, with fieldValidation=Strict.
	manifest := filepath.Join(dir, "cm.yaml")
	write := func(data string) {
		t.Helper()
		if err := os.WriteFile(manifest, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  labels: {app: web}\ndata:\n"+data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("  k: one\n  gone: soon\n")
	expect(run("apply", "-f", manifest), "configmap/applied created", "kubectl apply, first")
	write("  k: two\n")
	expect(run("apply", "-f", manifest), "configmap/applied configured", "kubectl apply, changed")
	expect(run("apply", "-f", manifest), "configmap/applied unchanged", "kubectl apply, again")
	var applied corev1.ConfigMap
	if err := yaml.Unmarshal([]byte(run("get", "configmap", "applied", "-o", "yaml")), &applied); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"k": "two"}; !maps.Equal(applied.Data, want) {
		t.Errorf("after kubectl apply, data %v, want %v (a key the manifest no longer has is deleted)", applied.Data, want)
	}
	last := applied.Annotations["kubectl.kubernetes.io/last-applied-configuration"]
	if !strings.Contains(last, `"data":{"k":"two"}`) {
		t.Errorf("after kubectl apply, last-applied-configuration %q, want the manifest's data", last)
	}
}

// kubectlOn is the real kubectl on our server, for one test: skipped
// without kubectl on the PATH, or when the selected implementation is
// client-go's (kubectl is made for kube-apiserver: these tests judge our
// server). It starts a server, writes a kubeconfig for it (the test's
// namespace the default) and returns the server and a kubectl whose
// command lines go to it.
func kubectlOn(t *testing.T) (target, *kubectlCmd) {
	t.Helper()
	bin, err := exec.LookPath("kubectl")
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
	return tg, &kubectlCmd{t: t, bin: bin, config: config, Dir: dir}
}

// kubectlCmd runs kubectl with a test's kubeconfig; Dir is the test's
// temporary directory, for manifests.
type kubectlCmd struct {
	t           *testing.T
	bin, config string
	Dir         string
}

// command is kubectl on our server, ended with ctx.
func (k *kubectlCmd) command(ctx context.Context, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, k.bin, append([]string{"--kubeconfig", k.config, "--cache-dir", filepath.Join(k.Dir, "cache")}, args...)...)
}

// run runs kubectl and returns what it printed, trimmed; a failure, or
// no answer within eventWait, fails the test.
func (k *kubectlCmd) run(args ...string) string {
	k.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), eventWait)
	defer cancel()
	out, err := k.command(ctx, args...).CombinedOutput()
	if ctx.Err() != nil {
		k.t.Fatalf("kubectl %s did not finish in %v: our server never answered it\n%s", strings.Join(args, " "), eventWait, out)
	}
	if err != nil {
		k.t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// expect fails the test unless kubectl printed want for what.
func (k *kubectlCmd) expect(got, want, what string) {
	k.t.Helper()
	if got != want {
		k.t.Errorf("%s printed %q, want %q", what, got, want)
	}
}
