package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lock serialises Build, Up and Down across processes: two `make cluster-up` at once in one
// checkout must not both build into the same files, nor both start a cluster and leave one
// unrecorded. It is an flock on
// .cache/controlplane/lock, which the kernel releases if the holder dies. The returned
// function unlocks.
func lock(p Paths) (unlock func(), err error) {
	if err := os.MkdirAll(p.Cache, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(p.Cache, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
