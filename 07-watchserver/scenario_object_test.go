package watchserver_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/workshop/scenario"
)

// objectCommands write and read one ConfigMap of the scenario's namespace.
// Versions are written as the labels the output shows (r1, r2, ...: see
// normalise_test.go) and sent as the real versions behind them. Each
// prints the server's response (responses_test.go).
var objectCommands = []scenario.Command[*driver]{
	{Name: "resource", Run: (*driver).resource,
		Usage: `resource name=R
Makes the steps that follow act on R in the scenario's namespace:
configmaps (where every file starts), leases (coordination.k8s.io/v1),
whose objects' input lines are their spec, holder=H and duration=SECONDS,
printed as {duration=D,holder=H} where a ConfigMap prints its data, or
rollouts (walkthrough.example.com/v1alpha1, a custom resource: crd
create first), whose input lines KEY=VALUE are its spec's fields and
status.KEY=VALUE its status's, printed as {KEY=VALUE,...}, then
status={...} when it has a status, and gen=GENERATION, or deployments
(apps/v1), whose input lines are replicas=N, image=I, paused=true,
note=TEXT (an annotation) and status.observedGeneration=N,
status.replicas=N, printed as {image=I,note=TEXT,paused=true,pull=POLICY,
replicas=N}, then status={...} when it has one, defaults={...} (the
fields apps/v1 defaulting fills in) and gen=GENERATION, or events
(core/v1), whose input lines are involved=KIND/NAME (an object of the
scenario's namespace), reason=R, message=TEXT (spaces and all),
type=T, count=N, first=TIME and last=TIME (RFC 3339) and source=COMPONENT,
printed as {count=N,first=TIME,involved=KIND/NAME,last=TIME,message=TEXT,
reason=R,source=C,type=T}, the fields that are set. In a
file that watches, it first LISTs R at resourceVersion=0, so that our
server's cache of R, made at its first use, is up before the first write,
as kube-apiserver's is. Prints the collection's path, the namespace as NS.`,
		Example: "resource name=leases"},
	{Name: "create", Run: (*driver).create,
		Usage: `create name=N [labels=K=V,...] [namespace=NS] [rv=RV] [causes]
POSTs a ConfigMap named N with those labels, its data the input's KEY=VALUE
lines. namespace= puts a namespace into the body (the URL's is the
scenario's), rv= a resourceVersion. Prints the response: "201 NAME
[LABELS] {DATA} rv=R", or an error's Status, "CODE REASON: MESSAGE", with
its causes when the step says "causes".`,
		Example: "create name=a labels=app=web\nk=1"},
	{Name: "update", Run: (*driver).update,
		Usage: `update name=N [body-name=M] [labels=K=V,...] [rv=RV] [subresource=status] [causes]
PUTs the ConfigMap N, with the input's data and those labels, at
resourceVersion RV when given; body-name= names another object in the
body than in the URL; subresource=status PUTs to N/status. Prints the
response, as create does.`,
		Example: "update name=a rv=r1\nk=2"},
	{Name: "delete", Run: (*driver).delete,
		Usage: `delete name=N
DELETEs the ConfigMap N. Prints the response, as create does.`,
		Example: "delete name=a"},
	{Name: "get", Run: (*driver).get,
		Usage: `get name=N
GETs the ConfigMap N. Prints the response, as create does.`,
		Example: "get name=a"},
}

func (d *driver) resource(t testing.TB, td *datadriven.TestData) string {
	root, _, _ := strings.Cut(d.target.Base, "/api/v1/")
	ns := d.namespace()
	switch name := scenario.MustArg(t, td, "name"); name {
	case "configmaps":
		d.base, d.lease, d.custom, d.deployment, d.event = d.target.Base, false, false, false, false
	case "leases", "rollouts", "deployments", "events":
		d.base, d.lease, d.custom, d.deployment, d.event = root+"/apis/coordination.k8s.io/v1/namespaces/"+ns+"/leases", true, false, false, false
		switch name {
		case "events":
			d.base, d.lease, d.event = root+"/api/v1/namespaces/"+ns+"/events", false, true
		case "rollouts":
			d.base, d.lease, d.custom = root+"/apis/walkthrough.example.com/v1alpha1/namespaces/"+ns+"/rollouts", false, true
		case "deployments":
			d.base, d.lease, d.deployment = root+"/apis/apps/v1/namespaces/"+ns+"/deployments", false, true
		}
		if d.watchSide {
			// Our server starts a resource's watch cache at its first
			// request, kube-apiserver every one at its own start: a
			// LIST from the cache starts ours before the file's first
			// write, so a watch from that write is in its window.
			d.do("GET", d.base+"?resourceVersion=0", nil)
		}
	default:
		t.Fatalf("resource %q: configmaps, events, leases, deployments or rollouts", name)
	}
	return strings.Replace(strings.TrimPrefix(d.base, root), "/"+ns+"/", "/NS/", 1)
}

