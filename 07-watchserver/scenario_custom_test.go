package watchserver_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"example.com/walkthrough/workshop/scenario"
)

// customCommands register the Rollout's CustomResourceDefinition, whose
// custom resources the object, list and watch commands then act on
// (resource name=rollouts).
var customCommands = []scenario.Command[*driver]{
	{Name: "crd", Run: (*driver).crd,
		Usage: `crd create|get|delete
create: deletes the Rollout's CRD if a server has it (and waits until it
is gone), then POSTs 06-controller/crd/rollouts.walkthrough.example.com.yaml.
get: GETs it, once it is Established (polling for up to 10s, as a client
waits for the condition). Both print the response: "CODE NAME gen=G
accepted=KIND/PLURAL conditions=TYPE=STATUS(REASON),... stored=VERSIONS
rv=R", or an error's Status. delete: DELETEs it, then GETs it until it is
gone (kube-apiserver's finalizer first deletes every Rollout), and prints
"200 deleted, then GET: " and the last GET's response.`,
		Example: "crd create"},
}

// crdName is the Rollout's CRD, the one manifest the scenarios post.
const crdName = "rollouts.walkthrough.example.com"

// crdManifest is the Rollout's CRD as chapter 06 applies it, in JSON.
func crdManifest(t testing.TB) []byte {
	y, err := os.ReadFile(filepath.Join("..", "06-controller", "crd", crdName+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON(y)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func (d *driver) crd(t testing.TB, td *datadriven.TestData) string {
	root, _, _ := strings.Cut(d.target.Base, "/api/v1/")
	url := root + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	switch action := td.CmdArgs[0].Key; action {
	case "create":
		// A cluster (kube-apiserver's) keeps the CRD between files:
		// start from none, as our fresh server does.
		if code, _ := d.do("DELETE", url+"/"+crdName, nil); code == 200 {
			deadline := time.Now().Add(time.Minute)
			for code == 200 && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
				code, _ = d.do("GET", url+"/"+crdName, nil)
			}
		}
		return d.result(d.do("POST", url, crdManifest(t)))
	case "get":
		deadline := time.Now().Add(10 * time.Second)
		for {
			code, body := d.do("GET", url+"/"+crdName, nil)
			if code != 200 || established(body) || time.Now().After(deadline) {
				// A client that waits for Established then reads
				// discovery: kube-apiserver's follows a moment later.
				gv := root + "/apis/walkthrough.example.com/v1alpha1"
				for c, _ := d.do("GET", gv, nil); c != 200 && code == 200 && time.Now().Before(deadline); c, _ = d.do("GET", gv, nil) {
					time.Sleep(50 * time.Millisecond)
				}
				return d.result(code, body)
			}
			time.Sleep(50 * time.Millisecond)
		}
	case "delete":
		// kube-apiserver answers with the CRD marked Terminating, and
		// deletes it once its finalizer has deleted every Rollout; ours
		// deletes both at once. What both end with is printed: the CRD's
		// 404, once it is gone.
		code, body := d.do("DELETE", url+"/"+crdName, nil)
		if code != 200 {
			return d.result(code, body)
		}
		deadline := time.Now().Add(time.Minute)
		for code == 200 && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			code, body = d.do("GET", url+"/"+crdName, nil)
		}
		return "200 deleted, then GET: " + d.result(code, body)
	default:
		t.Fatalf("crd %s: create, get or delete", action)
		return ""
	}
}

// established says a CRD's body has the condition Established=True.
func established(body []byte) bool {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(body); err != nil {
		return false
	}
	conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conditions {
		if m, _ := c.(map[string]any); m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// crdObject prints a CRD: its name, generation, the names accepted, its
// conditions and the versions stored.
func (d *driver) crdObject(u *unstructured.Unstructured) string {
	kind, _, _ := unstructured.NestedString(u.Object, "status", "acceptedNames", "kind")
	plural, _, _ := unstructured.NestedString(u.Object, "status", "acceptedNames", "plural")
	conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	var cs []string
	for _, c := range conditions {
		m, _ := c.(map[string]any)
		cs = append(cs, fmt.Sprintf("%v=%v(%v)", m["type"], m["status"], m["reason"]))
	}
	if len(cs) == 0 {
		cs = []string{"none"}
	}
	stored, _, _ := unstructured.NestedStringSlice(u.Object, "status", "storedVersions")
	return fmt.Sprintf("%s gen=%d accepted=%s/%s conditions=%s stored=%s rv=%s", u.GetName(), u.GetGeneration(), kind, plural,
		strings.Join(cs, ","), strings.Join(stored, ","), d.norm.label(u.GetResourceVersion()))
}

// customObject prints a custom resource as objectWith prints a
// ConfigMap, its spec's fields where a ConfigMap has data, then its
// status's when it has one, and its generation.
func (d *driver) customObject(u *unstructured.Unstructured) string {
	spec, _, _ := unstructured.NestedMap(u.Object, "spec")
	out := strings.TrimSuffix(d.objectWith(&metav1.ObjectMeta{Name: u.GetName(), Labels: u.GetLabels()}, flat(spec)), " rv=none")
	if status, ok, _ := unstructured.NestedMap(u.Object, "status"); ok {
		out += " status={" + strings.Join(pairs(flat(status)), ",") + "}"
	}
	return fmt.Sprintf("%s gen=%d rv=%s", out, u.GetGeneration(), d.norm.label(u.GetResourceVersion()))
}

// flat prints a map's leaves as KEY=VALUE, nested keys joined by dots.
func flat(m map[string]any) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(strings.TrimPrefix(prefix+"."+k, "."), x)
			}
		default:
			b, _ := json.Marshal(v)
			out[prefix] = strings.Trim(string(b), `"`)
		}
	}
	walk("", m)
	return out
}

// pairs is a map's KEY=VALUE pairs in key order.
func pairs(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, k+"="+m[k])
	}
	return out
}

// rolloutIn is a Rollout's request body: the input's KEY=VALUE lines are
// its spec (status.KEY=VALUE its status), a VALUE that is a number sent
// as one.
func rolloutIn(namespace, name, rv, labelList string, input string) []byte {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion("walkthrough.example.com/v1alpha1")
	u.SetKind("Rollout")
	u.SetName(name)
	if namespace != "" {
		u.SetNamespace(namespace)
	}
	if rv != "" {
		u.SetResourceVersion(rv)
	}
	if l := labelsOf(labelList); l != nil {
		u.SetLabels(l)
	}
	for k, v := range dataOf(input) {
		var value any = v
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			value = n
		}
		path := strings.Split(k, ".")
		if path[0] != "status" {
			path = append([]string{"spec"}, path...)
		}
		_ = unstructured.SetNestedField(u.Object, value, path...)
	}
	b, _ := json.Marshal(u.Object)
	return b
}
