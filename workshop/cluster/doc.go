// Package cluster runs a real, throwaway Kubernetes control plane on loopback for the
// workshop's end-to-end tests: one etcd and one kube-apiserver, both built from Go modules
// (tools/controlplane), both listening only on 127.0.0.1.
//
// The story of one run:
//
//   - Build compiles the binaries into .cache/controlplane/bin, once per change of the pins
//     in tools/controlplane (a stamp file holds a hash of them).
//   - Up picks free ports, makes fresh keys and certificates (pki.go), starts etcd and then
//     kube-apiserver as background processes, waits for /readyz, and writes an admin
//     kubeconfig to .cache/controlplane/kubeconfig. It records what it started in a state
//     file, so a second Up finds the running cluster and reuses it.
//   - Down stops exactly the processes recorded in the state file and removes the data
//     directory. The logs stay in .cache/controlplane/logs for a post-mortem.
//
// Tests never start a cluster themselves. An end-to-end test is named TestE2E… and calls
// Require, which skips unless WALKTHROUGH_E2E_KUBECONFIG names a kubeconfig; `make e2e`
// sets it. So a plain `go test ./...` stays fast and offline. See docs/e2e.md.
//
// There is no kube-controller-manager and no scheduler: nothing garbage-collects, a deleted
// namespace stays Terminating, and no Pod ever runs. The informer only needs the API server.
package cluster
