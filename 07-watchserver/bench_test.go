package watchserver_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	ws "example.com/walkthrough/07-watchserver"
	"example.com/walkthrough/workshop/cluster"
)

// BenchmarkFanOut: b.N ConfigMap writes, each delivered to N HTTP watchers
// (client-go watches, JSON), timed until every watcher has every event.
// .../ours is our server over embedded etcd; .../kube-apiserver runs only
// with a cluster (make cluster-up; WALKTHROUGH_E2E_KUBECONFIG), on the same
// machine. Reported: events delivered per second, all watchers together.
func BenchmarkFanOut(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("watchers=%d/ours", n), func(b *testing.B) {
			s := startServer(b, ws.CacheOptions{})
			fanOut(b, s.cs, "bench", n)
		})
		b.Run(fmt.Sprintf("watchers=%d/kube-apiserver", n), func(b *testing.B) {
			if os.Getenv(cluster.EnvKubeconfig) == "" {
				b.Skip("no cluster: make cluster-up, then set " + cluster.EnvKubeconfig)
			}
			cfg := cluster.Require(b)
			cs, err := kubernetes.NewForConfig(cfg)
			if err != nil {
				b.Fatal(err)
			}
			hc, _ := rest.HTTPClientFor(cfg)
			b.Cleanup(func() { utilnet.CloseIdleConnectionsFor(hc.Transport) })
			fanOut(b, cs, cluster.Namespace(b, cs.CoreV1()), n)
		})
	}
}

func fanOut(b *testing.B, cs kubernetes.Interface, ns string, n int) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cms := cs.CoreV1().ConfigMaps(ns)
	list, err := cms.List(ctx, metav1.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	for range n {
		w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
		if err != nil {
			b.Fatal(err)
		}
		defer w.Stop()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for got := 0; got < b.N; got++ {
				if _, ok := <-w.ResultChan(); !ok {
					return
				}
			}
		}()
	}
	b.ResetTimer()
	for i := range b.N {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("bench-%d-%d", n, i)}}
		if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	wg.Wait()
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "events/s")
}
