package cluster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Component names one of the two processes of the control plane, for Restart.
type Component string

const (
	Etcd      Component = "etcd"
	APIServer Component = "kube-apiserver"
)

// Restart stops one component of the running cluster (SIGTERM, then SIGKILL after grace),
// keeps it down for downtime, and starts it again with exactly the command line it had, so
// it comes back on the same port with the same data and certificates. It returns once the
// component answers its health check again. The fault suite uses it to take kube-apiserver
// or etcd away from running informers; kill=true skips the grace period (a crash, not a
// shutdown).
func Restart(ctx context.Context, p Paths, c Component, downtime time.Duration, kill bool) error {
	unlock, err := lock(p)
	if err != nil {
		return err
	}
	defer unlock()
	s, ok, err := readState(p)
	if err != nil || !ok {
		return fmt.Errorf("restart %s: no running cluster recorded in %s (%v)", c, p.State(), err)
	}
	pid, bin := s.EtcdPID, p.Etcd()
	if c == APIServer {
		pid, bin = s.APIServerPID, p.APIServer()
	}
	args, err := commandLine(pid, bin)
	if err != nil {
		return fmt.Errorf("restart %s: %w", c, err)
	}
	grace := 15 * time.Second
	if kill {
		grace = 0
	}
	if err := stop(pid, bin, grace); err != nil {
		return err
	}
	for deadline := time.Now().Add(10 * time.Second); alive(pid, bin) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(downtime):
	}
	proc, err := startProc(string(c), bin, args, filepath.Join(p.Logs(), string(c)+".log"), true)
	if err != nil {
		return err
	}
	check := func() error { return etcdHealthy(ctx, s.EtcdURL) }
	if c == APIServer {
		s.APIServerPID = proc.pid
		check = func() error { return ready(ctx, p, s) }
	} else {
		s.EtcdPID = proc.pid
	}
	if err := writeState(p, s); err != nil {
		return err
	}
	return waitFor(ctx, proc, 2*time.Minute, check)
}

// commandLine reads the arguments (after argv[0]) pid was started with, checking it is bin.
func commandLine(pid int, bin string) ([]string, error) {
	if !alive(pid, bin) {
		return nil, fmt.Errorf("pid %d is not a running %s", pid, bin)
	}
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return nil, err
	}
	fields := bytes.Split(bytes.TrimRight(raw, "\x00"), []byte{0})
	args := make([]string, 0, len(fields)-1)
	for _, f := range fields[1:] {
		args = append(args, string(f))
	}
	return args, nil
}
