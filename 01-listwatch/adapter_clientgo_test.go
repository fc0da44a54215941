package listwatch_test

import (
	"context"
	"io"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	restclientwatch "k8s.io/client-go/rest/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/pager"

	"example.com/walkthrough/01-listwatch/testserver"
	"example.com/walkthrough/workshop/scenario"
)

// The adapter for the real client-go: the goldens are recorded through it.
// Its Reflector talks to the test server through client-go's own REST
// client, so every request in a golden is one client-go really sent.
// It is hand-written, not generated from the reference adapter
// (//exgen:clientgo): client-go builds a Reflector from a ListerWatcher on
// a clientset, decodes watch frames with rest/watch's Decoder and pages
// with tools/pager, where ours has its own Client, FrameDecoder and
// ListAll; more than the names differ.
func init() {
	register(scenario.ClientGo, impl{
		NewReflector: func(cfg reflectorConfig) (func(context.Context), func() string) {
			cs := kubernetes.NewForConfigOrDie(cfg.Server.RESTConfig())
			lw := cache.NewListWatchFromClient(cs.CoreV1().RESTClient(), "pods", metav1.NamespaceAll, fields.Everything())
			// The WatchListClient gate was set from the scenario's header.
			r := cache.NewReflectorWithOptions(lw, &v1.Pod{}, cfg.Store, cache.ReflectorOptions{ResyncPeriod: cfg.Resync})
			r.ShouldResync = cfg.ShouldResync
			return r.RunWithContext, r.LastSyncResourceVersion
		},
		NewFrameDecoder: func(r io.Reader) func() (string, error) {
			dec := clientGoWatchDecoder(r)
			return func() (string, error) {
				typ, obj, err := dec.Decode()
				if err == nil && typ == watch.Error {
					err = apierrors.FromObject(obj)
				}
				return describeEvent(string(typ), obj, err), err
			}
		},
		DecodeObject: func(raw []byte, typed bool) (runtime.Object, error) {
			if typed {
				return runtime.Decode(scheme.Codecs.UniversalDeserializer(), raw)
			}
			return runtime.Decode(unstructured.UnstructuredJSONScheme, raw)
		},
		ListAll: func(ctx context.Context, srv *testserver.Server, pageSize int64) (string, int, error) {
			pods := kubernetes.NewForConfigOrDie(srv.RESTConfig()).CoreV1().Pods("")
			p := pager.New(pager.SimplePageFunc(func(opts metav1.ListOptions) (runtime.Object, error) {
				return pods.List(ctx, opts)
			}))
			p.PageSize = pageSize
			list, _, err := p.List(ctx, metav1.ListOptions{})
			if err != nil {
				return "", 0, err
			}
			lm, err := meta.ListAccessor(list)
			if err != nil {
				return "", 0, err
			}
			return lm.GetResourceVersion(), meta.LenList(list), nil
		},
		ListPage: func(ctx context.Context, srv *testserver.Server, opts metav1.ListOptions) (string, string, int, error) {
			list, err := kubernetes.NewForConfigOrDie(srv.RESTConfig()).CoreV1().Pods("").List(ctx, opts)
			if err != nil {
				return "", "", 0, err
			}
			return list.ResourceVersion, list.Continue, len(list.Items), nil
		},
		Watch: func(ctx context.Context, srv *testserver.Server, opts metav1.ListOptions) (<-chan string, error) {
			w, err := kubernetes.NewForConfigOrDie(srv.RESTConfig()).CoreV1().Pods("").Watch(ctx, opts)
			if err != nil {
				return nil, err
			}
			return describeAll(w.ResultChan(), func(ev watch.Event) string {
				if ev.Type == watch.Error {
					return describeEvent(string(ev.Type), nil, apierrors.FromObject(ev.Object))
				}
				return describeEvent(string(ev.Type), ev.Object, nil)
			}), nil
		},
	})
}

// clientGoWatchDecoder builds the decoder client-go's REST client puts on
// a JSON watch response: the JSON framer, the streaming decoder, and the
// watch event decoder on top.
func clientGoWatchDecoder(r io.Reader) *restclientwatch.Decoder {
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	frames := info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(r))
	events := streaming.NewDecoder(frames, info.StreamSerializer.Serializer)
	objects := scheme.Codecs.WithoutConversion().DecoderToVersion(info.Serializer, v1.SchemeGroupVersion)
	return restclientwatch.NewDecoder(events, objects)
}
