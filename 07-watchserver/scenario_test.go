package watchserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	restclientwatch "k8s.io/client-go/rest/watch"

	"golang.org/x/net/websocket"

	"example.com/walkthrough/workshop/cluster"
	"example.com/walkthrough/workshop/scenario"
)

// TestScenarios plays testdata/scenarios/*.txt over HTTP against the
// implementation chosen with WALKTHROUGH_IMPL: ours over an embedded etcd
// (reference, exercise) or a real kube-apiserver (client-go; skipped
// without a cluster). No bubble: etcd runs on real time and sockets.
//
// Our servers' files run side by side: each has an etcd and a server of
// its own and spends its time waiting for watches to time out. Against
// kube-apiserver they run one at a time: one etcd serves them all, and a
// compaction there would reach every file.
func TestScenarios(t *testing.T) {
	impl, err := scenario.Selected()
	if err != nil {
		t.Fatal(err)
	}
	parallel := impl != scenario.ClientGo
	if parallel {
		t.Parallel()
	}
	scenario.Run(t, scenarioImpls, scenario.Options{Parallel: parallel})
}

// TestE2EScenariosOnKubeAPIServer replays every scenario against the real
// kube-apiserver and etcd of make e2e: the goldens were recorded there, so
// this proves they still describe it (make golden CH=07 re-records them).
func TestE2EScenariosOnKubeAPIServer(t *testing.T) {
	cluster.Require(t)
	if scenario.Rewriting() {
		t.Skip("recording runs through TestScenarios (make golden CH=07)")
	}
	scenario.RunImpl(t, scenarioImpls, scenario.ClientGo, scenario.Options{})
}

// eventWait bounds how long a step waits for one event: generous, since
// the server is real; a correct run never gets near it.
const eventWait = 10 * time.Second

// driver plays one scenario file against one server.
type driver struct {
	t       testing.TB
	target  target
	norm    *normaliser
	watches map[string]*openWatch
	// serveFirst starts the server's watch side before the first step.
	serveFirst bool
	// lastWrite is the revision of the newest object a step has seen.
	lastWrite int64
	// causes: the current step asked (with `causes`) to see a failure
	// Status's causes, one line each, or "(no causes)".
	causes bool
}

// openWatch is a watch stream being read in the background, decoded with
// apimachinery's and client-go's own decoders.
type openWatch struct {
	raw  chan decoded
	body io.Closer
	// causes: print an ERROR event's causes (watch id=w causes).
	causes bool
}

func newDriver(t testing.TB, tg target) *driver {
	d := &driver{t: t, target: tg, norm: newNormaliser(), watches: map[string]*openWatch{}}
	t.Cleanup(func() {
		for _, w := range d.watches {
			w.body.Close()
		}
	})
	return d
}

func (d *driver) serving() {
	if d.target.Serving != nil {
		d.target.Serving(d.t)
	}
}

