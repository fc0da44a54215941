//go:build unix

package gotest

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// startDetached starts cmd in a process group of its own holding a lock
// on marker (the file also names the group): the lock is held as long as
// the go command or any compiler it started runs, so StopWarm can tell a
// live build from a finished one whose number the system has reused.
func startDetached(cmd *exec.Cmd, marker string) error {
	f, err := os.OpenFile(marker, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer f.Close() // the child keeps its own descriptor, and the lock with it
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return nil // one already runs
	}
	cmd.ExtraFiles = []*os.File{f}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(cmd.Process.Pid)), 0); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// StopWarm stops the background build Warm started with marker, if it
// still runs (stopped), or says it ran to the end (finished). What it
// compiled stays in the build cache; a package it was compiling is
// compiled again by the check, which would otherwise compete with it for
// the machine.
func StopWarm(marker string) (stopped, finished bool) {
	f, err := os.OpenFile(marker, os.O_RDWR, 0)
	if err != nil {
		return false, false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		os.Remove(marker)
		return false, true
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return false, false
	}
	data, err := os.ReadFile(marker)
	if err != nil {
		return false, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 1 {
		return false, false
	}
	// The lock is held, so the group still has a member: its number
	// cannot belong to anyone else.
	if syscall.Kill(-pid, syscall.SIGTERM) != nil {
		return false, false
	}
	// The lock comes free once the last of the group has exited; one
	// that outlives a few seconds is killed.
	for i := 0; syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil; i++ {
		switch i {
		case 50:
			syscall.Kill(-pid, syscall.SIGKILL)
		case 100:
			return true, false // stopped, though not yet gone
		}
		time.Sleep(100 * time.Millisecond)
	}
	os.Remove(marker)
	return true, false
}
