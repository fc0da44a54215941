// Your copy of ../doc.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 03`
// checks your work, and `go run ./workshop/cmd/workshop hint 03 N` gives
// exercise N's hint.

// Package indexer is chapter 03 of the client-go walkthrough: the local
// cache every informer reads from.
//
// An informer keeps a copy of the objects it watches so that controllers
// can read them without asking the API server. That copy is an Indexer: a
// map from a key ("namespace/name") to the latest object, plus any number
// of secondary indexes ("which pods run on node n1?") kept up to date on
// every write.
//
// Read the files in this order:
//
//	keys.go     how an object becomes a key, and a key becomes a namespace and a name
//	index.go    index functions and the indexes they build, and how an update moves entries
//	store.go    the thread-safe store: one lock around the items and their indexes
//	indexer.go  the Indexer: the store seen through a key function
//	lister.go   typed, read-only access to the cache by namespace and label
//
// Everything here mirrors k8s.io/client-go/tools/cache; each type's comment
// names its counterpart. The chapter's scenarios (testdata/scenarios) were
// recorded from client-go v0.37.2, and the same files check this code.
package indexer