// do sends one request and returns the status code and body.
func (d *driver) do(method, url string, body []byte) (int, []byte) {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		d.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := d.target.HTTP.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// object prints a ConfigMap the way every step does: name, data, label.
func (d *driver) object(cm *corev1.ConfigMap) string {
	keys := make([]string, 0, len(cm.Data))
	for k := range cm.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var data []string
	for _, k := range keys {
		data = append(data, k+"="+cm.Data[k])
	}
	var labelList []string
	for k, v := range cm.Labels {
		labelList = append(labelList, k+"="+v)
	}
	sort.Strings(labelList)
	if len(labelList) > 0 {
		return fmt.Sprintf("%s [%s] {%s} rv=%s", cm.Name, strings.Join(labelList, ","), strings.Join(data, ","), d.norm.label(cm.ResourceVersion))
	}
	return fmt.Sprintf("%s {%s} rv=%s", cm.Name, strings.Join(data, ","), d.norm.label(cm.ResourceVersion))
}

// result prints a response: the object, or the Status of an error.
func (d *driver) result(code int, body []byte) string {
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
	if err != nil {
		return fmt.Sprintf("%d undecodable: %v", code, err)
	}
	switch o := obj.(type) {
	case *metav1.Status:
		if o.Status == metav1.StatusSuccess {
			return fmt.Sprintf("%d Success", code)
		}
		out := fmt.Sprintf("%d %s: %s", code, o.Reason, d.norm.message(o.Message))
		if o.Continue != "" {
			out += "\n  continue=" + d.norm.token(o.Continue)
		}
		if d.causes {
			out += d.statusCauses(o)
		}
		return out
	case *corev1.ConfigMap:
		if rv, err := strconv.ParseInt(o.ResourceVersion, 10, 64); err == nil {
			d.lastWrite = max(d.lastWrite, rv)
		}
		return fmt.Sprintf("%d %s", code, d.object(o))
	case *corev1.ConfigMapList:
		head := fmt.Sprintf("%d list rv=%s", code, d.norm.collection(o.ResourceVersion))
		if o.Continue != "" {
			head += " continue=" + d.norm.token(o.Continue)
		}
		if o.RemainingItemCount != nil {
			head += fmt.Sprintf(" remaining=%d", *o.RemainingItemCount)
		}
		out := []string{head}
		for i := range o.Items {
			out = append(out, "  "+d.object(&o.Items[i]))
		}
		return strings.Join(out, "\n")
	}
	return fmt.Sprintf("%d %T", code, obj)
}

// statusCauses prints a Status's causes, one line each (type, field,
// message), or "(no causes)": kube-apiserver's 500 for an error that is
// not an API status has none, its 504 for a too-large version names
// ResourceVersionTooLarge.
func (d *driver) statusCauses(o *metav1.Status) string {
	if o.Details == nil || len(o.Details.Causes) == 0 {
		return "\n  (no causes)"
	}
	var out string
	for _, c := range o.Details.Causes {
		field := ""
		if c.Field != "" {
			field = " " + c.Field
		}
		out += fmt.Sprintf("\n  cause %s%s: %s", c.Type, field, d.norm.message(c.Message))
	}
	return out
}

// namespace is the namespace the scenario owns, read from Base.
func (d *driver) namespace() string {
	rest, _ := strings.CutSuffix(d.target.Base, "/configmaps")
	_, ns, _ := strings.Cut(rest, "/namespaces/")
	return ns
}

// configMap builds a request body from name=... and key=value lines.
func configMap(name, rv, labelList string, input string) []byte {
	return configMapIn("", name, rv, labelList, input)
}

// configMapIn is configMap with a namespace in the body ("" for none).
func configMapIn(namespace, name, rv, labelList string, input string) []byte {
	cm := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: rv}, Data: dataOf(input)}
	if labelList != "" {
		cm.Labels = map[string]string{}
		for _, l := range strings.Split(labelList, ",") {
			k, v, _ := strings.Cut(l, "=")
			cm.Labels[k] = v
		}
	}
	b, _ := json.Marshal(cm)
	return b
}

// dataOf reads a step's key=value input lines as a ConfigMap's data.
func dataOf(input string) map[string]string {
	data := map[string]string{}
	for _, line := range strings.Fields(input) {
		k, v, _ := strings.Cut(line, "=")
		data[k] = v
	}
	return data
}

