package watchserver_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// How the steps write and print an Event (resource name=events): the
// fields an event recorder sets, in the input's KEY=VALUE lines, and the
// same fields printed back, which is all the server keeps of them.

// eventIn is an Event's request body from the input's lines (one field a
// line, so that a message may have spaces): involved=KIND/NAME, an object
// of the namespace involvedNS (kube-apiserver's validation of a core/v1
// Event wants the two namespaces the same), reason=, message=, type=,
// count=, first= and last= (RFC 3339) and source= (the component).
func eventIn(namespace, involvedNS, name, rv, labelList, input string) []byte {
	e := &corev1.Event{TypeMeta: metav1.TypeMeta{Kind: "Event", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: rv, Labels: labelsOf(labelList)}}
	for _, line := range strings.Split(input, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), "=")
		switch k {
		case "involved":
			kind, n, _ := strings.Cut(v, "/")
			e.InvolvedObject = corev1.ObjectReference{Kind: kind, Namespace: involvedNS, Name: n}
		case "reason":
			e.Reason = v
		case "message":
			e.Message = v
		case "type":
			e.Type = v
		case "count":
			n, _ := strconv.Atoi(v)
			e.Count = int32(n)
		case "first", "last":
			at, _ := time.Parse(time.RFC3339, v)
			if k == "first" {
				e.FirstTimestamp = metav1.NewTime(at)
			} else {
				e.LastTimestamp = metav1.NewTime(at)
			}
		case "source":
			e.Source.Component = v
		}
	}
	b, _ := json.Marshal(e)
	return b
}

// eventObject prints an Event as objectWith prints a ConfigMap, the
// fields eventIn writes where a ConfigMap has data, those that are set.
func (d *driver) eventObject(e *corev1.Event) string {
	fields := map[string]string{}
	set := func(k, v string) {
		if v != "" {
			fields[k] = v
		}
	}
	if o := e.InvolvedObject; o.Kind != "" || o.Name != "" {
		set("involved", o.Kind+"/"+o.Name)
	}
	set("reason", e.Reason)
	set("message", e.Message)
	set("type", e.Type)
	if e.Count != 0 {
		set("count", strconv.Itoa(int(e.Count)))
	}
	if !e.FirstTimestamp.IsZero() {
		set("first", e.FirstTimestamp.UTC().Format(time.RFC3339))
	}
	if !e.LastTimestamp.IsZero() {
		set("last", e.LastTimestamp.UTC().Format(time.RFC3339))
	}
	set("source", e.Source.Component)
	return d.objectWith(&e.ObjectMeta, fields)
}
