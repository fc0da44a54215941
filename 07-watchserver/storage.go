package watchserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// configMaps is the resource every error message names.
var configMaps = schema.GroupResource{Resource: "configmaps"}

// Prefix is where ConfigMaps live in etcd, as in kube-apiserver:
// /registry/configmaps/<namespace>/<name>.
const Prefix = "/registry/configmaps/"

// Storage keeps ConfigMaps in etcd. Every write is one etcd transaction
// whose condition is the key's ModRevision, so two writers can never both
// win: the ModRevision is the object's resourceVersion, and a client that
// sends a stale one gets 409 Conflict.
//
// upstream: k8s.io/apiserver/pkg/storage/etcd3/store.go (store), with
// the 409 on a client's stale resourceVersion from
// k8s.io/apiserver/pkg/registry/generic/registry/store.go (Store.Update).
type Storage struct {
	client *clientv3.Client
	// now stamps creationTimestamp; tests may fix it.
	now func() time.Time
}

// NewStorage returns a Storage over an etcd client.
func NewStorage(client *clientv3.Client) *Storage {
	return &Storage{client: client, now: time.Now}
}

// Key is the etcd key of one ConfigMap.
func Key(namespace, name string) string { return Prefix + namespace + "/" + name }

// keyPrefix is the range of keys a list or watch of namespace reads. The
// trailing "/" keeps namespace "a" from matching namespace "ab"; an empty
// namespace means every namespace.
func keyPrefix(namespace string) string {
	if namespace == "" {
		return Prefix
	}
	return Prefix + namespace + "/"
}

// Create writes cm if its key is absent (ModRevision 0 means "no such key").
func (s *Storage) Create(ctx context.Context, cm *corev1.ConfigMap) (*corev1.ConfigMap, error) {
	// exercise:begin 1
	if cm.ResourceVersion != "" {
		return nil, errors.New("resourceVersion should not be set on objects to be created")
	}
	c := cm.DeepCopy()
	c.UID = types.UID(uuid.NewString())
	c.CreationTimestamp = metav1.NewTime(s.now().Truncate(time.Second))
	value, err := encodeStored(c)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	key := Key(c.Namespace, c.Name)
	resp, err := s.client.Txn(ctx).
		If(clientv3.Compare(clientv3.ModRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, string(value))).
		Commit()
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if !resp.Succeeded {
		return nil, apierrors.NewAlreadyExists(configMaps, c.Name)
	}
	c.ResourceVersion = strconv.FormatInt(resp.Header.Revision, 10)
	return c, nil
	// exercise:end 1
}

// Get reads one ConfigMap.
func (s *Storage) Get(ctx context.Context, namespace, name string) (*corev1.ConfigMap, error) {
	// exercise:begin 1
	resp, err := s.client.Get(ctx, Key(namespace, name))
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if len(resp.Kvs) == 0 {
		return nil, apierrors.NewNotFound(configMaps, name)
	}
	kv := resp.Kvs[0]
	cm, err := decodeStored(kv.Value, kv.ModRevision)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	return cm, nil
	// exercise:end 1
}

// Update replaces a ConfigMap with cm. A client that sends a
// resourceVersion asks for optimistic concurrency: if the stored object
// moved on, 409. A client that sends none overwrites whatever is there.
// The uid and creationTimestamp are always the stored ones. The read,
// the checks and the write are Storage.update's, which a PATCH calls too.
func (s *Storage) Update(ctx context.Context, cm *corev1.ConfigMap) (*corev1.ConfigMap, error) {
	// exercise:begin 2
	return s.update(ctx, cm.Namespace, cm.Name, func(cur *corev1.ConfigMap) (*corev1.ConfigMap, error) {
		next := cm.DeepCopy()
		next.UID, next.CreationTimestamp = cur.UID, cur.CreationTimestamp
		return next, nil
	})
	// exercise:end 2
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
func (s *Storage) update(ctx context.Context, namespace, name string, tryUpdate func(cur *corev1.ConfigMap) (*corev1.ConfigMap, error)) (*corev1.ConfigMap, error) {
	// exercise:begin 2
	key := Key(namespace, name)
	for {
		cur, err := s.Get(ctx, namespace, name)
		if err != nil {
			return nil, err // 404: an update never creates
		}
		next, err := tryUpdate(cur)
		if err != nil {
			return nil, err
		}
		// The client's version, 0 when it gives none: "0" sets no
		// precondition either, as kube-apiserver's registry reads it.
		var want uint64
		if next.ResourceVersion != "" {
			if want, err = strconv.ParseUint(next.ResourceVersion, 10, 64); err != nil {
				return nil, err
			}
		}
		if want != 0 && strconv.FormatUint(want, 10) != cur.ResourceVersion {
			return nil, apierrors.NewConflict(configMaps, name, errors.New(conflictMessage))
		}
		value, err := encodeStored(next)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		old, _ := encodeStored(cur)
		if bytes.Equal(old, value) {
			return cur, nil
		}
		rev, _ := strconv.ParseInt(cur.ResourceVersion, 10, 64)
		resp, err := s.client.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).
			Then(clientv3.OpPut(key, string(value))).
			Commit()
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		if resp.Succeeded {
			next.ResourceVersion = strconv.FormatInt(resp.Header.Revision, 10)
			return next, nil
		}
	}
	// exercise:end 2
}

