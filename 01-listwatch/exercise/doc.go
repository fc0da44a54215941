// Your copy of ../doc.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 01`
// checks your work, and `go run ./workshop/cmd/workshop hint 01 N` gives
// exercise N's hint.

// Package listwatch is chapter 01 of the client-go walkthrough: the
// List-Watch protocol on the wire, and the Reflector that turns it into a
// local copy of the server's objects.
//
// An informer's cache starts at the API server. A LIST, page by page,
// gives every object and the resource version the list was read at. A
// WATCH from that resource version then streams every change after it,
// one JSON frame per event, over a single long HTTP response. The
// Reflector runs that loop for ever: list, replace the store, watch,
// apply each event, and when the server says the version is too old
// (410 Gone), list again. Since Kubernetes 1.35 client-go first tries a
// streaming list instead (WatchList): one watch that starts with the
// whole state and a bookmark that marks its end.
//
// Read the files in this order:
//
//	frames.go     a watch stream, decoded one {"type","object"} frame at a time
//	objects.go    how a frame's object becomes a typed object or an Unstructured
//	client.go     a ListerWatcher on plain net/http: the query, the errors, the stream
//	pager.go      a full LIST, page by page, with limit and continue
//	backoff.go    how long to wait after a failure: 800ms doubling to 30s, with jitter
//	reflector.go  the Reflector: its options, its run loop, the LIST half
//	watch.go      the WATCH half: events into the store, and how a watch ends
//	watchlist.go  the streaming list: initial events, then the end bookmark
//
// This chapter imports chapter 03 (03-indexer) although it comes first:
// the streaming list gathers its initial events in a temporary Store before
// it replaces the real one, and NewStoreAndReflector hands back a Store to
// fill, as client-go's Reflector uses the Store beside it in tools/cache
// (NewStore, NewNamespaceKeyedIndexerAndReflector). Only Store's methods
// matter here; chapter 03 tells what is inside.
//
// The package testserver is an in-process API server that speaks this
// protocol from a scripted history; the chapter's tests run our code and
// client-go's against it. Everything here mirrors k8s.io/client-go; each
// type's comment names its counterpart. The chapter's scenarios
// (testdata/scenarios) were recorded from client-go v0.37.2, and the same
// files check this code.
package listwatch
