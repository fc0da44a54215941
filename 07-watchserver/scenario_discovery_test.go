package watchserver_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/workshop/scenario"
)

// discoveryCommands read the documents a client reads before its first
// request (discovery.go).
var discoveryCommands = []scenario.Command[*driver]{
	{Name: "discover", Run: (*driver).discover,
		Usage: `discover path=P [group=G]
GETs the discovery document at P (/api, /apis, /api/v1, /apis/G or
/apis/G/V), as kubectl does before its first request, and prints its kind
and what a client reads in it: /api's versions and the address for every
client ("the host the client used" when it is the one the request went
to); of /apis's groups, G's versions and preferred version (without
group=, "groups this server serves: none", the line of the files
recorded when it served the core group only); /apis/G's the same; a
resource list's configmaps, events, deployments, leases,
customresourcedefinitions and rollouts, and the status subresource of
deployments and of the last two. Of the verbs, the one this server does
not serve (deletecollection) is left out, and so is the
storageVersionHash of customresourcedefinitions, stored in another
version: see "How kube-apiserver differs".`,
		Example: "discover path=/apis group=coordination.k8s.io"},
}

// discovered are the resources a resource list's lines print, of what
// kube-apiserver lists.
var discovered = []string{"configmaps", "events", "deployments", "deployments/status", "leases", "customresourcedefinitions", "customresourcedefinitions/status", "rollouts", "rollouts/status"}

// storedDifferently are the resources whose storageVersionHash is left
// out: kube-apiserver stores CRDs as apiextensions.k8s.io/v1beta1, this
// server as v1, and the hash says which (see "How kube-apiserver differs").
var storedDifferently = []string{"customresourcedefinitions"}

// unserved are the verbs kube-apiserver lists for configmaps that this
// server does not serve.
var unserved = []string{"deletecollection"}

func (d *driver) discover(t testing.TB, td *datadriven.TestData) string {
	root, _, _ := strings.Cut(d.target.Base, "/api/v1/")
	path := scenario.Arg(t, td, "path")
	code, body := d.do("GET", root+path, nil)
	if code != 200 {
		return d.result(code, body)
	}
	var kind metav1.TypeMeta
	decode := func(into any) {
		if err := json.Unmarshal(body, into); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, body)
		}
	}
	decode(&kind)
	out := fmt.Sprintf("%d %s", code, kind.Kind)
	if kind.APIVersion != "" {
		out += " apiVersion=" + kind.APIVersion
	}
	switch kind.Kind {
	case "APIVersions":
		var doc metav1.APIVersions
		decode(&doc)
		out += "\nversions: " + strings.Join(doc.Versions, ",")
		for _, a := range doc.ServerAddressByClientCIDRs {
			out += fmt.Sprintf("\naddress for %s: %s", a.ClientCIDR, hostAs(a.ServerAddress, root))
		}
	case "APIGroupList":
		g := scenario.Arg(t, td, "group")
		if g == "" {
			out += "\ngroups this server serves: none"
			break
		}
		var doc metav1.APIGroupList
		decode(&doc)
		i := slices.IndexFunc(doc.Groups, func(x metav1.APIGroup) bool { return x.Name == g })
		if i < 0 {
			out += "\n" + g + ": not listed"
			break
		}
		out += "\n" + groupLine(doc.Groups[i])
	case "APIGroup":
		var doc metav1.APIGroup
		decode(&doc)
		out += "\n" + groupLine(doc)
	case "APIResourceList":
		var doc metav1.APIResourceList
		decode(&doc)
		out += " groupVersion=" + doc.GroupVersion
		for _, r := range doc.APIResources {
			if !slices.Contains(discovered, r.Name) {
				continue
			}
			hash := r.StorageVersionHash
			if slices.Contains(storedDifferently, r.Name) {
				hash = "(left out)"
			}
			verbs := slices.DeleteFunc(slices.Clone([]string(r.Verbs)), func(v string) bool { return slices.Contains(unserved, v) })
			out += fmt.Sprintf("\n%s: singular=%s namespaced=%t kind=%s verbs=%s shortNames=%s storageVersionHash=%s",
				r.Name, r.SingularName, r.Namespaced, r.Kind, strings.Join(verbs, ","), strings.Join(r.ShortNames, ","), hash)
		}
	}
	return out
}

// hostAs prints a server address as "the URL's host" when it is the host
// the request went to, the address itself otherwise.
func hostAs(address, root string) string {
	if strings.HasSuffix(root, "//"+address) {
		return "the host the client used"
	}
	return address
}

// groupLine prints a group as discovery lists it: its versions and the
// one preferred.
func groupLine(g metav1.APIGroup) string {
	var versions []string
	for _, v := range g.Versions {
		versions = append(versions, v.GroupVersion+"("+v.Version+")")
	}
	return fmt.Sprintf("%s: versions=%s preferred=%s(%s)", g.Name, strings.Join(versions, ","), g.PreferredVersion.GroupVersion, g.PreferredVersion.Version)
}
