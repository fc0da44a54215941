package cluster

import (
	"fmt"
	"net"
	"strconv"
)

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
