package listwatch_test

import (
	"context"
	"io"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	ours "example.com/walkthrough/01-listwatch"
	"example.com/walkthrough/01-listwatch/testserver"
	"example.com/walkthrough/workshop/scenario"
)

// The adapter for our own package. `make exercises` derives the exercise
// adapter from this file by pointing it at the exercise/ copy, so keep
// everything inside init: the twin must not redeclare anything.
func init() {
	podClient := func(srv *testserver.Server) *ours.Client {
		return &ours.Client{
			HTTP: srv.HTTPClient(), Base: testserver.Host,
			Path: testserver.Pods.Path(""), Kind: ours.Typed[v1.Pod]("Pod"),
		}
	}
	register(scenario.Reference, impl{
		NewReflector: func(cfg reflectorConfig) (func(context.Context), func() string) {
			r := ours.NewReflector(podClient(cfg.Server), &v1.Pod{}, cfg.Store, ours.ReflectorOptions{
				ResyncPeriod: cfg.Resync, UseWatchList: cfg.WatchList,
			})
			r.ShouldResync = cfg.ShouldResync
			return r.Run, r.LastSyncResourceVersion
		},
		NewFrameDecoder: func(r io.Reader) func() (string, error) {
			dec := ours.NewFrameDecoder(r, ours.Typed[v1.Pod]("Pod"))
			return func() (string, error) {
				ev, err := dec.Next()
				return describeEvent(string(ev.Type), ev.Object, err), err
			}
		},
		DecodeObject: func(raw []byte, typed bool) (runtime.Object, error) {
			if typed {
				return ours.Typed[v1.Pod]("Pod").Decode(raw)
			}
			return ours.Unstructured().Decode(raw)
		},
		ListAll: func(ctx context.Context, srv *testserver.Server, pageSize int64) (string, int, error) {
			list, _, err := ours.ListAll(ctx, podClient(srv), metav1.ListOptions{}, pageSize)
			if err != nil {
				return "", 0, err
			}
			return list.ResourceVersion, len(list.Items), nil
		},
		ListPage: func(ctx context.Context, srv *testserver.Server, opts metav1.ListOptions) (string, string, int, error) {
			list, err := podClient(srv).List(ctx, opts)
			if err != nil {
				return "", "", 0, err
			}
			return list.ResourceVersion, list.Continue, len(list.Items), nil
		},
		Watch: func(ctx context.Context, srv *testserver.Server, opts metav1.ListOptions) (<-chan string, error) {
			w, err := podClient(srv).Watch(ctx, opts)
			if err != nil {
				return nil, err
			}
			return describeAll(w.ResultChan(), func(ev ours.Event) string {
				return describeEvent(string(ev.Type), ev.Object, ev.Err)
			}), nil
		},
	})
}
