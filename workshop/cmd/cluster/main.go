// Command cluster runs the workshop's local control plane: a real etcd and kube-apiserver on
// 127.0.0.1, built from Go modules. See package example.com/walkthrough/workshop/cluster.
//
//	go run ./workshop/cmd/cluster build    # build the binaries if the pins changed
//	go run ./workshop/cmd/cluster up       # start, or reuse a running cluster
//	go run ./workshop/cmd/cluster status   # is it running and ready?
//	go run ./workshop/cmd/cluster env      # shell exports for the end-to-end tests
//	go run ./workshop/cmd/cluster down     # stop it and remove its data
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"example.com/walkthrough/workshop/cluster"
)

const usage = `usage: cluster [-port N] build|up|status|env|down

  build   build etcd and kube-apiserver into .cache/controlplane/bin (only when the pins changed)
  up      start a control plane on 127.0.0.1, or reuse the one already running
  status  say whether the control plane is running and ready
  env     print the exports that end-to-end tests read
  down    stop the control plane and remove its data
`

func main() {
	port := flag.Int("port", 0, "kube-apiserver's port on 127.0.0.1 for `up` (0 picks a free one)")
	flag.Usage = func() { fmt.Fprint(os.Stderr, usage); flag.PrintDefaults() }
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, flag.Arg(0), *port); err != nil {
		fmt.Fprintf(os.Stderr, "cluster %s: %v\n", flag.Arg(0), err)
		os.Exit(1)
	}
}

func run(ctx context.Context, verb string, port int) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	p, err := cluster.FindPaths(wd)
	if err != nil {
		return err
	}
	switch verb {
	case "build":
		return cluster.Build(ctx, p, os.Stderr)
	case "up":
		s, err := cluster.Up(ctx, p, cluster.Options{Out: os.Stderr, APIServerPort: port})
		if err != nil {
			return err
		}
		fmt.Printf("The control plane is up: kube-apiserver %s, etcd %s.\n", s.APIServerURL, s.EtcdURL)
		fmt.Printf("Use it with:  KUBECONFIG=%s kubectl get ns\n", s.Kubeconfig)
		fmt.Printf("Run the end-to-end tests with:  eval \"$(go run ./workshop/cmd/cluster env)\" && go test -run '^TestE2E' ./...\n")
		fmt.Printf("Logs are in %s. Stop it with:  make cluster-down\n", s.Logs)
		return nil
	case "status":
		s, ok, err := cluster.Status(ctx, p)
		if !ok && err == nil {
			fmt.Println("not running: start one with `make cluster-up`")
			os.Exit(3)
		}
		if err != nil {
			return err
		}
		fmt.Printf("running and ready: kube-apiserver %s (pid %d), etcd %s (pid %d), since %s\n",
			s.APIServerURL, s.APIServerPID, s.EtcdURL, s.EtcdPID, s.Started.Format("15:04:05"))
		fmt.Printf("kubeconfig: %s\n", s.Kubeconfig)
		return nil
	case "env":
		s, ok, err := cluster.Status(ctx, p)
		if !ok && err == nil {
			return fmt.Errorf("no control plane is running: start one with `make cluster-up`")
		}
		if err != nil {
			return err
		}
		fmt.Printf("export %s=%s\n", cluster.EnvKubeconfig, shellQuote(s.Kubeconfig))
		fmt.Printf("export %s=%s\n", cluster.EnvEtcd, shellQuote(s.EtcdURL))
		return nil
	case "down":
		if err := cluster.Down(p); err != nil {
			return err
		}
		fmt.Println("The control plane is down and its data is removed.")
		return nil
	default:
		flag.Usage()
		os.Exit(2)
		return nil
	}
}

// shellQuote quotes s for a POSIX shell: the checkout's path may contain spaces.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