// freshList repeats a LIST (at resourceVersion=0, from the cache) until
// its resourceVersion reaches the newest write the scenario made, for at
// most eventWait. The cache follows etcd a moment behind, on both servers;
// "fresh" makes what it prints exact.
func (d *driver) freshList(url string) (int, []byte) {
	deadline := time.Now().Add(eventWait)
	for {
		code, body := d.do("GET", url, nil)
		var list struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
		}
		_ = json.Unmarshal(body, &list)
		rv, _ := strconv.ParseInt(list.Metadata.ResourceVersion, 10, 64)
		if code != http.StatusOK || rv >= d.lastWrite || time.Now().After(deadline) {
			return code, body
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (d *driver) step(t testing.TB, td *datadriven.TestData) string {
	d.t = t
	if d.serveFirst {
		d.serveFirst = false
		d.serving()
	}
	out := d.play(t, td)
	if d.target.Panicked != nil {
		if v := d.target.Panicked(); v != nil {
			panic(v)
		}
	}
	return out
}

func (d *driver) play(t testing.TB, td *datadriven.TestData) string {
	arg := func(key string) string {
		var s string
		if td.HasArg(key) {
			td.ScanArgs(t, key, &s)
		}
		return s
	}
	d.causes = td.HasArg("causes")
	switch td.Cmd {
	case "create":
		// namespace= puts a namespace into the body, rv= a resourceVersion.
		return d.result(d.do("POST", d.target.Base, configMapIn(arg("namespace"), arg("name"), d.norm.value(arg("rv")), arg("labels"), td.Input)))
	case "update":
		// body-name= names another object in the body than in the URL.
		bodyName := arg("name")
		if td.HasArg("body-name") {
			bodyName = arg("body-name")
		}
		return d.result(d.do("PUT", d.target.Base+"/"+arg("name"), configMap(bodyName, d.norm.value(arg("rv")), arg("labels"), td.Input)))
	case "delete":
		return d.result(d.do("DELETE", d.target.Base+"/"+arg("name"), nil))
	case "get":
		return d.result(d.do("GET", d.target.Base+"/"+arg("name"), nil))
	case "list":
		q := url.Values{}
		if td.HasArg("rv") {
			q.Set("resourceVersion", d.norm.value(arg("rv")))
			if arg("rv") == "0" {
				d.serving() // only a LIST at resourceVersion=0 reads the cache
			}
		}
		if v := arg("match"); v != "" {
			q.Set("resourceVersionMatch", v)
		}
		selectors(q, arg)
		if v := q.Get("fieldSelector"); v != "" {
			// $ns is the scenario's namespace, whose name differs per run.
			q.Set("fieldSelector", strings.ReplaceAll(v, "$ns", d.namespace()))
		}
		if v := arg("limit"); v != "" {
			q.Set("limit", v)
		}
		if v := arg("continue"); v != "" {
			q.Set("continue", d.norm.value(v))
		}
		base := d.target.Base
		if td.HasArg("all-namespaces") {
			base = strings.Replace(base, "/namespaces/"+d.namespace(), "", 1)
		}
		if td.HasArg("fresh") {
			return d.result(d.freshList(base + "?" + q.Encode()))
		}
		return d.result(d.do("GET", base+"?"+q.Encode(), nil))
	case "watch-etcd":
		return d.watchEtcd(td, arg)
	case "frame":
		return d.frame(td, arg)
	case "compact":
		d.target.Compact(t)
		return "ok"
	case "watch":
		d.serving()
		return d.openWatch(td, arg)
	case "events":
		var n int
		td.ScanArgs(t, "n", &n)
		w := d.watch(td, arg("id"))
		var out []string
		for len(out) < n {
			line, state := d.next(w, time.After(eventWait))
			switch state {
			case streamEnded:
				return strings.Join(append(out, "(end of stream)"), "\n")
			case streamQuiet:
				return strings.Join(append(out, fmt.Sprintf("(no event in %v)", eventWait)), "\n")
			}
			if line != "" {
				out = append(out, line)
			}
		}
		return strings.Join(out, "\n")
	case "end":
		w := d.watch(td, arg("id"))
		var out []string
		deadline := time.After(eventWait)
		for {
			line, state := d.next(w, deadline)
			switch state {
			case streamEnded:
				return strings.Join(append(out, "(end of stream)"), "\n")
			case streamQuiet:
				return strings.Join(append(out, fmt.Sprintf("(still open after %v)", eventWait)), "\n")
			}
			if line != "" {
				out = append(out, line)
			}
		}
	}
	td.Fatalf(t, "unknown command %q", td.Cmd)
	return ""
}

func (d *driver) watch(td *datadriven.TestData, id string) *openWatch {
	w, ok := d.watches[id]
	if !ok {
		td.Fatalf(d.t, "no watch %q: open it with `watch id=%s`", id, id)
	}
	return w
}

// openWatch starts a watch: watch id=w [rv=r1|0] [bookmarks] [initial=true|false]
// [match=M: resourceVersionMatch M instead of NotOlderThan] [causes: print
// an ERROR's causes] [timeout=N] [format=json|protobuf] [accept=TYPE]
// [ws: over a WebSocket]. It prints the status and Content-Type; the
// events are read by `events` and `end`.
func (d *driver) openWatch(td *datadriven.TestData, arg func(string) string) string {
	q := url.Values{"watch": {"true"}}
	selectors(q, arg)
	if td.HasArg("rv") {
		q.Set("resourceVersion", d.norm.value(arg("rv")))
	}
	if td.HasArg("bookmarks") {
		q.Set("allowWatchBookmarks", "true")
	}
	if v := arg("initial"); v != "" {
		q.Set("sendInitialEvents", v)
		if !td.HasArg("no-match") {
			q.Set("resourceVersionMatch", "NotOlderThan")
		}
	}
	if v := arg("match"); v != "" {
		q.Set("resourceVersionMatch", v)
	}
	if v := arg("timeout"); v != "" {
		q.Set("timeoutSeconds", v)
	}
	accept := "application/json"
	if arg("format") == "protobuf" {
		accept = "application/vnd.kubernetes.protobuf"
	}
	if v := arg("accept"); v != "" {
		accept = v
	}
	if td.HasArg("ws") {
		return d.openWebSocket(arg("id"), d.target.Base+"?"+q.Encode(), accept, arg("format") == "protobuf")
	}
	req, err := http.NewRequestWithContext(context.Background(), "GET", d.target.Base+"?"+q.Encode(), nil)
	if err != nil {
		d.t.Fatal(err)
	}
	req.Header.Set("Accept", accept)
	resp, err := d.target.HTTP.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	ct := resp.Header.Get("Content-Type")
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return d.result(resp.StatusCode, body)
	}
	mediaType := strings.Split(ct, ";")[0]
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok || info.StreamSerializer == nil {
		resp.Body.Close()
		return fmt.Sprintf("200 %s (no stream decoder)", ct)
	}
	frames := info.StreamSerializer.Framer.NewFrameReader(resp.Body)
	dec := restclientwatch.NewDecoder(streaming.NewDecoder(frames, info.StreamSerializer.Serializer), scheme.Codecs.UniversalDeserializer())
	// The reader only decodes; labels are assigned in the test goroutine,
	// in the order the steps print them, so they are deterministic.
	w := &openWatch{raw: make(chan decoded, 1000), body: resp.Body, causes: td.HasArg("causes")}
	d.watches[arg("id")] = w
	go func() {
		defer close(w.raw)
		for {
			typ, obj, err := dec.Decode()
			if err != nil {
				if err != io.EOF && !strings.Contains(err.Error(), "closed") {
					w.raw <- decoded{err: err}
				}
				return
			}
			w.raw <- decoded{typ: typ, obj: obj}
		}
	}()
	return fmt.Sprintf("200 %s", ct)
}

// watchEtcd opens a watch on etcd itself (watch-etcd id=e rv=r1), read
// with events and end like an HTTP watch. No API server and no cache are
// involved: this is chapter 07's exercise 3 on its own.
func (d *driver) watchEtcd(td *datadriven.TestData, arg func(string) string) string {
	if d.target.WatchEtcd == nil {
		td.Fatalf(d.t, "this target cannot watch etcd")
	}
	rv, err := strconv.ParseInt(d.norm.value(arg("rv")), 10, 64)
	if err != nil {
		td.Fatalf(d.t, "watch-etcd needs rv=<a known revision label>: %v", err)
	}
	events, stop := d.target.WatchEtcd(d.t, rv)
	d.watches[arg("id")] = &openWatch{raw: events, body: closerFunc(stop)}
	return "watching etcd"
}

// closerFunc is a func() as an io.Closer.
type closerFunc func()

func (f closerFunc) Close() error { f(); return nil }

// frame encodes one event with the target's encoder, no server involved:
// frame type=ADDED|MODIFIED|DELETED|BOOKMARK|ERROR [name=a] [rv=7]
// [format=protobuf] [code=410], with the object's data as input lines. A
// JSON frame prints quoted, a protobuf one as hex, 32 bytes a line.
func (d *driver) frame(td *datadriven.TestData, arg func(string) string) string {
	if d.target.Frame == nil {
		td.Fatalf(d.t, "this target cannot encode frames")
	}
	typ := watch.EventType(arg("type"))
	var obj runtime.Object
	if typ == watch.Error {
		code, _ := strconv.Atoi(arg("code"))
		obj = &metav1.Status{Status: metav1.StatusFailure, Code: int32(code),
			Reason: metav1.StatusReasonExpired, Message: "too old resource version: 1 (2)"}
	} else {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: arg("name"), ResourceVersion: arg("rv")}}
		if cm.Name != "" {
			cm.Namespace = "ns"
			cm.Data = dataOf(td.Input)
		}
		obj = cm
	}
	protobuf := arg("format") == "protobuf"
	b, err := d.target.Frame(typ, obj, protobuf)
	if err != nil {
		return "error: " + err.Error()
	}
	if !protobuf {
		return strconv.Quote(string(b)) // quoted: the frame's closing newline shows
	}
	var lines []string
	for len(b) > 0 {
		n := min(32, len(b))
		lines = append(lines, fmt.Sprintf("%x", b[:n]))
		b = b[n:]
	}
	return strings.Join(lines, "\n")
}

