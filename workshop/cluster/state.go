package cluster

import (
	"encoding/json"
	"errors"
	"os"
	"time"
)

// State is what Up records about the cluster it started, in Paths.State(). Down trusts
// nothing else: it signals exactly these PIDs, and only while they still run these binaries.
type State struct {
	EtcdPID      int       `json:"etcdPID"`
	APIServerPID int       `json:"apiServerPID"` // 0 until kube-apiserver has been started
	EtcdURL      string    `json:"etcdURL"`      // http://127.0.0.1:PORT, also serving etcd's JSON gateway
	APIServerURL string    `json:"apiServerURL"` // https://127.0.0.1:PORT
	Kubeconfig   string    `json:"kubeconfig"`   // the admin kubeconfig for this cluster
	Logs         string    `json:"logs"`         // the directory of etcd.log and kube-apiserver.log
	Started      time.Time `json:"started"`
}

// readState returns the recorded state, or ok=false when no cluster was recorded.
func readState(p Paths) (s State, ok bool, err error) {
	b, err := os.ReadFile(p.State())
	if errors.Is(err, os.ErrNotExist) {
		return s, false, nil
	}
	if err != nil {
		return s, false, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, false, err
	}
	return s, true, nil
}

// writeState records s. Up calls it as soon as each process starts, so that a Down after a
// failed or interrupted Up still finds what to stop.
func writeState(p Paths, s State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := p.State() + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p.State())
}
