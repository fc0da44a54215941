package watchserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	restclientwatch "k8s.io/client-go/rest/watch"

	"golang.org/x/net/websocket"

	"example.com/walkthrough/workshop/scenario"
)

// watchCommands open watches, each under an id, and read their events,
// decoded with apimachinery's and client-go's own decoders. An event
// prints as "TYPE NAME [LABELS] {DATA} rv=R", "BOOKMARK
// initial-events-end rv=latest" or "ERROR CODE REASON: MESSAGE"; a
// periodic bookmark, which depends on time, is left out unless the watch
// asks for it ("periodic").
var watchCommands = []scenario.Command[*driver]{
	{Name: "watch", Run: (*driver).watchStep,
		Usage: `watch id=W [rv=RV] [bookmarks] [periodic] [initial=true|false] [no-match] [match=M] [selector=S] [fields=F] [timeout=N] [format=json|protobuf] [accept=TYPE] [ws] [all-namespaces] [causes]
Opens the watch W on the scenario's namespace (every namespace with
all-namespaces; not with ws): from resourceVersion RV,
with allowWatchBookmarks, sendInitialEvents (and
resourceVersionMatch=NotOlderThan, unless no-match), resourceVersionMatch
M, the selectors (as list's), timeoutSeconds N; asking for JSON, protobuf
or any TYPE; "ws" over a WebSocket. Prints the status and Content-Type
("200 application/json", "101 websocket (text messages)"), or the
refusal's Status. "causes" prints the causes of the watch's ERROR events
too. "periodic" prints its periodic bookmarks too, as "BOOKMARK rv=R",
each version once: when a repeat at the same version comes depends on the
server's one-second bookmark timer.`,
		Example: "watch id=w rv=r1 initial=true bookmarks timeout=1"},
	{Name: "events", Run: (*driver).events,
		Usage: `events id=W n=N
The next N events of W, one a line. Stops early at "(end of stream)", or
at "(no event in 10s)" after waiting that long for one.`,
		Example: "events id=w n=2"},
	{Name: "end", Run: (*driver).end,
		Usage: `end id=W
W's events until its stream ends, then "(end of stream)"; "(still open
after 10s)" when it does not end within 10s.`,
		Example: "end id=w"},
}

