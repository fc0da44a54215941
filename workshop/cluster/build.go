package cluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// buildRecipe is everything besides the pinned files that shapes the binaries. It is part of
// the stamp, so changing it rebuilds. The -X flags give kube-apiserver a real version string
// (a module build otherwise reports v0.0.0-master); keep it in step with tools/controlplane/go.mod.
var buildRecipe = []string{
	"build", "-o", "BIN/",
	"-ldflags=-s -w" +
		" -X k8s.io/component-base/version.gitMajor=1" +
		" -X k8s.io/component-base/version.gitMinor=37" +
		" -X k8s.io/component-base/version.gitVersion=v1.37.1" +
		" -X k8s.io/component-base/version.gitTreeState=clean",
	"k8s.io/kubernetes/cmd/kube-apiserver", "./etcd",
}

// pinnedFiles are the committed files that decide what gets built.
var pinnedFiles = []string{"go.mod", "go.sum", filepath.Join("etcd", "main.go")}

// Build compiles etcd and kube-apiserver into p.Bin(), unless the stamp says the binaries
// already match the pins. A cold build downloads a few hundred modules and compiles
// Kubernetes: about 8 minutes on 2 cores. The go command's output goes to out, so a person
// watching sees it is working.
func Build(ctx context.Context, p Paths, out io.Writer) error {
	unlock, err := lock(p)
	if err != nil {
		return err
	}
	defer unlock()
	return build(ctx, p, out)
}

// build is Build for a caller that holds the lock.
func build(ctx context.Context, p Paths, out io.Writer) error {
	want, err := pinHash(ctx, p)
	if err != nil {
		return err
	}
	if upToDate(p, want) {
		return nil
	}
	if err := os.MkdirAll(p.Bin(), 0o755); err != nil {
		return err
	}
	fmt.Fprintf(out, "cluster: building etcd and kube-apiserver from %s into %s\n", p.Tools, p.Bin())
	fmt.Fprintf(out, "cluster: a first build takes about 10 minutes on 2 idle cores; after a pin change, Go's build cache makes it quicker\n")

	args := make([]string, len(buildRecipe))
	for i, a := range buildRecipe {
		args[i] = strings.ReplaceAll(a, "BIN/", p.Bin()+string(filepath.Separator))
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = p.Tools
	// The control plane's module is outside go.work on purpose: its graph must not mix with the
	// chapters'. -mod=readonly makes a stale go.sum an error instead of a silent edit;
	// -buildvcs=false keeps the build working in a checkout without git, or a tarball of one.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly -buildvcs=false")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the control plane failed (%v): read the go output above; "+
			"to retry by hand: cd %s && GOWORK=off go %s", err, p.Tools, strings.Join(args, " "))
	}
	return os.WriteFile(p.Stamp(), []byte(want+"\n"), 0o644)
}

// upToDate reports whether both binaries exist and the stamp matches want.
func upToDate(p Paths, want string) bool {
	got, err := os.ReadFile(p.Stamp())
	if err != nil || strings.TrimSpace(string(got)) != want {
		return false
	}
	for _, bin := range []string{p.Etcd(), p.APIServer()} {
		if _, err := os.Stat(bin); err != nil {
			return false
		}
	}
	return true
}

// pinHash hashes the pinned files, the build recipe and the Go version: a new toolchain
// rebuilds too, since the binaries embed its runtime.
func pinHash(ctx context.Context, p Paths) (string, error) {
	h := sha256.New()
	for _, name := range pinnedFiles {
		b, err := os.ReadFile(filepath.Join(p.Tools, name))
		if err != nil {
			return "", fmt.Errorf("reading the control plane pins: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	fmt.Fprintln(h, strings.Join(buildRecipe, " "))
	ver, err := exec.CommandContext(ctx, "go", "env", "GOVERSION").Output()
	if err != nil {
		return "", fmt.Errorf("running `go env GOVERSION`: %w: is Go on your PATH?", err)
	}
	h.Write(bytes.TrimSpace(ver))
	return hex.EncodeToString(h.Sum(nil)), nil
}
