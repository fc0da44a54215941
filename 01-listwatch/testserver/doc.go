// Package testserver is an in-process Kubernetes API server for tests: it
// speaks the list/watch HTTP protocol of kube-apiserver for a few
// resources, from a history that the test scripts.
//
// A test creates a Server, registers the resources it serves, writes
// objects (each write gets the next resource version, one counter for the
// whole server, as in etcd), and points a client at it: either in process,
// through Transport (no sockets, so it runs inside a testing/synctest
// bubble), or over a real socket, through Start (an httptest.Server).
//
// What it speaks:
//
//   - LIST with limit and continue (pagination, with a continue token that
//     expires after Compact), resourceVersion "" / "0" / exact, and
//     resourceVersionMatch NotOlderThan / Exact;
//   - WATCH (watch=true) from a resourceVersion, replaying the history after
//     it; a resourceVersion older than the compaction gives an ERROR frame
//     with 410 Expired; watches from "" or "0" start with synthetic ADDED
//     events; allowWatchBookmarks enables Bookmark; timeoutSeconds ends the
//     watch cleanly when it runs out;
//   - WatchList (sendInitialEvents=true): ADDED events for the state, then
//     a BOOKMARK annotated k8s.io/initial-events-end=true, then live events.
//     WithoutWatchList makes the server refuse it with 422, like a server
//     without the feature.
//
// Faults a test can script: FailNext (an HTTP error status for the next
// list or watch), SendError (an ERROR frame that ends every open watch),
// SendRaw (any bytes, malformed frames included), DropWatches (the
// connection breaks mid-stream), EndWatches (a clean close), and Compact.
//
// Every request is reported to Options.OnRequest, so a test can record the
// exact sequence of paths and queries a client sent.
package testserver