// openWatch is a watch stream being read in the background, decoded with
// apimachinery's and client-go's own decoders.
type openWatch struct {
	raw  chan decoded
	body io.Closer
	// causes: print an ERROR event's causes (watch id=w causes).
	causes bool
	// periodic: print periodic bookmarks (watch id=w periodic), each
	// version once; lastPeriodic is the version printed last.
	periodic     bool
	lastPeriodic string
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

func (d *driver) watchStep(t testing.TB, td *datadriven.TestData) string {
	d.serving()
	return d.openWatch(t, td)
}

func (d *driver) events(t testing.TB, td *datadriven.TestData) string {
	var n int
	td.ScanArgs(t, "n", &n)
	each := func() <-chan time.Time { return time.After(eventWait) }
	return d.read(d.watch(td, scenario.Arg(t, td, "id")), n, each, fmt.Sprintf("(no event in %v)", eventWait))
}

func (d *driver) end(t testing.TB, td *datadriven.TestData) string {
	total := time.After(eventWait)
	all := func() <-chan time.Time { return total }
	return d.read(d.watch(td, scenario.Arg(t, td, "id")), -1, all, fmt.Sprintf("(still open after %v)", eventWait))
}

// read prints w's events, one a line, until it has n of them (n < 0:
// until the stream ends). It waits for each until deadline() fires, then
// stops with the line quiet.
func (d *driver) read(w *openWatch, n int, deadline func() <-chan time.Time, quiet string) string {
	var out []string
	for n < 0 || len(out) < n {
		line, state := d.next(w, deadline())
		switch state {
		case streamEnded:
			return strings.Join(append(out, "(end of stream)"), "\n")
		case streamQuiet:
			return strings.Join(append(out, quiet), "\n")
		}
		if line != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

func (d *driver) watch(td *datadriven.TestData, id string) *openWatch {
	w, ok := d.watches[id]
	if !ok {
		td.Fatalf(d.t, "no watch %q: open it with `watch id=%s`", id, id)
	}
	return w
}

// openWatch starts a watch and its reader; the events are read by
// `events` and `end`.
func (d *driver) openWatch(t testing.TB, td *datadriven.TestData) string {
	q := url.Values{"watch": {"true"}}
	selectors(t, td, q)
	if v := q.Get("fieldSelector"); v != "" {
		q.Set("fieldSelector", strings.ReplaceAll(v, "$ns", d.namespace()))
	}
	if td.HasArg("rv") {
		q.Set("resourceVersion", d.norm.value(scenario.Arg(t, td, "rv")))
	}
	if td.HasArg("bookmarks") {
		q.Set("allowWatchBookmarks", "true")
	}
	if v := scenario.Arg(t, td, "initial"); v != "" {
		q.Set("sendInitialEvents", v)
		if !td.HasArg("no-match") {
			q.Set("resourceVersionMatch", "NotOlderThan")
		}
	}
	if v := scenario.Arg(t, td, "match"); v != "" {
		q.Set("resourceVersionMatch", v)
	}
	if v := scenario.Arg(t, td, "timeout"); v != "" {
		q.Set("timeoutSeconds", v)
	}
	accept := "application/json"
	if scenario.Arg(t, td, "format") == "protobuf" {
		accept = "application/vnd.kubernetes.protobuf"
	}
	if v := scenario.Arg(t, td, "accept"); v != "" {
		accept = v
	}
	if td.HasArg("ws") {
		return d.openWebSocket(scenario.Arg(t, td, "id"), d.base+"?"+q.Encode(), accept, scenario.Arg(t, td, "format") == "protobuf")
	}
	base := d.base
	if td.HasArg("all-namespaces") {
		base = strings.Replace(base, "/namespaces/"+d.namespace(), "", 1)
	}
	out := d.openHTTPWatch(scenario.Arg(t, td, "id"), base+"?"+q.Encode(), accept, td.HasArg("causes"))
	if w, ok := d.watches[scenario.Arg(t, td, "id")]; ok {
		w.periodic = td.HasArg("periodic")
	}
	return out
}

// openHTTPWatch starts a watch over HTTP, read in the background.
func (d *driver) openHTTPWatch(id, url, accept string, causes bool) string {
	req, err := http.NewRequestWithContext(context.Background(), "GET", url, nil)
	if err != nil {
		d.t.Fatal(err)
	}
	req.Header.Set("Accept", accept)
	resp := d.send(req)
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
	dec := restclientwatch.NewDecoder(streaming.NewDecoder(frames, info.StreamSerializer.Serializer), anyDecoder{})
	// The reader only decodes; labels are assigned in the test goroutine,
	// in the order the steps print them, so they are deterministic.
	w := &openWatch{raw: make(chan decoded, 1000), body: resp.Body, causes: causes}
	d.watches[id] = w
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
	obj, _, err := anyDecoder{}.Decode(we.Object.Raw, nil, nil)
	if err != nil {
		return decoded{err: err}
	}
	return decoded{typ: watch.EventType(we.Type), obj: obj}
}

// next reads one event and prints it ("" for an event it leaves out: a
// periodic bookmark unless the watch asked for them).
func (d *driver) next(w *openWatch, deadline <-chan time.Time) (string, streamState) {
	select {
	case r, ok := <-w.raw:
		if !ok {
			return "", streamEnded
		}
		return d.describe(r, w), streamEvent
	case <-deadline:
		return "", streamQuiet
	case <-d.target.Panics:
		d.raisePanic()
		return "", streamQuiet
	}
}

// describe prints one decoded event as w asked: with an ERROR's causes,
// with periodic bookmarks.
func (d *driver) describe(r decoded, w *openWatch) string {
	if r.err != nil {
		return "decode error: " + r.err.Error()
	}
	switch o := r.obj.(type) {
	case *metav1.Status:
		out := fmt.Sprintf("%s %d %s: %s", r.typ, o.Code, o.Reason, d.norm.message(o.Message))
		if w.causes {
			out += d.statusCauses(o)
		}
		return out
	case *corev1.ConfigMap, *coordinationv1.Lease, *corev1.Event, *unstructured.Unstructured:
		m, _ := meta.Accessor(o)
		if r.typ == watch.Bookmark {
			if m.GetAnnotations()[metav1.InitialEventsAnnotationKey] != "true" {
				rv := d.norm.collection(m.GetResourceVersion())
				if !w.periodic || rv == w.lastPeriodic {
					return ""
				}
				w.lastPeriodic = rv
				return "BOOKMARK rv=" + rv
			}
			return fmt.Sprintf("BOOKMARK initial-events-end rv=%s", d.norm.collection(m.GetResourceVersion()))
		}
		return fmt.Sprintf("%s %s", r.typ, d.printed(o))
	}
	return fmt.Sprintf("%s %T", r.typ, r.obj)
}
