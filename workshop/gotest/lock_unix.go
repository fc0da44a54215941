//go:build unix

package gotest

import (
	"os"
	"path/filepath"
	"syscall"
)

// Lock waits for, then takes, the lock of a kept binary (BuildAt): two
// runners that build the same chapter's binary, or run it while the other
// relinks it, take turns. unlock gives it back; ok is false where files
// cannot be locked, and the caller then builds a binary of its own.
func Lock(path string) (unlock func(), ok bool) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, false
	}
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, false
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, false
	}
	// Closing the file releases the lock, also when the process dies.
	return func() { f.Close() }, true
}
