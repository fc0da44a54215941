package cluster

// Offline tests of the parts of Up and Down that need no control plane: certificates, the
// kubeconfig, process handling and the error messages a person reads.

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
)

func readCert(t *testing.T, file string) *x509.Certificate {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(b)
	if block == nil {
		t.Fatalf("%s: no PEM block", file)
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPKIChainsToOneCA(t *testing.T) {
	pki, err := NewPKI(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(readCert(t, pki.CA))

	serving := readCert(t, pki.ServingCert)
	if _, err := serving.Verify(x509.VerifyOptions{Roots: roots, DNSName: "127.0.0.1"}); err != nil {
		t.Errorf("serving certificate does not verify for 127.0.0.1: %v", err)
	}
	admin := readCert(t, pki.AdminCert)
	if _, err := admin.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("admin certificate does not verify as a client: %v", err)
	}
	if got := admin.Subject.Organization; len(got) != 1 || got[0] != "system:masters" {
		t.Errorf("admin certificate groups %v, want [system:masters]: RBAC would deny it", got)
	}
}

func TestKubeconfigLoadsWithClientGo(t *testing.T) {
	dir := t.TempDir()
	pki, err := NewPKI(dir)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "kubeconfig")
	if err := writeKubeconfig(file, "https://127.0.0.1:6443", pki); err != nil {
		t.Fatal(err)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", file)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "https://127.0.0.1:6443" || len(cfg.CAData) == 0 || len(cfg.CertData) == 0 || len(cfg.KeyData) == 0 {
		t.Errorf("kubeconfig loads as host %q with CA %d, cert %d, key %d bytes; want the server and all three",
			cfg.Host, len(cfg.CAData), len(cfg.CertData), len(cfg.KeyData))
	}
}

// A process that dies while starting is reported with its log, and a port clash by name.
func TestDiedProcessNamesThePortInUse(t *testing.T) {
	log := filepath.Join(t.TempDir(), "fake.log")
	p, err := startProc("fake", "/bin/sh", []string{"-c",
		`echo 'listen tcp 127.0.0.1:2379: bind: address already in use'; exit 1`}, log, false)
	if err != nil {
		t.Fatal(err)
	}
	err = waitFor(context.Background(), p, 10*time.Second, func() error { return os.ErrNotExist })
	if err == nil || !strings.Contains(err.Error(), "address 127.0.0.1:2379 is already in use") {
		t.Errorf("got %v, want it to name 127.0.0.1:2379 as in use", err)
	}
}

// A process that never gets ready is reported with the tail of its log and the log's path.
func TestNotReadyQuotesTheLog(t *testing.T) {
	log := filepath.Join(t.TempDir(), "slow.log")
	p, err := startProc("slow", "/bin/sh", []string{"-c", `echo starting slowly; exec sleep 30`}, log, false)
	if err != nil {
		t.Fatal(err)
	}
	defer stop(p.pid, "/bin/sh", time.Second)
	err = waitFor(context.Background(), p, 500*time.Millisecond, func() error { return os.ErrNotExist })
	if err == nil || !strings.Contains(err.Error(), "starting slowly") || !strings.Contains(err.Error(), log) {
		t.Errorf("got %v, want the log's last lines and its path", err)
	}
}

// Down signals a recorded PID only while it still runs our binary: after a crash the PID may
// belong to someone else.
func TestDownLeavesForeignProcessesAlone(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "tools", "controlplane"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "tools", "controlplane", "go.mod"), []byte("module x\n"), 0o644)
	p, err := FindPaths(filepath.Join(root, "tools"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Root != root {
		t.Fatalf("FindPaths found root %s, want %s", p.Root, root)
	}
	foreign := exec.Command("sleep", "30")
	if err := foreign.Start(); err != nil {
		t.Fatal(err)
	}
	defer foreign.Process.Kill()
	os.MkdirAll(p.Run(), 0o755)
	if err := writeState(p, State{EtcdPID: foreign.Process.Pid, APIServerPID: foreign.Process.Pid}); err != nil {
		t.Fatal(err)
	}
	if err := Down(p); err != nil {
		t.Fatal(err)
	}
	if zombie(foreign.Process.Pid) { // gone or exited: either way, Down got it
		t.Error("Down stopped a process that was not started from the control plane's binaries")
	}
	if _, err := os.Stat(p.Run()); !os.IsNotExist(err) {
		t.Errorf("Down left the data directory: %v", err)
	}
}
