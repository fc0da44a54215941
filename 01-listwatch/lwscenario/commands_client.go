package lwscenario

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"example.com/walkthrough/workshop/scenario"
)

// clientCommands drive the client's parts alone, with no Reflector: the
// frame decoder, the object decoder, the pager, one LIST, one WATCH.
var clientCommands = []scenario.Command[*Driver]{
	{Name: "decode", Run: (*Driver).decode,
		Usage: `decode
The frame decoder alone, on the frames given as input (one JSON object a
line), until the stream ends or fails: each event as TYPE ns/name@rv, an
ERROR frame's code and reason, then (end of stream), EOF, unexpected EOF
or decode error.`,
		Example: "decode\n{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\",\"resourceVersion\":\"1\"}}}"},
	{Name: "decode-object", Run: (*Driver).decodeObject,
		Usage: `decode-object [unstructured]
Each input line is one object's JSON, decoded alone: as a pod, or as
unstructured. Prints its Go type and key; an unstructured object's
apiVersion/kind, and each field of its spec with the Go type its number
became; or decode error.`,
		Example: "decode-object unstructured\n{\"kind\":\"Rollout\",\"apiVersion\":\"x/v1\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\"}}"},
	{Name: "list-all", Run: (*Driver).listAll,
		Usage: `list-all page-size=N
One whole LIST through the pager and the client, N items a page, with no
Reflector: the requests, then listed K pods at rv=V, or the error.
Scripted server only.`,
		Example: "list-all page-size=2"},
	{Name: "list", Run: (*Driver).list,
		Usage: `list [limit=N] [rv=V] [continue=T]
One LIST through the client alone, with no pager and no Reflector: the
request, then listed K pods at rv=V (", more to come" with a continue
token), or the error with its reason and code. When the client sent the
request again, how long it waited in all, on the bubble's clock (a
Retry-After header says how long). Scripted server only.`,
		Example: "list limit=2 rv=0"},
	{Name: "watch", Run: (*Driver).watch,
		Usage: `watch [rv=V]
One watch through the client alone, with no Reflector. Its events join
the trace as "watch: ..." lines, and "watch: closed" when the stream
ends; the test's end stops it. Prints the request, or the error with its
reason and code. Scripted server only.`,
		Example: "watch rv=3"},
}

func (d *Driver) decode(t testing.TB, td *datadriven.TestData) string {
	var out []string
	next := d.im.NewFrameDecoder(strings.NewReader(td.Input))
	for {
		line, err := next()
		if errors.Is(err, io.EOF) {
			out = append(out, "(end of stream)")
			break
		}
		out = append(out, line)
		if _, status := err.(apierrors.APIStatus); err != nil && !status {
			break // a broken stream; an ERROR frame is an event like any other
		}
	}
	return d.report(td, out)
}

func (d *Driver) decodeObject(t testing.TB, td *datadriven.TestData) string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(td.Input), "\n") {
		out = append(out, d.describeDecoded(d.im.DecodeObject([]byte(line), !td.HasArg("unstructured"))))
	}
	return d.report(td, out)
}

// describeDecoded writes a decoded object for the decode-object command:
// its Go type and key, and for an unstructured object its apiVersion and
// kind and each field of its spec with the Go type the number became.
func (d *Driver) describeDecoded(obj runtime.Object, err error) string {
	if err != nil {
		return "decode error"
	}
	line := fmt.Sprintf("%T %s", obj, d.describe(obj))
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return line
	}
	line += " " + u.GetAPIVersion() + "/" + u.GetKind()
	spec, _ := u.Object["spec"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(spec)) {
		line += fmt.Sprintf(" %s=%v(%T)", k, spec[k], spec[k])
	}
	return line
}

func (d *Driver) listAll(t testing.TB, td *datadriven.TestData) string {
	srv := d.scripted(t, td)
	var pageSize int64
	td.ScanArgs(t, "page-size", &pageSize)
	start := time.Now()
	rv, n, err := d.im.ListAll(t.(*testing.T).Context(), srv, pageSize)
	out := append(d.tr.Take(), retryWaits(start)...)
	if err != nil {
		out = append(out, fmt.Sprintf("error: %v", err))
	} else {
		out = append(out, fmt.Sprintf("listed %d pods at rv=%s", n, rv))
	}
	return d.report(td, out)
}

func (d *Driver) list(t testing.TB, td *datadriven.TestData) string {
	srv := d.scripted(t, td)
	var opts metav1.ListOptions
	td.MaybeScanArgs(t, "limit", &opts.Limit)
	td.MaybeScanArgs(t, "rv", &opts.ResourceVersion)
	td.MaybeScanArgs(t, "continue", &opts.Continue)
	start := time.Now()
	rv, cont, n, err := d.im.ListPage(t.(*testing.T).Context(), srv, opts)
	out := append(d.tr.Take(), retryWaits(start)...)
	switch {
	case err != nil:
		out = append(out, describeError(err))
	case cont != "":
		out = append(out, fmt.Sprintf("listed %d pods at rv=%s, more to come", n, rv))
	default:
		out = append(out, fmt.Sprintf("listed %d pods at rv=%s", n, rv))
	}
	return d.report(td, out)
}

func (d *Driver) watch(t testing.TB, td *datadriven.TestData) string {
	srv := d.scripted(t, td)
	var opts metav1.ListOptions
	td.MaybeScanArgs(t, "rv", &opts.ResourceVersion)
	events, err := d.im.Watch(t.(*testing.T).Context(), srv, opts)
	out := d.tr.Take()
	if err != nil {
		return d.report(td, append(out, describeError(err)))
	}
	go func() {
		for ev := range events {
			d.tr.Add("watch: %s", ev)
		}
		d.tr.Add("watch: closed")
	}()
	return d.report(td, out)
}

// retryWaits says how long the client waited between its tries since
// start, if at all. In the bubble time moves only while every goroutine
// waits, so this is the sum of the waits the client chose, to the
// nanosecond: the Retry-After seconds, or a second after a reset.
func retryWaits(start time.Time) []string {
	if waited := time.Since(start); waited > 0 {
		return []string{fmt.Sprintf("(the client waited %s in all between its tries)", waited)}
	}
	return nil
}

// describeError writes a failed request's error with its reason and code.
func describeError(err error) string {
	code := int32(0)
	if st, ok := err.(apierrors.APIStatus); ok {
		code = st.Status().Code
	}
	return fmt.Sprintf("error: %v (reason %s, code %d)", err, apierrors.ReasonForError(err), code)
}
