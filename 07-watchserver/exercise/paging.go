// Your copy of ../paging.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"example.com/walkthrough/workshop/todo"
)

// PageOptions are the parts of a LIST that page it: at most Limit objects
// (0: all), starting where the Continue token of the previous page says,
// keeping those Selector selects; at Revision when it is set (an Exact
// read: the list as it was then), else at etcd's current revision.
//
// upstream: k8s.io/apiserver/pkg/storage/interfaces.go (ListOptions)
type PageOptions struct {
	Limit    int64
	Continue string
	Selector Selector
	Revision int64
}

// continueToken is what a list's continue token holds, as kube-apiserver
// writes it: base64url of a small JSON object with the list's revision and
// the key to go on from, relative to the list's key prefix. The client treats it as
// opaque and sends it back; every page of one list is read at the same
// revision, so the pages together are one consistent list.
//
// upstream: k8s.io/apiserver/pkg/storage/continue.go (continueToken,
// EncodeContinue, DecodeContinue).
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
// upstream: k8s.io/apiserver/pkg/storage/etcd3/store.go (store.GetList).
func (s *Storage) listPage(ctx context.Context, namespace string, opts PageOptions) (runtime.Object, error) {
	// Exercise 12: listPage reads one page of namespace from etcd.
	panic(todo.Exercise("07-watchserver", 12, "Storage.listPage"))
}

// encodeContinue writes the continue token of a page that ends before key:
// the key after prefix and the revision the whole list is read at.
func encodeContinue(key, prefix string, rv int64) string {
	// Exercise 12: encodeContinue writes the continue token of a page that ends before key.
	panic(todo.Exercise("07-watchserver", 12, "encodeContinue"))
}

// decodeContinue reads a token back: the key to start from (under prefix)
// and the revision to read at. A token that is not one of ours is a 400.
func decodeContinue(token, prefix string) (key string, rv int64, err error) {
	// Exercise 12: decodeContinue reads a token back: the key to start from (under prefix) and the revision to read at.
	panic(todo.Exercise("07-watchserver", 12, "decodeContinue"))
}

// continueExpired is the 410 for a page whose list's revision etcd has
// compacted away. It carries a token that goes on from the same key at the
// latest revision: the client may take it, knowing the list it builds is
// no longer one consistent snapshot.
func continueExpired(from, prefix string) error {
	// Exercise 12: continueExpired is the 410 for a page whose list's revision etcd has compacted away.
	panic(todo.Exercise("07-watchserver", 12, "continueExpired"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = base64.RawURLEncoding
	_ = json.Marshal
	_ = errors.Is
	_ = fmt.Errorf
	_ = path.Clean
	_ = strings.TrimPrefix
	_ = rpctypes.ErrCompacted
	_ = clientv3.GetPrefixRangeEnd
	_ = apierrors.NewResourceExpired
	_ metav1.ListMeta
)
