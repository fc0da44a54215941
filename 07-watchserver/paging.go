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
	// exercise:begin 12 Pages: limit, continue and one revision for the whole list
	// exercise:hint Start at s.res.keyPrefix(namespace) at opts.Revision (0: the current one), or
	//   at the key (under that prefix) and revision decodeContinue reads from the token. Get the
	//   range up to the prefix's end, WithLimit when there is a limit and WithRev when there is a
	//   revision; the first page's revision is the response header's. Decode each value, keep it
	//   if the selector matches; once the page is full, stop, and if keys remain, set Continue
	//   (encodeContinue of the last key + "\x00") and, with no selector, RemainingItemCount
	//   (resp.Count less the keys used of this response). newList makes the list of the items.
	// exercise:deeper With a selector a batch can match fewer than Limit objects: read the next
	//   batch from the last key + "\x00" while resp.More. A compacted revision
	//   (rpctypes.ErrCompacted) is a 410: with a token, continueExpired hands a new token at
	//   latestRV; without one, a plain 410. Any other etcd error is a 500.
	// exercise:deeper A bad token is apierrors.NewBadRequest("invalid continue token: continue key
	//   is not valid: " + why), why being the decode error, fmt.Sprintf("continue key APIVersion %q
	//   is not supported", v), "incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
	//   "encoded start key empty (version meta.k8s.io/v1)" or the unclean start key. The plain 410
	//   is apierrors.NewResourceExpired("The resourceVersion for the provided list is too old.");
	//   continueExpired's is kube-apiserver's (handleCompactedErrorForPaging): "The provided
	//   continue parameter is too old to display a consistent list result. You can start a new list
	//   without the continue parameter, or use the continue token in this response to retrieve the
	//   remainder of the results. Continuing with the provided token results in an inconsistent
	//   list - objects that were created, modified, or deleted between the time the first chunk was
	//   returned and now may show up in the list."
	prefix := s.res.keyPrefix(namespace)
	from, rev := prefix, opts.Revision
	if opts.Continue != "" {
		var err error
		if from, rev, err = decodeContinue(opts.Continue, prefix); err != nil {
			return nil, err
		}
		if rev == latestRV {
			rev = 0
		}
	}
	var items []runtime.Object
	var lm metav1.ListMeta
	if rev > 0 {
		lm.ResourceVersion = formatRV(rev)
	}
	end := clientv3.GetPrefixRangeEnd(prefix)
	for {
		ops := []clientv3.OpOption{clientv3.WithRange(end)}
		if opts.Limit > 0 {
			ops = append(ops, clientv3.WithLimit(opts.Limit))
		}
		if rev > 0 {
			ops = append(ops, clientv3.WithRev(rev))
		}
		resp, err := s.client.Get(ctx, from, ops...)
		if errors.Is(err, rpctypes.ErrCompacted) {
			if opts.Continue != "" {
				return nil, continueExpired(from, prefix)
			}
			return nil, apierrors.NewResourceExpired("The resourceVersion for the provided list is too old.")
		}
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		if rev == 0 {
			rev = resp.Header.Revision
			lm.ResourceVersion = formatRV(rev)
		}
		for i, kv := range resp.Kvs {
			obj, err := decodeStored(s.res, kv.Value, kv.ModRevision)
			if err != nil {
				return nil, apierrors.NewInternalError(fmt.Errorf("key %s: %w", kv.Key, err))
			}
			if opts.Selector.Matches(obj) {
				items = append(items, obj)
			}
			if opts.Limit > 0 && int64(len(items)) == opts.Limit {
				if i < len(resp.Kvs)-1 || resp.More {
					lm.Continue = encodeContinue(string(kv.Key)+"\x00", prefix, rev)
					if opts.Selector.Empty() {
						left := resp.Count - int64(i+1)
						lm.RemainingItemCount = &left
					}
				}
				return newList(s.res, items, lm)
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			break
		}
		from = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
	return newList(s.res, items, lm)
	// exercise:end 12
}

// encodeContinue writes the continue token of a page that ends before key:
// the key after prefix and the revision the whole list is read at.
func encodeContinue(key, prefix string, rv int64) string {
	// exercise:begin 12
	b, _ := json.Marshal(continueToken{APIVersion: "meta.k8s.io/v1", RV: rv, Start: strings.TrimPrefix(key, prefix)})
	return base64.RawURLEncoding.EncodeToString(b)
	// exercise:end 12
}

// decodeContinue reads a token back: the key to start from (under prefix)
// and the revision to read at. A token that is not one of ours is a 400.
func decodeContinue(token, prefix string) (key string, rv int64, err error) {
	// exercise:begin 12
	invalid := func(why string) error {
		return apierrors.NewBadRequest("invalid continue token: continue key is not valid: " + why)
	}
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return "", 0, invalid(err.Error())
	}
	var c continueToken
	if err := json.Unmarshal(b, &c); err != nil {
		return "", 0, invalid(err.Error())
	}
	switch {
	case c.APIVersion != "meta.k8s.io/v1":
		return "", 0, invalid(fmt.Sprintf("continue key APIVersion %q is not supported", c.APIVersion))
	case c.RV == 0:
		return "", 0, invalid("incorrect encoded start resourceVersion (version meta.k8s.io/v1)")
	case c.Start == "":
		return "", 0, invalid("encoded start key empty (version meta.k8s.io/v1)")
	}
	// path.Clean keeps a client from walking out of the list's keys with
	// "../": the start key, rooted, must already be clean.
	rooted := "/" + strings.TrimPrefix(c.Start, "/")
	if path.Clean(rooted) != rooted {
		return "", 0, invalid(c.Start)
	}
	return prefix + rooted[1:], c.RV, nil
	// exercise:end 12
}

// continueExpired is the 410 for a page whose list's revision etcd has
// compacted away. It carries a token that goes on from the same key at the
// latest revision: the client may take it, knowing the list it builds is
// no longer one consistent snapshot.
func continueExpired(from, prefix string) error {
	// exercise:begin 12
	err := apierrors.NewResourceExpired("The provided continue parameter is too old to display a consistent list result. " +
		"You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. " +
		"Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.")
	err.ErrStatus.ListMeta = metav1.ListMeta{Continue: encodeContinue(from, prefix, latestRV)}
	return err
	// exercise:end 12
}
