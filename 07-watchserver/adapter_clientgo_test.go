package watchserver_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"

	"example.com/walkthrough/workshop/cluster"
	"example.com/walkthrough/workshop/scenario"
)

// The recording side: a real kube-apiserver and etcd (`make cluster-up`,
// docs/e2e.md). The harness calls it "client-go", the name under which
// every chapter's goldens are recorded; for this chapter the thing
// recorded is the server. Without a cluster the scenarios skip, so
// `WALKTHROUGH_IMPL=client-go go test` is green offline and records
// nothing. So it is hand-written: it shares nothing with the reference
// adapter, which starts our server over an embedded etcd.
func init() {
	register(scenario.ClientGo, impl{Start: func(t testing.TB) target {
		cfg := cluster.Require(t)
		cs, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		hc, err := rest.HTTPClientFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		tlsConfig, err := rest.TLSConfigFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		// Idle keep-alive connections (HTTP/2 read loops) would outlive the
		// test and fail the leak check.
		t.Cleanup(func() { utilnet.CloseIdleConnectionsFor(hc.Transport) })
		ns := cluster.Namespace(t, cs.CoreV1())
		etcd := cluster.RequireEtcd(t)
		return target{
			Base: cfg.Host + "/api/v1/namespaces/" + ns + "/configmaps", HTTP: hc, TLS: tlsConfig,
			Frame: apimachineryFrame,
			WatchEtcd: func(t testing.TB, rv int64) (chan decoded, func()) {
				return watchRealEtcd(t, etcd, "/registry/configmaps/"+ns+"/", rv)
			},
			Lease: func(t testing.TB, resource, name string) time.Duration {
				client, err := clientv3.New(clientv3.Config{Endpoints: []string{etcd}, DialTimeout: 5 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				defer client.Close()
				return etcdLease(t, client, "/registry/"+resource+"/"+ns+"/"+name)
			},
			Compact: func(t testing.TB) {
				_, err := cluster.CompactEtcd(context.Background(), etcd)
				// It talks to etcd through the default client: its idle
				// connection would outlive the test.
				http.DefaultClient.CloseIdleConnections()
				if err != nil {
					t.Fatal(err)
				}
			},
		}
	}})
}

// apimachineryFrame encodes a watch event as kube-apiserver's WatchServer
// does: the object with the media type's serializer, then a
// metav1.WatchEvent around it with the stream serializer, through the
// stream's framer (newline-delimited JSON, length-prefixed protobuf).
func apimachineryFrame(typ watch.EventType, obj runtime.Object, protobuf bool) ([]byte, error) {
	mediaType := runtime.ContentTypeJSON
	if protobuf {
		mediaType = runtime.ContentTypeProtobuf
	}
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok || info.StreamSerializer == nil {
		return nil, fmt.Errorf("no stream serializer for %s", mediaType)
	}
	embedded, err := runtime.Encode(scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), obj)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	outer := scheme.Codecs.EncoderForVersion(info.StreamSerializer.Serializer, corev1.SchemeGroupVersion)
	err = outer.Encode(&metav1.WatchEvent{Type: string(typ), Object: runtime.RawExtension{Raw: embedded}}, info.StreamSerializer.Framer.NewFrameWriter(&buf))
	return buf.Bytes(), err
}

// watchRealEtcd watches the real cluster's etcd under prefix with a plain
// etcd client: what etcd itself reports, each value (kube-apiserver's
// "k8s\x00" protobuf) decoded with apimachinery and given the event's
// revision. etcd says PUT or DELETE; a PUT whose key was just created
// (clientv3's IsCreate) is an ADDED, any other PUT a MODIFIED, and a DELETE
// carries the previous value (WithPrevKV).
func watchRealEtcd(t testing.TB, endpoint, prefix string, rv int64) (chan decoded, func()) {
	client, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan decoded, 100)
	decode := func(value []byte, rev int64) runtime.Object {
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(value, nil, nil)
		if err != nil {
			return &metav1.Status{Message: err.Error()}
		}
		obj.(metav1.Object).SetResourceVersion(strconv.FormatInt(rev, 10))
		return obj
	}
	events := client.Watch(ctx, prefix, clientv3.WithPrefix(), clientv3.WithRev(rv+1), clientv3.WithPrevKV())
	awaitEtcdWatchCreated(t, client)
	go func() {
		defer close(out)
		defer client.Close()
		for resp := range events {
			for _, e := range resp.Events {
				rev := e.Kv.ModRevision
				switch {
				case e.Type == clientv3.EventTypeDelete && e.PrevKv == nil:
					out <- decoded{typ: watch.Error, obj: &metav1.Status{Message: "etcd sent a DELETE without PrevKv"}}
				case e.Type == clientv3.EventTypeDelete:
					out <- decoded{typ: watch.Deleted, obj: decode(e.PrevKv.Value, rev)}
				case e.IsCreate():
					out <- decoded{typ: watch.Added, obj: decode(e.Kv.Value, rev)}
				default:
					out <- decoded{typ: watch.Modified, obj: decode(e.Kv.Value, rev)}
				}
			}
		}
	}()
	return out, cancel
}
