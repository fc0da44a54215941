package watchserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
)

// How a step prints what the server answered: an object, a list, or the
// Status of an error, its versions and tokens normalised (normalise_test.go).

// object prints a ConfigMap the way every step does: name, data, label.
func (d *driver) object(cm *corev1.ConfigMap) string {
	return d.objectWith(&cm.ObjectMeta, cm.Data)
}

// leaseObject prints a Lease as object prints a ConfigMap, its spec's holder
// and duration where a ConfigMap has data.
func (d *driver) leaseObject(l *coordinationv1.Lease) string {
	spec := map[string]string{}
	if l.Spec.HolderIdentity != nil {
		spec["holder"] = *l.Spec.HolderIdentity
	}
	if l.Spec.LeaseDurationSeconds != nil {
		spec["duration"] = strconv.Itoa(int(*l.Spec.LeaseDurationSeconds))
	}
	return d.objectWith(&l.ObjectMeta, spec)
}

// printed prints a ConfigMap, a Lease, a Deployment, an Event or a custom resource.
func (d *driver) printed(obj runtime.Object) string {
	switch o := obj.(type) {
	case *corev1.ConfigMap:
		return d.object(o)
	case *coordinationv1.Lease:
		return d.leaseObject(o)
	case *appsv1.Deployment:
		return d.deploymentObject(o)
	case *corev1.Event:
		return d.eventObject(o)
	case *unstructured.Unstructured:
		if o.GetKind() == "CustomResourceDefinition" {
			return d.crdObject(o)
		}
		return d.customObject(o)
	}
	return fmt.Sprintf("%T", obj)
}

// objectWith prints name, labels, the KEY=VALUE pairs in key order and
// the version.
func (d *driver) objectWith(m *metav1.ObjectMeta, pairs map[string]string) string {
	keys := make([]string, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var data []string
	for _, k := range keys {
		data = append(data, k+"="+pairs[k])
	}
	var labelList []string
	for k, v := range m.Labels {
		labelList = append(labelList, k+"="+v)
	}
	sort.Strings(labelList)
	if len(labelList) > 0 {
		return fmt.Sprintf("%s [%s] {%s} rv=%s", m.Name, strings.Join(labelList, ","), strings.Join(data, ","), d.norm.label(m.ResourceVersion))
	}
	return fmt.Sprintf("%s {%s} rv=%s", m.Name, strings.Join(data, ","), d.norm.label(m.ResourceVersion))
}

// anyDecoder decodes a built-in object as its Go type and anything else
// (a custom resource, a CRD) as unstructured.
type anyDecoder struct{}

func (anyDecoder) Decode(data []byte, gvk *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	obj, kind, err := scheme.Codecs.UniversalDeserializer().Decode(data, gvk, into)
	if runtime.IsNotRegisteredError(err) {
		return unstructured.UnstructuredJSONScheme.Decode(data, gvk, nil)
	}
	return obj, kind, err
}

// result prints a response: the object, or the Status of an error.
func (d *driver) result(code int, body []byte) string {
	obj, _, err := anyDecoder{}.Decode(body, nil, nil)
	if err != nil && code == http.StatusNotFound && !json.Valid(body) {
		// A path no route serves: the mux's plain text.
		return fmt.Sprintf("%d %s", code, strings.TrimSpace(string(body)))
	}
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
	case *coordinationv1.Lease:
		if rv, err := strconv.ParseInt(o.ResourceVersion, 10, 64); err == nil {
			d.lastWrite = max(d.lastWrite, rv)
		}
		return fmt.Sprintf("%d %s", code, d.leaseObject(o))
	case *appsv1.Deployment:
		if rv, err := strconv.ParseInt(o.ResourceVersion, 10, 64); err == nil {
			d.lastWrite = max(d.lastWrite, rv)
		}
		return fmt.Sprintf("%d %s", code, d.deploymentObject(o))
	case *corev1.Event:
		if rv, err := strconv.ParseInt(o.ResourceVersion, 10, 64); err == nil {
			d.lastWrite = max(d.lastWrite, rv)
		}
		return fmt.Sprintf("%d %s", code, d.eventObject(o))
	case *corev1.EventList:
		out := []string{d.listHead(code, &o.ListMeta)}
		for i := range o.Items {
			out = append(out, "  "+d.eventObject(&o.Items[i]))
		}
		return strings.Join(out, "\n")
	case *appsv1.DeploymentList:
		out := []string{d.listHead(code, &o.ListMeta)}
		for i := range o.Items {
			out = append(out, "  "+d.deploymentObject(&o.Items[i]))
		}
		return strings.Join(out, "\n")
	case *corev1.ConfigMapList:
		out := []string{d.listHead(code, &o.ListMeta)}
		for i := range o.Items {
			out = append(out, "  "+d.object(&o.Items[i]))
		}
		return strings.Join(out, "\n")
	case *coordinationv1.LeaseList:
		out := []string{d.listHead(code, &o.ListMeta)}
		for i := range o.Items {
			out = append(out, "  "+d.leaseObject(&o.Items[i]))
		}
		return strings.Join(out, "\n")
	case *unstructured.Unstructured:
		if rv, err := strconv.ParseInt(o.GetResourceVersion(), 10, 64); err == nil {
			d.lastWrite = max(d.lastWrite, rv)
		}
		return fmt.Sprintf("%d %s", code, d.printed(o))
	case *unstructured.UnstructuredList:
		lm := metav1.ListMeta{ResourceVersion: o.GetResourceVersion(), Continue: o.GetContinue(), RemainingItemCount: o.GetRemainingItemCount()}
		out := []string{d.listHead(code, &lm)}
		for i := range o.Items {
			out = append(out, "  "+d.printed(&o.Items[i]))
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

// listHead is a list's first line: its version, continue token and count.
func (d *driver) listHead(code int, lm *metav1.ListMeta) string {
	head := fmt.Sprintf("%d list rv=%s", code, d.norm.collection(lm.ResourceVersion))
	if lm.Continue != "" {
		head += " continue=" + d.norm.token(lm.Continue)
	}
	if lm.RemainingItemCount != nil {
		head += fmt.Sprintf(" remaining=%d", *lm.RemainingItemCount)
	}
	return head
}
