package watchserver_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"example.com/walkthrough/workshop/scenario"
)

// frameCommands try the watch stream's frame encoder on its own, with no
// server involved.
var frameCommands = []scenario.Command[*driver]{
	{Name: "frame", Run: (*driver).frame,
		Usage: `frame type=ADDED|MODIFIED|DELETED|BOOKMARK|ERROR [name=N] [rv=RV] [format=protobuf] [code=C]
Encodes one event with the target's encoder: a ConfigMap N of namespace
ns at resourceVersion RV, its data the input's KEY=VALUE lines (a ConfigMap
without a name has no namespace and no data, as a bookmark's), or for
ERROR the Status of an expired version with code C. Prints a JSON frame
quoted, so that its closing newline shows, a protobuf one in hex, 32 bytes
a line, or the error.`,
		Example: "frame type=ADDED name=a rv=7 format=protobuf\nk=1"},
}

func (d *driver) frame(t testing.TB, td *datadriven.TestData) string {
	if d.target.Frame == nil {
		td.Fatalf(d.t, "this target cannot encode frames")
	}
	typ := watch.EventType(scenario.Arg(t, td, "type"))
	var obj runtime.Object
	if typ == watch.Error {
		code, _ := strconv.Atoi(scenario.Arg(t, td, "code"))
		obj = &metav1.Status{Status: metav1.StatusFailure, Code: int32(code),
			Reason: metav1.StatusReasonExpired, Message: "too old resource version: 1 (2)"}
	} else {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: scenario.Arg(t, td, "name"), ResourceVersion: scenario.Arg(t, td, "rv")}}
		if cm.Name != "" {
			cm.Namespace = "ns"
			cm.Data = dataOf(td.Input)
		}
		obj = cm
	}
	protobuf := scenario.Arg(t, td, "format") == "protobuf"
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
