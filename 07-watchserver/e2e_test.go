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

	real, err := clientv3.New(clientv3.Config{Endpoints: []string{etcdURL}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer real.Close()
	resp, err := real.Get(ctx, ws.ConfigMaps.Key(ns, "stored"))
	if err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("kube-apiserver's key %s: %v (%d keys)", ws.ConfigMaps.Key(ns, "stored"), err, len(resp.Kvs))
	}
	value := resp.Kvs[0].Value
	if !bytes.HasPrefix(value, []byte("k8s\x00")) {
		t.Fatalf("kube-apiserver stored %q..., not the k8s\\x00 protobuf envelope", value[:min(16, len(value))])
	}
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