// selectors sets labelSelector and fieldSelector from the step's selector=
// and fields= arguments (no spaces: app=web, app!=db, metadata.name=a).
func selectors(q url.Values, arg func(string) string) {
	if v := arg("selector"); v != "" {
		q.Set("labelSelector", v)
	}
	if v := arg("fields"); v != "" {
		q.Set("fieldSelector", v)
	}
}

// openWebSocket starts a watch over a WebSocket (watch id=w ws ...): each
// message is one event, decoded as a client does it, the outer
// WatchEvent first (JSON text or raw protobuf), then the object inside.
func (d *driver) openWebSocket(id, url, accept string, protobuf bool) string {
	url = "ws" + strings.TrimPrefix(url, "http")
	config, err := websocket.NewConfig(url, "http://localhost/")
	if err != nil {
		d.t.Fatal(err)
	}
	config.TlsConfig = d.target.TLS
	config.Header.Set("Accept", accept)
	conn, err := websocket.DialConfig(config)
	if err != nil {
		var derr *websocket.DialError
		if errors.As(err, &derr) {
			err = derr.Err
		}
		return "websocket refused: " + err.Error()
	}
	w := &openWatch{raw: make(chan decoded, 1000), body: conn}
	d.watches[id] = w
	go func() {
		defer close(w.raw)
		for {
			var msg []byte
			if err := websocket.Message.Receive(conn, &msg); err != nil {
				if err != io.EOF && !strings.Contains(err.Error(), "closed") {
					w.raw <- decoded{err: err}
				}
				return
			}
			w.raw <- decodeMessage(msg, protobuf)
		}
	}()
	if protobuf {
		return "101 websocket (binary messages)"
	}
	return "101 websocket (text messages)"
}

