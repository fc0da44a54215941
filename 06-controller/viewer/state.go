// Package viewer is the step-through viewer of chapter 06's demo: a trace
// that records, at every step a change takes through the machinery, what
// each component holds (state.go, recorder.go), and a page served on
// 127.0.0.1 that draws it and steps through it, live or from a saved
// trace (server.go, web/).
//
//	make demo VIEW=web                  # live
//	make demo TRACE=/tmp/demo.jsonl     # record a trace
//	make demo VIEW=web TRACE=/tmp/demo.jsonl   # replay it
package viewer

// Step is one line of a trace: one thing one component did, and what every
// component held at that moment.
type Step struct {
	// Seq numbers the steps from 1.
	Seq int `json:"seq"`
	// At is the time since the demo started, in seconds.
	At float64 `json:"at"`
	// Section numbers the story's parts from 1 (0 before the first), and
	// Title names the current one: "Scale web to 4 replicas".
	Section int    `json:"section"`
	Title   string `json:"title"`
	// Stage is the component that acted: reflector, fifo, indexer,
	// handler, queue, worker, api, event or cluster; on chapter 07's
	// server (make demo SERVER=ours) also etcd, watchcache and
	// watchserver, which come before the reflector.
	Stage   string `json:"stage"`
	Key     string `json:"key,omitempty"`
	Message string `json:"message"`
	State   State  `json:"state"`
}

// State is what each component holds.
type State struct {
	// Informers has one entry per informer, in a fixed order.
	Informers []Informer `json:"informers"`
	Queue     Queue      `json:"queue"`
	// API is what the controller wrote to the API server (writes and
	// Events), newest last, at most the last MaxWrites.
	API []string `json:"api"`
	// Server is the API server's side, when it is chapter 07's (make
	// demo SERVER=ours); nil on any other, and left out of the trace.
	Server *APIServer `json:"server,omitempty"`
}

// APIServer is chapter 07's API server: what etcd stored, each watch cache,
// and what went on the wire.
type APIServer struct {
	// Etcd is the last writes etcd reported, newest last, at most
	// MaxServer: "PUT /registry/deployments/demo/web rev 12".
	Etcd []string `json:"etcd"`
	// Caches has one watch cache per resource, by name.
	Caches []WatchCache `json:"caches"`
	// Frames is the last frames the WatchServers wrote, newest last, at
	// most MaxServer, each with the start of its bytes.
	Frames []string `json:"frames"`
}

// WatchCache is one resource's watch cache.
type WatchCache struct {
	// Resource is the group resource: deployments.apps.
	Resource string `json:"resource"`
	// Window is the ring's window: "rv 4..12: 9 events in a ring of 100".
	Window string `json:"window"`
	// Ring is the window's newest events, at most MaxServer, oldest first:
	// "slot 8: MODIFIED demo/web rv 12".
	Ring []string `json:"ring"`
	// Watchers is each client's watcher: what it watches, where it
	// started, how full its buffer is.
	Watchers []string `json:"watchers"`
}

// MaxServer is how many of etcd's writes, of a watch cache's events and
// of the frames a State keeps: the newest few show what moved, and the
// trace stays small.
const MaxServer = 4

// MaxWrites is how many of the controller's writes a State keeps.
const MaxWrites = 12

// Informer is one informer's half of the pipeline.
type Informer struct {
	// Resource is the plural name: rollouts, deployments.
	Resource  string    `json:"resource"`
	Reflector Reflector `json:"reflector"`
	// FIFO is what waits to be popped, oldest first.
	FIFO []FIFOEntry `json:"fifo"`
	// Indexer is the cache: every object, by key, and each index.
	Indexer []Object `json:"indexer"`
	Indexes []Index  `json:"indexes"`
	// Handler is the notifications popped and not yet handed to the
	// controller's handler (its listener's buffer), oldest first.
	Handler []string `json:"handler"`
}

// Reflector is where the Reflector stands.
type Reflector struct {
	// Phase is "listing", "watching" and the like.
	Phase string `json:"phase"`
	// ResourceVersion is the last one the Reflector synced to.
	ResourceVersion string `json:"resourceVersion"`
}

// FIFOEntry is a key and the deltas waiting under it ("Added 12").
type FIFOEntry struct {
	Key    string   `json:"key"`
	Deltas []string `json:"deltas"`
}

// Object is one object in the cache.
type Object struct {
	Key             string `json:"key"`
	ResourceVersion string `json:"resourceVersion"`
}

// Index is one index: each value and the keys filed under it.
type Index struct {
	Name   string       `json:"name"`
	Values []IndexValue `json:"values"`
}

// IndexValue is one value of an index and its keys.
type IndexValue struct {
	Value string   `json:"value"`
	Keys  []string `json:"keys"`
}

// Queue is the controller's workqueue. A key in Processing is held by a
// worker: that is what the workers are doing.
type Queue struct {
	Queue      []string  `json:"queue"`
	Dirty      []string  `json:"dirty"`
	Processing []string  `json:"processing"`
	Waiting    []Waiting `json:"waiting"`
	// Requeues is each key's rate-limited retries, for keys with any.
	Requeues map[string]int `json:"requeues,omitempty"`
}

// Waiting is a key held back by the rate limiter, and how long until it is
// due, in milliseconds, when the step was recorded.
type Waiting struct {
	Key     string `json:"key"`
	ReadyMS int64  `json:"readyInMs"`
}
