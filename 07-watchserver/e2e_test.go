//go:build !walkthrough_standin

// The end-to-end tests need a real cluster and never judge an exercise
// copy: a check builds without them (the tag walkthrough_standin), which
// keeps client-go's clientsets out of its binary and its link short.

package watchserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"

	ws "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/cluster"
)

// TestE2EReadsWhatKubeAPIServerStored reads the etcd key kube-apiserver
// wrote for a ConfigMap: the value is protobuf in the "k8s\x00" envelope,
// with no resourceVersion inside (the key's ModRevision is the version).
// Put into our etcd under the same key, our Storage reads it back as the
// same object: the chapter's codec speaks kube-apiserver's storage format.
func TestE2EReadsWhatKubeAPIServerStored(t *testing.T) {
	ctx, _, cs, etcdURL, ns := onKubeAPIServer(t)
	created, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "stored", Labels: map[string]string{"app": "web"}},
		Data:       map[string]string{"k": "1"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	obj, rev, value := ourStorageReads(ctx, t, etcdURL, ws.ConfigMaps, ns, "stored")
	stored, _, err := scheme.Codecs.UniversalDeserializer().Decode(value, nil, nil)
	if err != nil {
		t.Fatalf("apimachinery cannot decode the stored value: %v", err)
	}
	if stored := stored.(*corev1.ConfigMap); stored.ResourceVersion != "" || stored.Data["k"] != "1" {
		t.Fatalf("stored object: want data k=1 and no resourceVersion, got %+v", stored)
	}
	got := asCM(obj)
	if got.Name != "stored" || got.UID != created.UID || got.Labels["app"] != "web" || got.Data["k"] != "1" {
		t.Fatalf("our Storage read %+v, want the object kube-apiserver created (uid %s)", got, created.UID)
	}
	if got.ResourceVersion != strconv.FormatInt(rev, 10) {
		t.Fatalf("resourceVersion: got %s, want our key's ModRevision %d", got.ResourceVersion, rev)
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
	ctx, _, cs, etcdURL, ns := onKubeAPIServer(t)
	holder := "me"
	created, err := cs.CoordinationV1().Leases(ns).Create(ctx, &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: "stored"},
		Spec:       coordinationv1.LeaseSpec{HolderIdentity: &holder},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, rev, value := ourStorageReads(ctx, t, etcdURL, ws.Leases, ns, "stored")
	l, ok := got.(*coordinationv1.Lease)
	if !ok || l.UID != created.UID || l.Spec.HolderIdentity == nil || *l.Spec.HolderIdentity != holder ||
		l.ResourceVersion != strconv.FormatInt(rev, 10) {
		t.Fatalf("our Storage read %+v, want the Lease kube-apiserver created (uid %s) at rv %d", got, created.UID, rev)
	}
	t.Logf("kube-apiserver's Lease: %d bytes under %s, k8s\\x00 envelope; read back by ours", len(value), ws.Leases.Key(ns, "stored"))
}

// onKubeAPIServer is what a test of kube-apiserver's stored bytes needs of
// the local control plane (skipped without one): its config and a client,
// its etcd's URL, a namespace of the test's own, and a minute to do it in.
func onKubeAPIServer(t *testing.T) (ctx context.Context, cfg *rest.Config, cs kubernetes.Interface, etcdURL, ns string) {
	cfg = cluster.Require(t)
	etcdURL = cluster.RequireEtcd(t)
	cs = kubernetes.NewForConfigOrDie(cfg)
	ns = cluster.Namespace(t, cs.CoreV1())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx, cfg, cs, etcdURL, ns
}

// ourStorageReads copies the bytes kube-apiserver stored for the object
// ns/name of res into an etcd of our own, at the key ours uses (which
// must be kube-apiserver's, /registry/<resource>/<ns>/<name>), and reads
// them through our Storage: the object, the revision they were put at,
// and the bytes.
func ourStorageReads(ctx context.Context, t *testing.T, etcdURL string, res *ws.Resource, ns, name string) (runtime.Object, int64, []byte) {
	t.Helper()
	key := res.Key(ns, name)
	if want := "/registry/" + res.Name + "/" + ns + "/" + name; key != want {
		t.Fatalf("our key for a %s: %s, want %s", res.Kind, key, want)
	}
	value := storedByKubeAPIServer(ctx, t, etcdURL, key)
	ours := startEtcd(t)
	put, err := ours.Client.Put(ctx, key, string(value))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ws.NewStorage(ours.Client).For(res).Get(ctx, ns, name)
	if err != nil {
		t.Fatalf("our Storage of %s cannot read kube-apiserver's value: %v", res.Name, err)
	}
	return got, put.Header.Revision, value
}

// TestE2EReadsTheDeploymentKubeAPIServerStored is the same for a
// Deployment, keyed /registry/deployments/<ns>/<name>, and checks our
// strategy and defaults against kube-apiserver's: the same manifest (with
// a status it must drop, and none of the fields apps/v1 defaults) created
// on both comes back with the same spec, generation 1 and no status.
func TestE2EReadsTheDeploymentKubeAPIServerStored(t *testing.T) {
	ctx, _, cs, etcdURL, ns := onKubeAPIServer(t)
	theirs, err := cs.AppsV1().Deployments(ns).Create(ctx, newDeployment("stored"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, ws.CacheOptions{})
	mine, err := s.cs.AppsV1().Deployments(ns).Create(ctx, newDeployment("stored"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !apiequality.Semantic.DeepEqual(theirs.Spec, mine.Spec) || theirs.Generation != mine.Generation ||
		!apiequality.Semantic.DeepEqual(theirs.Status, mine.Status) {
		t.Errorf("the same manifest created on both:\nkube-apiserver: generation %d %+v %+v\nours:           generation %d %+v %+v",
			theirs.Generation, theirs.Spec, theirs.Status, mine.Generation, mine.Spec, mine.Status)
	}

	got, rev, value := ourStorageReads(ctx, t, etcdURL, ws.Deployments, ns, "stored")
	d, ok := got.(*appsv1.Deployment)
	if !ok || d.UID != theirs.UID || !apiequality.Semantic.DeepEqual(d.Spec, theirs.Spec) ||
		d.ResourceVersion != strconv.FormatInt(rev, 10) {
		t.Fatalf("our Storage read %+v, want the Deployment kube-apiserver created (uid %s) at rv %d", got, theirs.UID, rev)
	}
	t.Logf("kube-apiserver's Deployment: %d bytes under %s, k8s\\x00 envelope; read back by ours", len(value), ws.Deployments.Key(ns, "stored"))
}

// TestE2EStoresTheEventKubeAPIServerStores is the same for an Event, and
// more: the same Event (core/v1, as client-go's event broadcaster POSTs
// it) created on kube-apiserver and on ours is stored as the same bytes
// under /registry/events/<ns>/<name>, but for what each server makes its
// own (uid, creationTimestamp, and the managedFields ours does not keep);
// after the broadcaster's repeat PATCH too. Both keys are on an etcd lease
// granted for an hour and a minute (--event-ttl and the lease manager's
// slack), and our Storage reads kube-apiserver's bytes back as its Event.
func TestE2EStoresTheEventKubeAPIServerStores(t *testing.T) {
	ctx, _, cs, etcdURL, ns := onKubeAPIServer(t)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	event := &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "web.stored", Namespace: ns},
		InvolvedObject: corev1.ObjectReference{Kind: "Deployment", Namespace: ns, Name: "web", APIVersion: "apps/v1", UID: "0c4e7b6a-0000-4000-8000-000000000001"},
		Reason:         "Created", Message: "Created Deployment web", Type: corev1.EventTypeNormal, Count: 1,
		FirstTimestamp: metav1.NewTime(at), LastTimestamp: metav1.NewTime(at),
		Source: corev1.EventSource{Component: "rollout-controller"},
	}
	// The repeat, as record.EventCorrelator sends it.
	repeat := []byte(`{"count":2,"lastTimestamp":"2026-01-01T00:00:05Z","message":"Created Deployment web"}`)
	s := startServer(t, ws.CacheOptions{})
	type side struct {
		name    string
		cs      kubernetes.Interface
		etcd    *clientv3.Client
		created *corev1.Event
	}
	real, err := clientv3.New(clientv3.Config{Endpoints: []string{etcdURL}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer real.Close()
	sides := []*side{{name: "kube-apiserver", cs: cs, etcd: real}, {name: "ours", cs: s.cs, etcd: s.etcd.Client}}
	key := ws.Events.Key(ns, event.Name)
	if key != "/registry/events/"+ns+"/web.stored" {
		t.Fatalf("our key for an Event: %s", key)
	}
	// stored reads a side's value of key and the lease it is on.
	stored := func(sd *side) (*corev1.Event, []byte) {
		resp, err := sd.etcd.Get(ctx, key)
		if err != nil || len(resp.Kvs) != 1 {
			t.Fatalf("%s's key %s: %v (%d keys)", sd.name, key, err, len(resp.Kvs))
		}
		kv := resp.Kvs[0]
		if kv.Lease == 0 {
			t.Fatalf("%s's key %s is on no lease", sd.name, key)
		}
		ttl, err := sd.etcd.TimeToLive(ctx, clientv3.LeaseID(kv.Lease))
		if err != nil || ttl.GrantedTTL != 3660 {
			t.Fatalf("%s's lease of %s: granted %d s (%v), want 3660", sd.name, key, ttl.GrantedTTL, err)
		}
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(kv.Value, nil, nil)
		if err != nil {
			t.Fatalf("%s's stored Event: %v", sd.name, err)
		}
		return obj.(*corev1.Event), kv.Value
	}
	// same checks that ours stored kube-apiserver's bytes, once what each
	// server makes its own is theirs in ours.
	same := func(when string) {
		theirs, value := stored(sides[0])
		mine, _ := stored(sides[1])
		mine.UID, mine.CreationTimestamp, mine.ManagedFields = theirs.UID, theirs.CreationTimestamp, theirs.ManagedFields
		ourBytes, err := ws.EncodeStored(mine)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ourBytes, value) {
			t.Fatalf("%s: our stored Event differs from kube-apiserver's:\nours:   %+v\ntheirs: %+v", when, mine, theirs)
		}
		t.Logf("%s: the same %d bytes under %s, on a lease of 3660 s", when, len(value), key)
	}
	for _, sd := range sides {
		if sd.created, err = sd.cs.CoreV1().Events(ns).Create(ctx, event.DeepCopy(), metav1.CreateOptions{}); err != nil {
			t.Fatalf("%s: %v", sd.name, err)
		}
	}
	same("created")
	for _, sd := range sides {
		patched, err := sd.cs.CoreV1().Events(ns).Patch(ctx, event.Name, types.StrategicMergePatchType, repeat, metav1.PatchOptions{})
		if err != nil {
			t.Fatalf("%s: the repeat PATCH: %v", sd.name, err)
		}
		if patched.Count != 2 || patched.FirstTimestamp != sd.created.FirstTimestamp || patched.ResourceVersion == sd.created.ResourceVersion {
			t.Fatalf("%s: the repeat PATCH gave %+v", sd.name, patched)
		}
	}
	same("patched")

	got, rev, _ := ourStorageReads(ctx, t, etcdURL, ws.Events, ns, event.Name)
	e, ok := got.(*corev1.Event)
	if !ok || e.UID != sides[0].created.UID || e.Count != 2 || e.ResourceVersion != strconv.FormatInt(rev, 10) {
		t.Fatalf("our Storage read %+v, want the Event kube-apiserver created (uid %s) at rv %d", got, sides[0].created.UID, rev)
	}
}

// TestE2EReadsTheCustomResourceKubeAPIServerStored is the same for a
// Rollout, a custom resource of chapter 06's CRD: kube-apiserver keys it
// /registry/walkthrough.example.com/rollouts/<ns>/<name> (the group in the
// key, unlike a built-in) and stores it as JSON, apiVersion and kind
// included, no resourceVersion, generation 1, the field the schema does
// not have pruned. Our Storage of the resource the CRD describes reads the
// bytes back as the Rollout kube-apiserver created, and writes the very
// same bytes for it (managedFields included: ours keeps what it read,
// though it makes none of its own). The CRD
// itself is JSON under /registry/apiextensions.k8s.io/customresourcedefinitions/,
// in apiextensions.k8s.io/v1beta1 (ours stores v1: see docs/07).
func TestE2EReadsTheCustomResourceKubeAPIServerStored(t *testing.T) {
	ctx, cfg, _, etcdURL, ns := onKubeAPIServer(t)
	dyn := dynamic.NewForConfigOrDie(cfg)

	crd := &unstructured.Unstructured{}
	if err := crd.UnmarshalJSON(crdManifest(t)); err != nil {
		t.Fatal(err)
	}
	crds := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	if _, err := crds.Create(ctx, crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	res, ok := ws.CustomResourceFor(crd)
	if !ok {
		t.Fatal("the Rollout's CRD describes no resource")
	}
	rollouts := dyn.Resource(schema.GroupVersionResource{Group: res.Group, Version: res.Version, Resource: res.Name}).Namespace(ns)
	body := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "walkthrough.example.com/v1alpha1", "kind": "Rollout",
		"metadata": map[string]any{"name": "stored", "labels": map[string]any{"app": "web"}},
		"spec":     map[string]any{"deploymentName": "web", "image": "nginx", "replicas": int64(2), "bogus": "pruned"},
	}}
	var created *unstructured.Unstructured
	// The CRD is served moments after it is created: retry the 404s.
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		var err error
		created, err = rollouts.Create(ctx, body, metav1.CreateOptions{FieldValidation: "Ignore"})
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("creating a Rollout: %v", err)
	}

	key := res.Key(ns, "stored")
	if key != "/registry/walkthrough.example.com/rollouts/"+ns+"/stored" {
		t.Fatalf("our key for a Rollout: %s", key)
	}
	value := etcdValue(ctx, t, etcdURL, key)
	storedObj := &unstructured.Unstructured{}
	if err := storedObj.UnmarshalJSON(value); err != nil {
		t.Fatalf("kube-apiserver stored %q..., not JSON: %v", value[:min(16, len(value))], err)
	}
	stored := storedObj.Object
	if storedObj.GetAPIVersion() != "walkthrough.example.com/v1alpha1" || storedObj.GetKind() != "Rollout" ||
		storedObj.GetResourceVersion() != "" || storedObj.GetGeneration() != 1 {
		t.Fatalf("kube-apiserver's stored Rollout: want apiVersion, kind, generation 1 and no resourceVersion, got %s", value)
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(stored, "spec", "bogus"); found {
		t.Fatalf("kube-apiserver stored the field its schema does not have: %s", value)
	}

	ours := startEtcd(t)
	put, err := ours.Client.Put(ctx, key, string(value))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ws.NewStorage(ours.Client).For(res).Get(ctx, ns, "stored")
	if err != nil {
		t.Fatalf("our Storage of Rollouts cannot read kube-apiserver's value: %v", err)
	}
	u := got.(*unstructured.Unstructured)
	if u.GetUID() != created.GetUID() || u.GetLabels()["app"] != "web" || u.GetKind() != "Rollout" ||
		u.GetResourceVersion() != strconv.FormatInt(put.Header.Revision, 10) {
		t.Fatalf("our Storage read %v, want the Rollout kube-apiserver created (uid %s) at rv %d", u.Object, created.GetUID(), put.Header.Revision)
	}
	ourBytes, err := ws.EncodeStored(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ourBytes, value) {
		t.Fatalf("our stored JSON differs from kube-apiserver's:\nours:   %s\ntheirs: %s", ourBytes, value)
	}

	crdValue := etcdValue(ctx, t, etcdURL, ws.CustomResourceDefinitions.Key("", crd.GetName()))
	var storedCRD metav1.TypeMeta
	if err := json.Unmarshal(crdValue, &storedCRD); err != nil || storedCRD.Kind != "CustomResourceDefinition" {
		t.Fatalf("kube-apiserver's stored CRD is not JSON of a CustomResourceDefinition (%v): %.40q", err, crdValue)
	}
	t.Logf("kube-apiserver's Rollout: %d bytes of JSON under %s, read back by ours and written byte for byte the same; its CRD: JSON in %s", len(value), key, storedCRD.APIVersion)
}

// etcdValue reads the one value of key from kube-apiserver's etcd.
func etcdValue(ctx context.Context, t *testing.T, etcdURL, key string) []byte {
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
	return resp.Kvs[0].Value
}

// storedByKubeAPIServer reads key from kube-apiserver's etcd: one value,
// protobuf in the k8s\x00 envelope.
func storedByKubeAPIServer(ctx context.Context, t *testing.T, etcdURL, key string) []byte {
	t.Helper()
	value := etcdValue(ctx, t, etcdURL, key)
	if !bytes.HasPrefix(value, []byte("k8s\x00")) {
		t.Fatalf("kube-apiserver stored %q..., not the k8s\\x00 protobuf envelope", value[:min(16, len(value))])
	}
	return value
}