// decodeMessage decodes one WebSocket message: a WatchEvent around an
// object, with no framing.
func decodeMessage(msg []byte, protobuf bool) decoded {
	var we metav1.WatchEvent
	var err error
	if protobuf {
		err = we.Unmarshal(msg)
	} else {
		err = json.Unmarshal(msg, &we)
	}
	if err != nil {
		return decoded{err: fmt.Errorf("message of %d bytes: %w", len(msg), err)}
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(we.Object.Raw, nil, nil)
	if err != nil {
		return decoded{err: err}
	}
	return decoded{typ: watch.EventType(we.Type), obj: obj}
}

type decoded struct {
	typ watch.EventType
	obj runtime.Object
	err error
}

type streamState int

const (
	streamEvent streamState = iota
	streamEnded
	streamQuiet
)

// next reads one event and prints it ("" for a periodic bookmark, which
// the normaliser drops).
func (d *driver) next(w *openWatch, deadline <-chan time.Time) (string, streamState) {
	select {
	case r, ok := <-w.raw:
		if !ok {
			return "", streamEnded
		}
		return d.describe(r, w.causes), streamEvent
	case <-deadline:
		return "", streamQuiet
	}
}

// describe prints one decoded event, with an ERROR's causes if asked.
func (d *driver) describe(r decoded, causes bool) string {
	if r.err != nil {
		return "decode error: " + r.err.Error()
	}
	switch o := r.obj.(type) {
	case *metav1.Status:
		out := fmt.Sprintf("%s %d %s: %s", r.typ, o.Code, o.Reason, d.norm.message(o.Message))
		if causes {
			out += d.statusCauses(o)
		}
		return out
	case *corev1.ConfigMap:
		if r.typ == watch.Bookmark {
			if o.Annotations[metav1.InitialEventsAnnotationKey] != "true" {
				return ""
			}
			return fmt.Sprintf("BOOKMARK initial-events-end rv=%s", d.norm.collection(o.ResourceVersion))
		}
		return fmt.Sprintf("%s %s", r.typ, d.object(o))
	}
	return fmt.Sprintf("%s %T", r.typ, r.obj)
}
