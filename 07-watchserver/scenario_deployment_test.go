package watchserver_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// How the steps write and print a Deployment (resource name=deployments):
// the input's lines are the few fields a scenario changes, and the output
// shows them beside the generation, the status and the defaults the
// server filled in, which is what the deployment strategy decides.

// deploymentIn is a Deployment's request body: replicas=N, image=I,
// paused=true and note=TEXT (the annotation "note") from the input, and
// status.observedGeneration=N, status.replicas=N for its status. Its
// selector and its template's label are app=NAME, its one container is
// "c": the least kube-apiserver's validation accepts.
func deploymentIn(namespace, name, rv, labelList string, input string) []byte {
	app := map[string]string{"app": name}
	d := &appsv1.Deployment{TypeMeta: metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: rv, Labels: labelsOf(labelList)},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: app},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: app},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}},
		},
	}
	for k, v := range dataOf(input) {
		n, _ := strconv.Atoi(v)
		switch k {
		case "replicas":
			r := int32(n)
			d.Spec.Replicas = &r
		case "image":
			d.Spec.Template.Spec.Containers[0].Image = v
		case "paused":
			d.Spec.Paused = v == "true"
		case "note":
			d.Annotations = map[string]string{"note": v}
		case "status.observedGeneration":
			d.Status.ObservedGeneration = int64(n)
		case "status.replicas":
			d.Status.Replicas = int32(n)
		}
	}
	b, _ := json.Marshal(d)
	return b
}

// deploymentObject prints a Deployment as objectWith prints a ConfigMap,
// {image=I,note=TEXT,paused=true,pull=POLICY,replicas=N} where a ConfigMap
// has data (note and paused when set), then status={...} when its status
// has anything, defaults={...} (what apps/v1 defaulting filled in), and
// gen=GENERATION.
func (d *driver) deploymentObject(dep *appsv1.Deployment) string {
	spec := map[string]string{}
	if dep.Spec.Replicas != nil {
		spec["replicas"] = strconv.Itoa(int(*dep.Spec.Replicas))
	}
	if n, ok := dep.Annotations["note"]; ok {
		spec["note"] = n
	}
	if dep.Spec.Paused {
		spec["paused"] = "true"
	}
	pod := dep.Spec.Template.Spec
	if len(pod.Containers) > 0 {
		spec["image"], spec["pull"] = pod.Containers[0].Image, string(pod.Containers[0].ImagePullPolicy)
	}
	out := strings.TrimSuffix(d.objectWith(&metav1.ObjectMeta{Name: dep.Name, Labels: dep.Labels}, spec), " rv=none")
	status := map[string]string{}
	if g := dep.Status.ObservedGeneration; g != 0 {
		status["observedGeneration"] = strconv.FormatInt(g, 10)
	}
	if r := dep.Status.Replicas; r != 0 {
		status["replicas"] = strconv.Itoa(int(r))
	}
	if len(status) > 0 {
		out += " status={" + strings.Join(pairs(status), ",") + "}"
	}
	defaults := map[string]string{"dns": string(pod.DNSPolicy), "restart": string(pod.RestartPolicy), "scheduler": pod.SchedulerName}
	if s := dep.Spec.Strategy; s.RollingUpdate != nil {
		defaults["strategy"] = fmt.Sprintf("%s(%s/%s)", s.Type, s.RollingUpdate.MaxSurge, s.RollingUpdate.MaxUnavailable)
	}
	optional := map[string]*int32{"history": dep.Spec.RevisionHistoryLimit, "deadline": dep.Spec.ProgressDeadlineSeconds}
	for k, v := range optional {
		if v != nil {
			defaults[k] = strconv.Itoa(int(*v))
		}
	}
	if g := pod.TerminationGracePeriodSeconds; g != nil {
		defaults["grace"] = strconv.FormatInt(*g, 10)
	}
	if len(pod.Containers) > 0 {
		c := pod.Containers[0]
		defaults["termination"] = fmt.Sprintf("%s(%s)", c.TerminationMessagePath, c.TerminationMessagePolicy)
	}
	out += " defaults={" + strings.Join(pairs(defaults), ",") + "}"
	return fmt.Sprintf("%s gen=%d rv=%s", out, dep.Generation, d.norm.label(dep.ResourceVersion))
}
