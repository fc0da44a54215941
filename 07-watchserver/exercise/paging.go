// Your copy of ../paging.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=07` checks your work.

package watchserver

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	"example.com/walkthrough/workshop/todo"
)

// PageOptions are the parts of a LIST that page it: at most Limit objects
// (0: all), starting where the Continue token of the previous page says,
// keeping those Selector selects.
type PageOptions struct {
	Limit    int64
	Continue string
	Selector Selector
}

// continueToken is what a list's continue token holds, as kube-apiserver
// writes it: base64url of a small JSON object with the list's revision and
// the key to go on from, relative to the list's key prefix. The client treats it as
// opaque and sends it back; every page of one list is read at the same
// revision, so the pages together are one consistent list.
//
// kube-apiserver: k8s.io/apiserver/pkg/storage/continue.go.
type continueToken struct {
	APIVersion string `json:"v"`
	RV         int64  `json:"rv"`
	Start      string `json:"start"`
}

// latestRV in a continue token means "go on at the current revision": the
// token a 410 hands out when the list's own revision was compacted.
const latestRV = -1

// listPage reads one page of namespace from etcd: up to Limit objects,
// with a continue token and (without a selector) the number of objects
// left when there are more. A first page is read at etcd's current
// revision, every next page at the revision in its token. With a
// selector, etcd is read in batches of Limit until the page is full or the
// range ends.
//
// kube-apiserver: k8s.io/apiserver/pkg/storage/etcd3/store.go (GetList).
func (s *Storage) listPage(ctx context.Context, namespace string, opts PageOptions) (*corev1.ConfigMapList, error) {
	// Exercise 12: Pages: limit, continue and one revision for the whole list.
	// Hint: Start at keyPrefix(namespace), or at the key (under that prefix) and revision decodeContinue reads from the token. Get the range up to the prefix's end, WithLimit when there is a limit and WithRev when there is a revision; the first page's revision is the response header's. Decode each value, keep it if the selector matches; once the page is full, stop, and if keys remain, set Continue (encodeContinue of the last key + "\x00") and, with no selector, RemainingItemCount (resp.Count less the keys used of this response).
	panic(todo.Exercise("07-watchserver", 12, "Start at keyPrefix(namespace), or at the key (under that prefix) and revision decodeContinue reads from the token. Get the range up to the prefix's end, WithLimit when there is a limit and WithRev when there is a revision; the first page's revision is the response header's. Decode each value, keep it if the selector matches; once the page is full, stop, and if keys remain, set Continue (encodeContinue of the last key + \"\\x00\") and, with no selector, RemainingItemCount (resp.Count less the keys used of this response)."))
}

func encodeContinue(key, prefix string, rv int64) string {
	// Exercise 12, continued.
	// Hint: Start at keyPrefix(namespace), or at the key (under that prefix) and revision decodeContinue reads from the token. Get the range up to the prefix's end, WithLimit when there is a limit and WithRev when there is a revision; the first page's revision is the response header's. Decode each value, keep it if the selector matches; once the page is full, stop, and if keys remain, set Continue (encodeContinue of the last key + "\x00") and, with no selector, RemainingItemCount (resp.Count less the keys used of this response).
	panic(todo.Exercise("07-watchserver", 12, "Start at keyPrefix(namespace), or at the key (under that prefix) and revision decodeContinue reads from the token. Get the range up to the prefix's end, WithLimit when there is a limit and WithRev when there is a revision; the first page's revision is the response header's. Decode each value, keep it if the selector matches; once the page is full, stop, and if keys remain, set Continue (encodeContinue of the last key + \"\\x00\") and, with no selector, RemainingItemCount (resp.Count less the keys used of this response)."))
}

// decodeContinue reads a token back: the key to start from (under prefix)
// and the revision to read at. A token that is not one of ours is a 400.
func decodeContinue(token, prefix string) (key string, rv int64, err error) {
	// Exercise 12, continued.
	// Hint: Start at keyPrefix(namespace), or at the key (under that prefix) and revision decodeContinue reads from the token. Get the range up to the prefix's end, WithLimit when there is a limit and WithRev when there is a revision; the first page's revision is the response header's. Decode each value, keep it if the selector matches; once the page is full, stop, and if keys remain, set Continue (encodeContinue of the last key + "\x00") and, with no selector, RemainingItemCount (resp.Count less the keys used of this response).
	panic(todo.Exercise("07-watchserver", 12, "Start at keyPrefix(namespace), or at the key (under that prefix) and revision decodeContinue reads from the token. Get the range up to the prefix's end, WithLimit when there is a limit and WithRev when there is a revision; the first page's revision is the response header's. Decode each value, keep it if the selector matches; once the page is full, stop, and if keys remain, set Continue (encodeContinue of the last key + \"\\x00\") and, with no selector, RemainingItemCount (resp.Count less the keys used of this response)."))
}

// continueExpired is the 410 for a page whose list's revision etcd has
// compacted away. It carries a token that goes on from the same key at the
// latest revision: the client may take it, knowing the list it builds is
// no longer one consistent snapshot.
func continueExpired(from, prefix string) error {
	// Exercise 12, continued.
	// Hint: Start at keyPrefix(namespace), or at the key (under that prefix) and revision decodeContinue reads from the token. Get the range up to the prefix's end, WithLimit when there is a limit and WithRev when there is a revision; the first page's revision is the response header's. Decode each value, keep it if the selector matches; once the page is full, stop, and if keys remain, set Continue (encodeContinue of the last key + "\x00") and, with no selector, RemainingItemCount (resp.Count less the keys used of this response).
	panic(todo.Exercise("07-watchserver", 12, "Start at keyPrefix(namespace), or at the key (under that prefix) and revision decodeContinue reads from the token. Get the range up to the prefix's end, WithLimit when there is a limit and WithRev when there is a revision; the first page's revision is the response header's. Decode each value, keep it if the selector matches; once the page is full, stop, and if keys remain, set Continue (encodeContinue of the last key + \"\\x00\") and, with no selector, RemainingItemCount (resp.Count less the keys used of this response)."))
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
