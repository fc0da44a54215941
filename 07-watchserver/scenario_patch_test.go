package watchserver_test

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// patchCommands change part of a ConfigMap (patch.go).
var patchCommands = []scenario.Command[*driver]{
	{Name: "patch", Run: (*driver).patch,
		Usage: `patch name=N type=merge|strategic|json|MEDIA-TYPE [validation=V] [manager=M] [causes]
PATCHes the ConfigMap N with the input, sent as it is written (versions
written as labels, such as "r1", are sent as the real ones), with the
Content-Type of a merge patch (RFC 7386), a strategic merge patch or a
JSON patch (RFC 6902), or any other MEDIA-TYPE; validation= sends
fieldValidation=V, manager= fieldManager=M. Prints the response, as
create does.`,
		Example: "patch name=a type=merge\n{\"data\":{\"k\":\"2\"}}"},
}

// patchMediaTypes are the Content-Types of the three kinds of patch.
var patchMediaTypes = map[string]string{
	"merge":     "application/merge-patch+json",
	"strategic": "application/strategic-merge-patch+json",
	"json":      "application/json-patch+json",
}

func (d *driver) patch(t testing.TB, td *datadriven.TestData) string {
	contentType := scenario.MustArg(t, td, "type")
	if mt, ok := patchMediaTypes[contentType]; ok {
		contentType = mt
	}
	q := url.Values{}
	if v := scenario.Arg(t, td, "validation"); v != "" {
		q.Set("fieldValidation", v)
	}
	if v := scenario.Arg(t, td, "manager"); v != "" {
		q.Set("fieldManager", v)
	}
	target := d.base + "/" + scenario.Arg(t, td, "name")
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	req, err := http.NewRequest("PATCH", target, bytes.NewReader([]byte(d.realVersions(td.Input))))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	resp := d.send(req)
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return d.result(resp.StatusCode, out)
}

// realVersions replaces each quoted version label in a patch ("r1") by
// the real version behind it.
func (d *driver) realVersions(patch string) string {
	for label, real := range d.norm.values {
		if strings.HasPrefix(label, "r") {
			patch = strings.ReplaceAll(patch, `"`+label+`"`, `"`+real+`"`)
		}
	}
	return patch
}