// body is a request body for the current resource.
func (d *driver) body(namespace, name, rv, labelList, input string) []byte {
	if d.lease {
		return leaseIn(namespace, name, rv, labelList, input)
	}
	if d.custom {
		return rolloutIn(namespace, name, rv, labelList, input)
	}
	if d.deployment {
		return deploymentIn(namespace, name, rv, labelList, input)
	}
	if d.event {
		return eventIn(namespace, d.namespace(), name, rv, labelList, input)
	}
	return configMapIn(namespace, name, rv, labelList, input)
}

func (d *driver) create(t testing.TB, td *datadriven.TestData) string {
	body := d.body(scenario.Arg(t, td, "namespace"), scenario.Arg(t, td, "name"), d.norm.value(scenario.Arg(t, td, "rv")), scenario.Arg(t, td, "labels"), td.Input)
	return d.result(d.do("POST", d.base, body))
}

func (d *driver) update(t testing.TB, td *datadriven.TestData) string {
	bodyName := scenario.Arg(t, td, "name")
	if td.HasArg("body-name") {
		bodyName = scenario.Arg(t, td, "body-name")
	}
	body := d.body("", bodyName, d.norm.value(scenario.Arg(t, td, "rv")), scenario.Arg(t, td, "labels"), td.Input)
	url := d.base + "/" + scenario.Arg(t, td, "name")
	if sub := scenario.Arg(t, td, "subresource"); sub != "" {
		url += "/" + sub
	}
	return d.result(d.do("PUT", url, body))
}

func (d *driver) delete(t testing.TB, td *datadriven.TestData) string {
	return d.result(d.do("DELETE", d.base+"/"+scenario.Arg(t, td, "name"), nil))
}

func (d *driver) get(t testing.TB, td *datadriven.TestData) string {
	return d.result(d.do("GET", d.base+"/"+scenario.Arg(t, td, "name"), nil))
}

// configMap builds a request body from name=... and key=value lines.
func configMap(name, rv, labelList string, input string) []byte {
	return configMapIn("", name, rv, labelList, input)
}

// configMapIn is configMap with a namespace in the body ("" for none).
func configMapIn(namespace, name, rv, labelList string, input string) []byte {
	cm := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: rv}, Data: dataOf(input)}
	cm.Labels = labelsOf(labelList)
	b, _ := json.Marshal(cm)
	return b
}

// labelsOf reads a step's labels=k=v,k=v as a label map (nil for none).
func labelsOf(labelList string) map[string]string {
	if labelList == "" {
		return nil
	}
	labels := map[string]string{}
	for _, l := range strings.Split(labelList, ",") {
		k, v, _ := strings.Cut(l, "=")
		labels[k] = v
	}
	return labels
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

// leaseIn is a Lease's request body: the input's holder= and duration=
// lines are its spec.
func leaseIn(namespace, name, rv, labelList string, input string) []byte {
	l := &coordinationv1.Lease{TypeMeta: metav1.TypeMeta{Kind: "Lease", APIVersion: "coordination.k8s.io/v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: rv}}
	for k, v := range dataOf(input) {
		switch k {
		case "holder":
			l.Spec.HolderIdentity = &v
		case "duration":
			n, _ := strconv.Atoi(v)
			d := int32(n)
			l.Spec.LeaseDurationSeconds = &d
		}
	}
	l.Labels = labelsOf(labelList)
	b, _ := json.Marshal(l)
	return b
}
