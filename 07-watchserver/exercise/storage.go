// Your copy of ../storage.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	clientv3 "go.etcd.io/etcd/client/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"example.com/walkthrough/workshop/todo"
)

// Storage keeps one resource's objects in etcd, under its Prefix. Every write is one etcd transaction
// whose condition is the key's ModRevision, so two writers can never both
// win: the ModRevision is the object's resourceVersion, and a client that
// sends a stale one gets 409 Conflict.
//
// upstream: k8s.io/apiserver/pkg/storage/etcd3/store.go (store), with
// the 409 on a client's stale resourceVersion from
// k8s.io/apiserver/pkg/registry/generic/registry/store.go (Store.Update).
type Storage struct {
	client *clientv3.Client
	// res is the resource stored: its keys, its objects, its name in errors.
	res *Resource
	// now stamps creationTimestamp; tests may fix it.
	now func() time.Time
	// leases are the leases of the writes of a resource with a TTL
	// (ttl.go), shared by every resource's Storage on this client.
	leases *leaseGrants
}

// NewStorage returns the ConfigMaps' Storage over an etcd client; For
// gives another resource's.
func NewStorage(client *clientv3.Client) *Storage {
	return &Storage{client: client, res: ConfigMaps, now: time.Now, leases: &leaseGrants{}}
}

// For is the Storage of res on the same etcd, with the same clock.
func (s *Storage) For(res *Resource) *Storage {
	return &Storage{client: s.client, res: res, now: s.now, leases: s.leases}
}

// Resource is the resource s stores.
func (s *Storage) Resource() *Resource { return s.res }

// Create writes obj if its key is absent (ModRevision 0 means "no such key").
func (s *Storage) Create(ctx context.Context, obj runtime.Object) (runtime.Object, error) {
	// Exercise 1: Create writes obj if its key is absent (ModRevision 0 means "no such key").
	panic(todo.Exercise("07-watchserver", 1, "Storage.Create"))
}

// Get reads one object.
func (s *Storage) Get(ctx context.Context, namespace, name string) (runtime.Object, error) {
	// Exercise 1: Get reads one object.
	panic(todo.Exercise("07-watchserver", 1, "Storage.Get"))
}

// Update replaces an object with obj. A client that sends a
// resourceVersion asks for optimistic concurrency: if the stored object
// moved on, 409. A client that sends none overwrites whatever is there.
// The uid and creationTimestamp are always the stored ones. The read,
// the checks and the write are Storage.update's, which a PATCH calls too.
func (s *Storage) Update(ctx context.Context, obj runtime.Object) (runtime.Object, error) {
	// Exercise 2: Update replaces an object with obj.
	panic(todo.Exercise("07-watchserver", 2, "Storage.Update"))
}

// update is the one read-modify-write of a stored object: it reads it,
// asks tryUpdate for the next state, and writes that with a compare-and-swap
// on the ModRevision it read. Every change goes through it (a PUT's body
// replacing the object, a PATCH applied to it), so the rules live once:
//
//   - the resourceVersion tryUpdate leaves on the next state is the
//     client's precondition: when it is set (not "" or "0") and is not the
//     stored one, 409; a PUT carries the body's, a patch the stored one
//     unless the patch changed it;
//   - a next state whose bytes are the stored ones is no write at all: the
//     same resourceVersion comes back and no watch event is made;
//   - a lost compare-and-swap is another writer landing between our read
//     and our write, not the client's business: read again and call
//     tryUpdate again on the newer object, where a precondition the
//     client set now fails, and a patch is re-applied.
//
// tryUpdate must not change cur: it is the state the write compares with.
//
// upstream: k8s.io/apiserver/pkg/storage/etcd3/store.go (store.GuaranteedUpdate),
// which may start from the watch cache's copy and re-reads only when the
// swap fails; ours reads etcd on every attempt.
func (s *Storage) update(ctx context.Context, namespace, name string, tryUpdate func(cur runtime.Object) (runtime.Object, error)) (runtime.Object, error) {
	// Exercise 2: update is the one read-modify-write of a stored object.
	panic(todo.Exercise("07-watchserver", 2, "Storage.update"))
}

// conflictMessage is the second half of kube-apiserver's 409 text.
const conflictMessage = "the object has been modified; please apply your changes to the latest version and try again"

// Delete removes an object and returns the last stored state, whose
// resourceVersion is the revision of the delete itself.
func (s *Storage) Delete(ctx context.Context, namespace, name string) (runtime.Object, error) {
	// Exercise 2: Delete removes an object and returns the last stored state.
	panic(todo.Exercise("07-watchserver", 2, "Storage.Delete"))
}

// List reads namespace ("" for all) at one revision, every object the
// selector selects, or one page of them when opts asks for pages
// (listPage). The list's resourceVersion is that revision (the response
// header's), not the largest ModRevision among the items: a watch from it
// must not miss a write to some other key that landed in between.
//
// upstream: k8s.io/apiserver/pkg/storage/etcd3/store.go (store.GetList).
//
// The list is the resource's list type (NewList); ListMeta reads its
// version, continue token and count, and its Items are set with
// meta.SetList.
func (s *Storage) List(ctx context.Context, namespace string, opts PageOptions) (runtime.Object, error) {
	if opts.Limit > 0 || opts.Continue != "" || opts.Revision > 0 {
		return s.listPage(ctx, namespace, opts)
	}
	// Exercise 2: List reads namespace ("" for all) at one revision, every object the selector selects.
	panic(todo.Exercise("07-watchserver", 2, "Storage.List"))
}

// Compact drops etcd's history up to the current revision and returns it.
// kube-apiserver compacts every 5 minutes; our tests call this instead.
func (s *Storage) Compact(ctx context.Context) (int64, error) {
	// Exercise 3: Compact drops etcd's history up to the current revision and returns it.
	panic(todo.Exercise("07-watchserver", 3, "Storage.Compact"))
}

// CurrentRevision is etcd's revision now: what a consistent read must see.
func (s *Storage) CurrentRevision(ctx context.Context) (int64, error) {
	// Exercise 2: CurrentRevision is etcd's revision now: what a consistent read must see.
	panic(todo.Exercise("07-watchserver", 2, "Storage.CurrentRevision"))
}

// newList is res's list of items with meta: ListMeta's fields (version,
// continue token, count of what is left) and the items, through meta's
// accessors, whatever the list's type.
func newList(res *Resource, items []runtime.Object, lm metav1.ListMeta) (runtime.Object, error) {
	list := res.NewList()
	if err := meta.SetList(list, items); err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	la, err := meta.ListAccessor(list)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	la.SetResourceVersion(lm.ResourceVersion)
	la.SetContinue(lm.Continue)
	la.SetRemainingItemCount(lm.RemainingItemCount)
	return list, nil
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = bytes.Equal
	_ = errors.New
	_ = fmt.Errorf
	_ = strconv.FormatInt
	_ = uuid.NewString
	_ schema.GroupKind
	_ types.UID
	_ = field.Invalid
)
