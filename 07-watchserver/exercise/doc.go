// Your copy of ../doc.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

// Package watchserver is chapter 07 of the client-go walkthrough: the
// other end of the wire, the API server that answers a Reflector's LIST
// and WATCH.
//
// Chapters 01 to 06 build the client. This one builds, for any resource
// described by a value (a Resource: ConfigMaps, Events, Deployments and Leases here, and the
// custom resources of the CustomResourceDefinitions posted to it), what
// kube-apiserver runs behind a `?watch=true`: objects
// in a real etcd, each write a transaction on the key's ModRevision, which
// is the object's resourceVersion; a watch cache that chapter 01's
// Reflector fills by listing and watching etcd (one etcd watch, however
// many clients; one cache per resource), keeping the current state and a
// ring of the last events,
// and fanning each event out to every client's watcher through a bounded
// buffer, closing a watcher that cannot keep up; and a WatchServer
// that writes each event as one flushed frame of a chunked HTTP response.
// The 410 that makes a Reflector relist, the bookmark that ends a
// WatchList's initial events and the 422 for options that do not go
// together all come from here.
//
// Read the files in this order:
//
//	embedded.go     a one-member etcd inside the process, for the tests
//	resource.go     a resource as a value: names, group, version, empty object and list, key prefix
//	codec.go        how an object is stored: protobuf in the k8s\x00 envelope, no resourceVersion
//	storage.go      Storage: create, update, delete and list as etcd transactions on ModRevision
//	ttl.go          an Event's time to live: its key on an etcd lease, one lease for a minute's writes
//	paging.go       limit and continue: every page read at the first page's revision
//	etcdwatch.go    etcd's watch from a revision, as ADDED, MODIFIED and DELETED events
//	cache.go        the watch cache: the state, the ring, the fan-out
//	ring.go         the ring of recent events, sized by their age, and the intervals replays read
//	dispatchbudget.go     how long the dispatcher may wait for full watchers, refilled over time
//	dispatchbookmarks.go  when each watcher's next periodic bookmark is due, in one-second buckets
//	cachelw.go      etcd as the ListerWatcher of the cache's Reflector (chapter 01's)
//	watcher.go      one client's watch: where it starts, its initial events, its goroutine
//	frame.go        one event on the wire: a JSON line or length-prefixed protobuf
//	watchserver.go  one watch over HTTP: headers at once, a flushed frame per event, the timeout
//	websocket.go    the same stream over a WebSocket, the old door client-go never uses
//	server.go       the HTTP API: routes, option checks, media types, list or watch
//	discovery.go    /api, /apis and each group version: what kubectl reads before its first request
//	patch.go        PATCH: merge, strategic merge and JSON patches, applied in the update's loop
//	openapi.go      the OpenAPI operations kubectl apply reads: each resource's PATCH
//	selector.go     labelSelector and fieldSelector, and how a watch judges an update twice
//	crd.go          CustomResourceDefinitions: stored unstructured, established, their resources served
//	customresource.go  a custom resource: its Resource from the CRD, its strategy, its routes
//	prune.go        the fields a CRD's structural schema does not declare, dropped on every write
//	deployment.go   a Deployment's strategy (generation, status, /status) and apps/v1's defaults
//	observe.go      Observer: each change at etcd, in the cache and on the wire, for chapter 06's viewer
//
// Everything here mirrors kube-apiserver (k8s.io/apiserver v0.37.1, the
// release tools/controlplane builds); each type's comment names its
// counterpart. The chapter's scenarios (testdata/scenarios) were recorded
// from a real kube-apiserver, and the same files check this server.
package watchserver
