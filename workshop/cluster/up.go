package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
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
	if err := Build(ctx, p, out); err != nil {
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
		if err := Down(p); err != nil {
			return State{}, err
		}
	}
	s, err := start(ctx, p, opt, out)
	if err != nil {
		if derr := Down(p); derr != nil {
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
	pki, err := NewPKI(filepath.Join(p.Run(), "pki"))
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
	}, filepath.Join(p.Logs(), "etcd.log"))
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

	api, err := startProc("kube-apiserver", p.APIServer(), apiServerArgs(s, apiPort, pki), filepath.Join(p.Logs(), "kube-apiserver.log"))
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
	}
}

// waitFor polls check until it succeeds, p dies, or timeout passes. The timeout error names
// the log to read, because the reason is always in there.
func waitFor(ctx context.Context, p *proc, timeout time.Duration, check func() error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		err := check()
		if err == nil {
			return nil
		}
		if p.exited() {
			return p.diedError()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s was not ready within %s (last check: %v). Last lines of its log:\n%s\nFull log: %s",
				p.name, timeout, err, lastLines(p.log, 20), p.log)
		case <-tick.C:
		}
	}
}

// etcdHealthy asks etcd's /health endpoint.
func etcdHealthy(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/health", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("etcd /health: %s", resp.Status)
	}
	return nil
}

// ready asks kube-apiserver's /readyz as the admin. It reads the certificates from the data
// directory, so it also fails (as it should) when that directory is gone.
func ready(ctx context.Context, p Paths, s State) error {
	pki := filepath.Join(p.Run(), "pki")
	caPEM, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		return errors.New("no certificate in " + filepath.Join(pki, "ca.crt"))
	}
	admin, err := tls.LoadX509KeyPair(filepath.Join(pki, "admin.crt"), filepath.Join(pki, "admin.key"))
	if err != nil {
		return err
	}
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{admin}}},
	}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.APIServerURL+"/readyz", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("/readyz: %s: %s", resp.Status, body)
	}
	return nil
}

// freePorts asks the kernel for n free loopback ports. They are free when we ask, not
// promised: if another process takes one before etcd or kube-apiserver binds it, the start
// fails with a clear "address already in use", and the next Up picks again.
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port on 127.0.0.1: %w", err)
		}
		defer l.Close() // hold all n open until the end, so they differ
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// checkFree reports a clear error when a chosen port is taken.
func checkFree(port int) error {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return fmt.Errorf("port %d on 127.0.0.1 is in use by another process: "+
			"find it with `ss -ltnp | grep :%d` and stop it, or choose another port: %w", port, port, err)
	}
	return l.Close()
}
