// Command etcd is etcd's own server, built from the go.etcd.io/etcd/server/v3 module at the
// version Kubernetes pins, because the workshop may not download release binaries.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
