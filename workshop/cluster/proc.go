package cluster

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// proc is one background process Up started: etcd or kube-apiserver. Its output goes to a
// log file, never to the terminal, because it outlives the command that started it.
type proc struct {
	name string        // "etcd" or "kube-apiserver", for messages
	pid  int           //
	log  string        // the file that holds its stdout and stderr
	done chan struct{} // closed when the process exits, while this Go process still watches it
}

// startProc starts bin in its own session, so that a Ctrl-C in the terminal that ran
// `cluster up` does not reach the cluster, and the cluster keeps running after `up` returns.
// A fresh start truncates the log; a restart (Restart) appends to it, so one log tells the
// whole story of a fault run.
func startProc(name, bin string, args []string, logFile string, appendLog bool) (*proc, error) {
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendLog {
		flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	out, err := os.OpenFile(logFile, flags, 0o644)
	if err != nil {
		return nil, err
	}
	defer out.Close() // the child has its own copy of the descriptor
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	p := &proc{name: name, pid: cmd.Process.Pid, log: logFile, done: make(chan struct{})}
	// Waiting reaps the child if it dies while we watch it start, and tells us it died.
	go func() { cmd.Wait(); close(p.done) }()
	return p, nil
}

// exited reports whether p has exited (as far as this Go process has seen).
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// diedError explains why p exited while starting, from its log.
func (p *proc) diedError() error {
	tail := lastLines(p.log, 20)
	if port := portInUse(tail); port != "" {
		return fmt.Errorf("%s could not start: address %s is already in use by another process.\n"+
			"Find it with `ss -ltnp | grep %s`, stop it, or run `cluster up` again to pick other free ports.\n"+
			"Full log: %s", p.name, port, port, p.log)
	}
	return fmt.Errorf("%s exited while starting. Last lines of its log:\n%s\nFull log: %s", p.name, tail, p.log)
}

// portInUse finds "listen tcp 127.0.0.1:NNNN: bind: address already in use" in a log.
func portInUse(log string) string {
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, "address already in use") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if strings.HasPrefix(f, "127.0.0.1:") {
				return strings.Trim(f, ":,\"")
			}
		}
		return "(see log)"
	}
	return ""
}

// lastLines returns up to n last lines of a file, for error messages.
func lastLines(file string, n int) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", file, err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ")
}

// alive reports whether pid is a running process started from bin. Checking the command line,
// not just the PID, keeps Down from signalling an unrelated process that reused a PID after
// a reboot or a crash.
func alive(pid int, bin string) bool {
	if pid <= 0 {
		return false
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(cmdline) == 0 { // gone, or a zombie waiting to be reaped
		return false
	}
	argv0, _, _ := bytes.Cut(cmdline, []byte{0})
	return string(argv0) == bin && !zombie(pid)
}

// zombie reports whether pid has exited but not been reaped (state Z in /proc/PID/stat).
func zombie(pid int) bool {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return true
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if state, ok := strings.CutPrefix(s.Text(), "State:"); ok {
			return strings.HasPrefix(strings.TrimSpace(state), "Z")
		}
	}
	return false
}

// stop sends SIGTERM to pid if it is still bin's process, waits up to grace for it to go,
// then sends SIGKILL. kube-apiserver and etcd both shut down cleanly on SIGTERM.
func stop(pid int, bin string, grace time.Duration) error {
	if !alive(pid, bin) {
		return nil
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("stopping pid %d (%s): %w", pid, bin, err)
	}
	for deadline := time.Now().Add(grace); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if !alive(pid, bin) {
			return nil
		}
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("killing pid %d (%s): %w", pid, bin, err)
	}
	return nil
}
