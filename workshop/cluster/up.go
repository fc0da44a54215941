package cluster

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Options tune Up. The zero value is what `make cluster-up` uses.
type Options struct {
	// Out receives progress messages and the build's output; nil discards them.
	Out io.Writer
	// APIServerPort fixes kube-apiserver's port on 127.0.0.1; 0 picks a free one.
	APIServerPort int
	// ReadyTimeout bounds the wait for /readyz; 0 means 2 minutes, enough for a cold start on
	// 2 busy cores (a warm start takes about 6 seconds).
	ReadyTimeout time.Duration
}

// Up makes sure a control plane is running and returns its state. It builds the binaries if
// the pins changed, reuses a running cluster recorded by an earlier Up, and otherwise starts
// a fresh one: new data directory, new keys, free ports. When start-up fails, Up stops what
// it started and returns an error quoting the log of the process that failed.
func Up(ctx context.Context, p Paths, opt Options) (State, error) {
	out := opt.Out
	if out == nil {
		out = io.Discard
	}
	if opt.ReadyTimeout == 0 {
		opt.ReadyTimeout = 2 * time.Minute
	}
	unlock, err := lock(p)
	if err != nil {
		return State{}, err
	}
	defer unlock()
	if err := build(ctx, p, out); err != nil {
		return State{}, err
	}
	if s, ok, err := readState(p); err != nil {
		return State{}, fmt.Errorf("reading %s: %w: run `cluster down` to clear it", p.State(), err)
	} else if ok {
		if ready(ctx, p, s) == nil {
			fmt.Fprintf(out, "cluster: reusing the control plane already running at %s\n", s.APIServerURL)
			return s, nil
		}
		// A leftover from a crash or a reboot: clear it rather than guess what is half-alive.
		fmt.Fprintf(out, "cluster: clearing a control plane that is recorded but not ready\n")
		if err := down(p); err != nil {
			return State{}, err
		}
	}
	s, err := start(ctx, p, opt, out)
	if err != nil {
		if derr := down(p); derr != nil {
			err = fmt.Errorf("%w\n(and cleaning up failed too: %v)", err, derr)
		}
		return State{}, err
	}
	return s, nil
}

// start brings up etcd, then kube-apiserver, recording each in the state file as it starts.
func start(ctx context.Context, p Paths, opt Options, out io.Writer) (State, error) {
	for _, dir := range []string{p.Run(), p.Logs()} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return State{}, err
		}
	}
	pki, err := NewPKI(pkiDir(p))
	if err != nil {
		return State{}, fmt.Errorf("making certificates: %w", err)
	}
	ports, err := freePorts(3)
	if err != nil {
		return State{}, err
	}
	etcdPort, peerPort, apiPort := ports[0], ports[1], ports[2]
	if opt.APIServerPort != 0 {
		apiPort = opt.APIServerPort
		if err := checkFree(apiPort); err != nil {
			return State{}, err
		}
	}
	s := State{
		EtcdURL:      "http://127.0.0.1:" + strconv.Itoa(etcdPort),
		APIServerURL: "https://127.0.0.1:" + strconv.Itoa(apiPort),
		Kubeconfig:   p.Kubeconfig(),
		Logs:         p.Logs(),
		Started:      time.Now(),
	}

	peerURL := "http://127.0.0.1:" + strconv.Itoa(peerPort)
	etcd, err := startProc("etcd", p.Etcd(), []string{
		"--name=walkthrough",
		"--data-dir=" + filepath.Join(p.Run(), "etcd"),
		"--listen-client-urls=" + s.EtcdURL, "--advertise-client-urls=" + s.EtcdURL,
		"--listen-peer-urls=" + peerURL, "--initial-advertise-peer-urls=" + peerURL,
		"--initial-cluster=walkthrough=" + peerURL,
		"--log-level=warn",
		// A throwaway test cluster does not need its writes on disk before they are
		// acknowledged; skipping fsync keeps the tests fast on slow disks.
		"--unsafe-no-fsync=true",
	}, filepath.Join(p.Logs(), "etcd.log"), false)
	if err != nil {
		return s, err
	}
	s.EtcdPID = etcd.pid
	if err := writeState(p, s); err != nil {
		return s, err
	}
	fmt.Fprintf(out, "cluster: etcd started (pid %d) at %s\n", etcd.pid, s.EtcdURL)
	if err := waitFor(ctx, etcd, 30*time.Second, func() error { return etcdHealthy(ctx, s.EtcdURL) }); err != nil {
		return s, err
	}

	api, err := startProc("kube-apiserver", p.APIServer(), apiServerArgs(s, apiPort, pki), filepath.Join(p.Logs(), "kube-apiserver.log"), false)
	if err != nil {
		return s, err
	}
	s.APIServerPID = api.pid
	if err := writeState(p, s); err != nil {
		return s, err
	}
	fmt.Fprintf(out, "cluster: kube-apiserver started (pid %d) at %s, waiting for /readyz\n", api.pid, s.APIServerURL)
	if err := waitFor(ctx, api, opt.ReadyTimeout, func() error { return ready(ctx, p, s) }); err != nil {
		return s, err
	}
	if err := writeKubeconfig(p.Kubeconfig(), s.APIServerURL, pki); err != nil {
		return s, err
	}
	fmt.Fprintf(out, "cluster: ready in %s\n", time.Since(s.Started).Round(100*time.Millisecond))
	return s, nil
}

// apiServerArgs are kube-apiserver's flags. Everything listens on, and advertises, loopback.
func apiServerArgs(s State, port int, pki PKI) []string {
	return []string{
		"--advertise-address=127.0.0.1",
		// The endpoint reconciler publishes the advertise address in the "kubernetes" Service's
		// Endpoints, and refuses a loopback one. Nothing here dials that Service, so turn it off.
		"--endpoint-reconciler-type=none",
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--etcd-servers=" + s.EtcdURL,
		"--tls-cert-file=" + pki.ServingCert, "--tls-private-key-file=" + pki.ServingKey,
		"--client-ca-file=" + pki.CA, // trusts the admin's client certificate
		"--authorization-mode=Node,RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + pki.SAPub,
		"--service-account-signing-key-file=" + pki.SAKey,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--profiling=false",
		// Every resource is served from the API server's watch cache, as in production, except
		// PodTemplates: their watches go straight to etcd, so a test can compact etcd and see
		// the 410 Gone that a cached resource only shows once its cache window has moved on.
		"--watch-cache-sizes=podtemplates#0",
	}
}
