package watchserver_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"example.com/walkthrough/workshop/scenario"
)

// listCommands list the scenario's ConfigMaps, whole or in pages.
var listCommands = []scenario.Command[*driver]{
	{Name: "list", Run: (*driver).list,
		Usage: `list [rv=RV] [match=M] [limit=N] [continue=C] [selector=S] [fields=F] [watch=W] [all-namespaces] [fresh] [causes]
LISTs the scenario's namespace (every namespace with all-namespaces), with
resourceVersion RV (a label such as r1, or 0: from the cache, which the
server's watch side then serves), resourceVersionMatch M, limit N, the
continue token C (a label such as c1, or any text), labelSelector S and
fieldSelector F, where $ns is the scenario's namespace. watch=W sends a
value the server must read as false, such as 0 (with timeoutSeconds=1,
so a server taking it for a watch ends it within a second). "fresh"
repeats a LIST until the cache has seen the scenario's newest write (for
at most 10s). Prints "200 list rv=latest [continue=cN] [remaining=N]" and each
object indented, or an error's Status.`,
		Example: "list limit=2 selector=tier=web"},
}

func (d *driver) list(t testing.TB, td *datadriven.TestData) string {
	q := url.Values{}
	if td.HasArg("rv") {
		q.Set("resourceVersion", d.norm.value(scenario.Arg(t, td, "rv")))
		if scenario.Arg(t, td, "rv") == "0" {
			d.serving() // only a LIST at resourceVersion=0 reads the cache
		}
	}
	if v := scenario.Arg(t, td, "match"); v != "" {
		q.Set("resourceVersionMatch", v)
	}
	selectors(t, td, q)
	if v := q.Get("fieldSelector"); v != "" {
		// $ns is the scenario's namespace, whose name differs per run.
		q.Set("fieldSelector", strings.ReplaceAll(v, "$ns", d.namespace()))
	}
	if v := scenario.Arg(t, td, "watch"); v != "" {
		q.Set("watch", v)
		q.Set("timeoutSeconds", "1")
	}
	if v := scenario.Arg(t, td, "limit"); v != "" {
		q.Set("limit", v)
	}
	if v := scenario.Arg(t, td, "continue"); v != "" {
		q.Set("continue", d.norm.value(v))
	}
	base := d.base
	if td.HasArg("all-namespaces") {
		base = strings.Replace(base, "/namespaces/"+d.namespace(), "", 1)
	}
	if td.HasArg("fresh") {
		return d.result(d.freshList(base + "?" + q.Encode()))
	}
	return d.result(d.do("GET", base+"?"+q.Encode(), nil))
}

// selectors sets labelSelector and fieldSelector from the step's selector=
// and fields= arguments (no spaces: app=web, app!=db, metadata.name=a).
func selectors(t testing.TB, td *datadriven.TestData, q url.Values) {
	if v := scenario.Arg(t, td, "selector"); v != "" {
		q.Set("labelSelector", v)
	}
	if v := scenario.Arg(t, td, "fields"); v != "" {
		q.Set("fieldSelector", v)
	}
}

// namespace is the namespace the scenario owns, read from Base.
func (d *driver) namespace() string {
	rest, _ := strings.CutSuffix(d.target.Base, "/configmaps")
	_, ns, _ := strings.Cut(rest, "/namespaces/")
	return ns
}

// freshList repeats a LIST (at resourceVersion=0, from the cache) until
// its resourceVersion reaches the newest write the scenario made, for at
// most eventWait. The cache follows etcd a moment behind, on both servers;
// "fresh" makes what it prints exact. A 429 from a cache that is
// (re)initializing is asked again too, as a client would after its
// Retry-After: a cache that relisted under load failed a CI run here.
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
		settled := code == http.StatusOK && rv >= d.lastWrite || code != http.StatusOK && code != http.StatusTooManyRequests
		if settled || time.Now().After(deadline) {
			return code, body
		}
		time.Sleep(5 * time.Millisecond)
	}
}
