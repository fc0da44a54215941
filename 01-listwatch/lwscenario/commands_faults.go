package lwscenario

import (
	"net/http"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/01-listwatch/testserver"
	"example.com/walkthrough/workshop/scenario"
)

// faultCommands make the server answer badly: an error instead of a
// response, an ERROR frame, or a frame that is not JSON at all.
var faultCommands = []scenario.Command[*Driver]{
	{Name: "fail", Run: (*Driver).fail,
		Usage: `fail verb=list|continue|watch|bookmark (code=N [reason=R] [html] [retry-after=S] | reset) [times=N]
The next request(s) of the verb get an error answer: a Status with code
N, reason R and the input as its message (else the code's text), or an
HTML page with html; or, with reset, a connection reset and no answer at
all. verb=bookmark breaks the next streaming list after its initial
events: an ERROR frame with that Status comes instead of the bookmark.
Against a real server only code, reason and times are played.`,
		Example: "fail verb=watch code=429 reason=TooManyRequests retry-after=1"},
	{Name: "error-frame", Run: (*Driver).fail,
		Usage: `error-frame code=N [reason=R]
Every open watch gets an ERROR frame carrying a Status with code N, reason
R and the input as its message (else the code's text).`,
		Example: "error-frame code=410 reason=Expired"},
	{Name: "raw-frame", Run: (*Driver).rawFrame,
		Usage: `raw-frame [truncated]
Writes the input, as is, into every open watch stream, ended by a newline
unless truncated. Scripted server only.`,
		Example: "raw-frame\n{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\""},
}

func (d *Driver) fail(t testing.TB, td *datadriven.TestData) string {
	var code int
	if !td.HasArg("reset") {
		td.ScanArgs(t, "code", &code)
	}
	reason := metav1.StatusReason("")
	if td.HasArg("reason") {
		var s string
		td.ScanArgs(t, "reason", &s)
		reason = metav1.StatusReason(s)
	}
	message := strings.TrimSpace(td.Input)
	if message == "" {
		message = http.StatusText(code)
	}
	if td.Cmd == "error-frame" {
		d.b.SendError(int32(code), reason, message)
		return d.report(td, nil)
	}
	f := testserver.Fault{Code: int32(code), Reason: reason, Message: message}
	td.ScanArgs(t, "verb", &f.Verb)
	if td.HasArg("html") {
		f.Body = "<html><body>" + message + "</body></html>"
	}
	td.MaybeScanArgs(t, "retry-after", &f.RetryAfter)
	f.Reset = td.HasArg("reset")
	times := 1
	td.MaybeScanArgs(t, "times", &times)
	for range times {
		if err := d.b.Fail(f); err != nil {
			td.Fatalf(t, "%v", err)
		}
	}
	return d.report(td, nil)
}

func (d *Driver) rawFrame(t testing.TB, td *datadriven.TestData) string {
	raw := strings.TrimRight(td.Input, "\n")
	if !td.HasArg("truncated") {
		raw += "\n"
	}
	d.scripted(t, td).SendRaw([]byte(raw))
	return d.report(td, nil)
}
