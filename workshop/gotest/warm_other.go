//go:build !unix

package gotest

import "os/exec"

// startDetached does nothing where a build cannot be stopped as a group.
func startDetached(cmd *exec.Cmd, marker string) error { return nil }

// StopWarm has nothing to stop here.
func StopWarm(marker string) (stopped, finished bool) { return false, false }