// conflictMessage is the second half of kube-apiserver's 409 text.
const conflictMessage = "the object has been modified; please apply your changes to the latest version and try again"

// Delete removes a ConfigMap and returns the last stored state, whose
// resourceVersion is the revision of the delete itself.
func (s *Storage) Delete(ctx context.Context, namespace, name string) (*corev1.ConfigMap, error) {
	// exercise:begin 2
	key := Key(namespace, name)
	for {
		cur, err := s.Get(ctx, namespace, name)
		if err != nil {
			return nil, err
		}
		rev, _ := strconv.ParseInt(cur.ResourceVersion, 10, 64)
		resp, err := s.client.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).
			Then(clientv3.OpDelete(key)).
			Commit()
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		if resp.Succeeded {
			cur.ResourceVersion = strconv.FormatInt(resp.Header.Revision, 10)
			return cur, nil
		}
	}
	// exercise:end 2
}

// List reads namespace ("" for all) at one revision, every object the
// selector selects, or one page of them when opts asks for pages
// (listPage). The list's resourceVersion is that revision (the response
// header's), not the largest ModRevision among the items: a watch from it
// must not miss a write to some other key that landed in between.
//
// upstream: k8s.io/apiserver/pkg/storage/etcd3/store.go (store.GetList).
func (s *Storage) List(ctx context.Context, namespace string, opts PageOptions) (*corev1.ConfigMapList, error) {
	if opts.Limit > 0 || opts.Continue != "" || opts.Revision > 0 {
		return s.listPage(ctx, namespace, opts)
	}
	// exercise:begin 2
	resp, err := s.client.Get(ctx, keyPrefix(namespace), clientv3.WithPrefix())
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	list := &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.FormatInt(resp.Header.Revision, 10)}}
	for _, kv := range resp.Kvs {
		cm, err := decodeStored(kv.Value, kv.ModRevision)
		if err != nil {
			return nil, apierrors.NewInternalError(fmt.Errorf("key %s: %w", kv.Key, err))
		}
		if opts.Selector.Matches(cm) {
			list.Items = append(list.Items, *cm)
		}
	}
	return list, nil
	// exercise:end 2
}

// Compact drops etcd's history up to the current revision and returns it.
// kube-apiserver compacts every 5 minutes; our tests call this instead.
func (s *Storage) Compact(ctx context.Context) (int64, error) {
	// exercise:begin 3
	resp, err := s.client.Get(ctx, "compact-probe")
	if err != nil {
		return 0, err
	}
	rev := resp.Header.Revision
	if _, err := s.client.Compact(ctx, rev, clientv3.WithCompactPhysical()); err != nil {
		return 0, err
	}
	return rev, nil
	// exercise:end 3
}

// splitKey is the inverse of Key.
func splitKey(key string) (namespace, name string, ok bool) {
	rest, found := strings.CutPrefix(key, Prefix)
	if !found {
		return "", "", false
	}
	namespace, name, ok = strings.Cut(rest, "/")
	return namespace, name, ok
}

// CurrentRevision is etcd's revision now: what a consistent read must see.
func (s *Storage) CurrentRevision(ctx context.Context) (int64, error) {
	// exercise:begin 2
	resp, err := s.client.Get(ctx, Prefix, clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		return 0, apierrors.NewInternalError(err)
	}
	return resp.Header.Revision, nil
	// exercise:end 2
}
