package cluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Paths are the places one checkout of the walkthrough keeps its control plane. Everything
// under Cache is git-ignored; Tools holds the only committed part (the module that pins the
// binaries).
type Paths struct {
	Root  string // the repository root, where go.work lives
	Tools string // tools/controlplane: the module that builds the binaries
	Cache string // .cache/controlplane
}

// FindPaths walks up from dir to the repository root, recognised by tools/controlplane/go.mod.
// Tests run in their package directory and the command runs wherever make or a person
// started it, so neither can assume the working directory is the root.
func FindPaths(dir string) (Paths, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Paths{}, err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "tools", "controlplane", "go.mod")); err == nil {
			return Paths{
				Root:  d,
				Tools: filepath.Join(d, "tools", "controlplane"),
				Cache: filepath.Join(d, ".cache", "controlplane"),
			}, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return Paths{}, err
		}
		if filepath.Dir(d) == d {
			return Paths{}, fmt.Errorf("no tools/controlplane/go.mod above %s: run this from inside the walkthrough checkout", abs)
		}
	}
}

// Bin is the directory of built binaries; Stamp records which pins built them.
func (p Paths) Bin() string   { return filepath.Join(p.Cache, "bin") }
func (p Paths) Stamp() string { return filepath.Join(p.Bin(), "stamp") }

// Etcd and APIServer are the two binaries Up starts.
func (p Paths) Etcd() string      { return filepath.Join(p.Bin(), "etcd") }
func (p Paths) APIServer() string { return filepath.Join(p.Bin(), "kube-apiserver") }

// Run is the data directory of the running cluster: etcd's data, keys, certificates and the
// state file. Down removes it whole.
func (p Paths) Run() string   { return filepath.Join(p.Cache, "run") }
func (p Paths) State() string { return filepath.Join(p.Run(), "state.json") }

// Logs outlive Down on purpose: when `make e2e` fails, the cluster is already gone but the
// logs that explain it are not.
func (p Paths) Logs() string { return filepath.Join(p.Cache, "logs") }

// Kubeconfig is the admin kubeconfig Up writes, ready for KUBECONFIG=… kubectl.
func (p Paths) Kubeconfig() string { return filepath.Join(p.Cache, "kubeconfig") }
