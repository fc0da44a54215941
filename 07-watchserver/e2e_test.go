//go:build !walkthrough_standin

// The end-to-end tests need a real cluster and never judge an exercise
// copy: a check builds without them (the tag walkthrough_standin), which
// keeps client-go's clientsets out of its binary and its link short.

package watchserver_test

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"

	ws "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/cluster"
)

// TestE2EReadsWhatKubeAPIServerStored reads the etcd key kube-apiserver
// wrote for a ConfigMap: the value is protobuf in the "k8s\x00" envelope,
// with no resourceVersion inside (the key's ModRevision is the version).
// Put into our etcd under the same key, our Storage reads it back as the
// same object: the chapter's codec speaks kube-apiserver's storage format.
func TestE2EReadsWhatKubeAPIServerStored(t *testing.T) {
	cfg := cluster.Require(t)
	etcdURL := cluster.RequireEtcd(t)
	cs := kubernetes.NewForConfigOrDie(cfg)
	ns := cluster.Namespace(t, cs.CoreV1())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	created, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "stored", Labels: map[string]string{"app": "web"}},
		Data:       map[string]string{"k": "1"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	value := storedByKubeAPIServer(ctx, t, etcdURL, ws.ConfigMaps.Key(ns, "stored"))
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(value, nil, nil)
	if err != nil {
		t.Fatalf("apimachinery cannot decode the stored value: %v", err)
	}
	if stored := obj.(*corev1.ConfigMap); stored.ResourceVersion != "" || stored.Data["k"] != "1" {
		t.Fatalf("stored object: want data k=1 and no resourceVersion, got %+v", stored)
	}

	ours := startEtcd(t)
	put, err := ours.Client.Put(ctx, ws.ConfigMaps.Key(ns, "stored"), string(value))
	if err != nil {
		t.Fatal(err)
	}
	got, err := cmOf(ws.NewStorage(ours.Client).Get(ctx, ns, "stored"))
	if err != nil {
		t.Fatalf("our Storage cannot read kube-apiserver's value: %v", err)
	}
	if got.Name != "stored" || got.UID != created.UID || got.Labels["app"] != "web" || got.Data["k"] != "1" {
		t.Fatalf("our Storage read %+v, want the object kube-apiserver created (uid %s)", got, created.UID)
	}
	if want := put.Header.Revision; got.ResourceVersion != strconv.FormatInt(want, 10) {
		t.Fatalf("resourceVersion: got %s, want our key's ModRevision %d", got.ResourceVersion, want)
	}
	t.Logf("kube-apiserver's value: %d bytes, k8s\\x00 envelope; read back by ours as %s/%s at rv %s", len(value), ns, got.Name, got.ResourceVersion)
}

// TestE2EReadsTheLeaseKubeAPIServerStored is the same for a Lease, the
// second resource: kube-apiserver keys it /registry/leases/<ns>/<name>
// (no group in the key) and stores it as protobuf in the same envelope;
// our Storage of Leases reads the bytes back as the Lease it created, and
// writes the same bytes for it (up to the managedFields kube-apiserver
// adds and ours does not keep).
func TestE2EReadsTheLeaseKubeAPIServerStored(t *testing.T) {
	cfg := cluster.Require(t)
	etcdURL := cluster.RequireEtcd(t)
	cs := kubernetes.NewForConfigOrDie(cfg)
	ns := cluster.Namespace(t, cs.CoreV1())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	holder := "me"
	created, err := cs.CoordinationV1().Leases(ns).Create(ctx, &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: "stored"},
		Spec:       coordinationv1.LeaseSpec{HolderIdentity: &holder},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	key := ws.Leases.Key(ns, "stored")
	if key != "/registry/leases/"+ns+"/stored" {
		t.Fatalf("our key for a Lease: %s", key)
	}
	value := storedByKubeAPIServer(ctx, t, etcdURL, key)
	ours := startEtcd(t)
	put, err := ours.Client.Put(ctx, key, string(value))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ws.NewStorage(ours.Client).For(ws.Leases).Get(ctx, ns, "stored")
	if err != nil {
		t.Fatalf("our Storage of Leases cannot read kube-apiserver's value: %v", err)
	}
	l, ok := got.(*coordinationv1.Lease)
	if !ok || l.UID != created.UID || l.Spec.HolderIdentity == nil || *l.Spec.HolderIdentity != holder ||
		l.ResourceVersion != strconv.FormatInt(put.Header.Revision, 10) {
		t.Fatalf("our Storage read %+v, want the Lease kube-apiserver created (uid %s) at rv %d", got, created.UID, put.Header.Revision)
	}
	t.Logf("kube-apiserver's Lease: %d bytes under %s, k8s\\x00 envelope; read back by ours", len(value), key)
}

// storedByKubeAPIServer reads key from kube-apiserver's etcd: one value,
// protobuf in the k8s\x00 envelope.
func storedByKubeAPIServer(ctx context.Context, t *testing.T, etcdURL, key string) []byte {
	t.Helper()
	real, err := clientv3.New(clientv3.Config{Endpoints: []string{etcdURL}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer real.Close()
	resp, err := real.Get(ctx, key)
	if err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("kube-apiserver's key %s: %v (%d keys)", key, err, len(resp.Kvs))
	}
	value := resp.Kvs[0].Value
	if !bytes.HasPrefix(value, []byte("k8s\x00")) {
		t.Fatalf("kube-apiserver stored %q..., not the k8s\\x00 protobuf envelope", value[:min(16, len(value))])
	}
	return value
}
