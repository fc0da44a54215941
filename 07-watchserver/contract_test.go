package watchserver_test

import (
	"crypto/tls"
	"net/http"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"example.com/walkthrough/workshop/scenario"
)

// What the scenarios drive: an API server serving ConfigMaps over HTTP.
// The reference and exercise adapters start ours over an embedded etcd;
// the client-go adapter (the name the harness gives the recording side)
// points at a real kube-apiserver, from which the goldens are recorded.
type target struct {
	// Base is the collection URL of the namespace the scenario owns,
	// .../api/v1/namespaces/NS/configmaps.
	Base string
	// HTTP sends the requests (it carries the real cluster's credentials).
	HTTP *http.Client
	// TLS is what a WebSocket dial needs to reach the server: the real
	// cluster's CA and client certificate; nil over plain HTTP.
	TLS *tls.Config
	// Serving starts whatever must run before watches and cached lists
	// (ours starts its watch cache lazily, so the storage scenarios need
	// no watch-cache exercise); nil when nothing needs starting.
	Serving func(t testing.TB)
	// Frame encodes one watch event as a frame of the stream (JSON line or
	// length-prefixed protobuf): ours is EncodeFrame, the recording side
	// apimachinery's own encoders and framers, as kube-apiserver uses them.
	// obj is a *corev1.ConfigMap or, for ERROR, a *metav1.Status.
	Frame func(typ watch.EventType, obj runtime.Object, protobuf bool) ([]byte, error)
	// WatchEtcd watches etcd itself, below any API server, from revision
	// rv+1: ours is WatchEtcd on the embedded etcd; the recording side is a
	// plain etcd client on the real cluster's etcd, reading the scenario's
	// namespace, each value decoded with apimachinery. Each event comes out
	// as the type and object a client would see.
	WatchEtcd func(t testing.TB, rv int64) (events chan decoded, stop func())
	// Compact compacts etcd at its current revision.
	Compact func(t testing.TB)
	// Lease is how long etcd granted the lease of the key of the
	// object resource/name of the scenario's namespace (etcdLease), 0
	// when the key is on none: an Event's is kube-apiserver's --event-ttl
	// and the slack its lease manager adds.
	Lease func(t testing.TB, resource, name string) time.Duration
	// Panicked returns a panic the server's handler raised (an unfinished
	// exercise), so the step re-raises it where the runner can report it;
	// net/http would only log it and drop the connection.
	Panicked func() any
	// Panics is closed at the first such panic: a step waiting on the
	// server (a handler may wait for a lock the panic left held) gives up
	// then and raises it. Nil for a server that cannot panic here.
	Panics <-chan struct{}
}

// startsLazily are the exercises whose scenarios start the watch cache
// only when they first read it (a LIST at resourceVersion=0): storage
// (1, 2), etcd's own watch (3), the cache's first list (4), the frame
// encoder (9) and paged lists (12). The others start it before their
// first write, so a watch from an early version finds it in the window.
var startsLazily = []int{1, 2, 3, 4, 9, 12}

// impl starts a target for one scenario file.
type impl struct {
	Start func(t testing.TB) target
}

// impls holds every implementation, for the scenarios (startDriver) and
// the tests that are not scenarios (the stress test); the adapter files
// register themselves.
var impls = scenario.Registry[impl]{}

// register adds an implementation under its name.
func register(name string, im impl) { impls[name] = im }
