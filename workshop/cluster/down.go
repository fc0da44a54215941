package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// Down stops the processes the state file records, kube-apiserver first so it does not spend
// its last seconds retrying a dead etcd, then removes the data directory and the kubeconfig.
// It never looks for processes by name: a kube-apiserver some other tool started is not ours
// to stop. Down with nothing running is not an error.
func Down(p Paths) error {
	unlock, err := lock(p)
	if err != nil {
		return err
	}
	defer unlock()
	return down(p)
}

// down is Down for a caller that holds the lock.
func down(p Paths) error {
	s, ok, err := readState(p)
	if err != nil {
		return fmt.Errorf("reading %s: %w: stop the processes by hand if any run, then delete %s", p.State(), err, p.Run())
	}
	if ok {
		if err := stop(s.APIServerPID, p.APIServer(), 15*time.Second); err != nil {
			return err
		}
		if err := stop(s.EtcdPID, p.Etcd(), 10*time.Second); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(p.Run()); err != nil {
		return fmt.Errorf("removing the data directory: %w", err)
	}
	if err := os.Remove(p.Kubeconfig()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// Status reports the recorded cluster and whether it answers /readyz. ok is false when no
// cluster is recorded; err says why a recorded one is not ready.
func Status(ctx context.Context, p Paths) (s State, ok bool, err error) {
	s, ok, err = readState(p)
	if err != nil || !ok {
		return s, ok, err
	}
	switch {
	case !alive(s.EtcdPID, p.Etcd()):
		err = fmt.Errorf("etcd (pid %d) is not running: see %s/etcd.log, then `cluster down` and `cluster up`", s.EtcdPID, s.Logs)
	case !alive(s.APIServerPID, p.APIServer()):
		err = fmt.Errorf("kube-apiserver (pid %d) is not running: see %s/kube-apiserver.log, then `cluster down` and `cluster up`", s.APIServerPID, s.Logs)
	default:
		err = ready(ctx, p, s)
	}
	return s, true, err
}
