package watchserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	ws "example.com/walkthrough/07-watchserver"
)

// newDeployment is a Deployment as a manifest writes it: a selector, a
// template with two containers (one untagged image, one tagged), and a
// status a client has no business setting.
func newDeployment(name string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{
					{Name: "web", Image: "nginx", Ports: []corev1.ContainerPort{{ContainerPort: 80}}},
					{Name: "side", Image: "registry.example.com:5000/side:1.2"},
				}},
			},
		},
		Status: appsv1.DeploymentStatus{Replicas: 7, ObservedGeneration: 9},
	}
}

// TestDeploymentCreate holds what a create of an apps/v1 Deployment does
// on this server, as kube-apiserver's deployment strategy and apps/v1
// defaulting do it: generation 1, no status, the defaults filled in (an
// untagged image is pulled Always, a tagged one IfNotPresent), stored as
// protobuf under /registry/deployments/<ns>/<name>, read back by a GET,
// a 404 for a Deployment that is not there, and apps/v1 in discovery.
func TestDeploymentCreate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := startServer(t, ws.CacheOptions{})
	deployments := s.cs.AppsV1().Deployments("ns")

	created, err := deployments.Create(ctx, newDeployment("web"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.Generation != 1 {
		t.Errorf("created: generation %d, want 1", created.Generation)
	}
	if created.Status.Replicas != 0 || created.Status.ObservedGeneration != 0 {
		t.Errorf("created: status %+v, want none (only /status writes it)", created.Status)
	}
	if created.UID == "" || created.CreationTimestamp.IsZero() {
		t.Errorf("created: uid %q, creationTimestamp %v, want both set", created.UID, created.CreationTimestamp)
	}
	spec := created.Spec
	ru := spec.Strategy.RollingUpdate
	if ptr.Deref(spec.Replicas, 0) != 1 || spec.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType || ru == nil ||
		ru.MaxSurge.String() != "25%" || ru.MaxUnavailable.String() != "25%" ||
		ptr.Deref(spec.RevisionHistoryLimit, 0) != 10 || ptr.Deref(spec.ProgressDeadlineSeconds, 0) != 600 {
		t.Errorf("created: spec %+v, want apps/v1's defaults (1 replica, RollingUpdate 25%%/25%%, 10 revisions, 600s)", spec)
	}
	pod := spec.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyAlways || ptr.Deref(pod.TerminationGracePeriodSeconds, 0) != 30 ||
		pod.DNSPolicy != corev1.DNSClusterFirst || pod.SchedulerName != "default-scheduler" || pod.SecurityContext == nil {
		t.Errorf("created: pod template %+v, want the pod spec's defaults", pod)
	}
	for _, c := range pod.Containers {
		if c.TerminationMessagePath != "/dev/termination-log" || c.TerminationMessagePolicy != corev1.TerminationMessageReadFile {
			t.Errorf("container %s: termination message %q %q, want /dev/termination-log File", c.Name, c.TerminationMessagePath, c.TerminationMessagePolicy)
		}
	}
	if got := pod.Containers[0].ImagePullPolicy; got != corev1.PullAlways {
		t.Errorf("container web (image nginx, no tag): imagePullPolicy %q, want Always (no tag is latest)", got)
	}
	if got := pod.Containers[1].ImagePullPolicy; got != corev1.PullIfNotPresent {
		t.Errorf("container side (a tag after a registry's port): imagePullPolicy %q, want IfNotPresent", got)
	}
	if got := pod.Containers[0].Ports[0].Protocol; got != corev1.ProtocolTCP {
		t.Errorf("container web's port: protocol %q, want TCP", got)
	}

	// Stored as kube-apiserver stores a built-in: protobuf in the k8s\x00
	// envelope, under the resource's name, without its group.
	resp, err := s.etcd.Client.Get(ctx, "/registry/deployments/ns/web")
	if err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("etcd key /registry/deployments/ns/web: %v, %d keys", err, len(resp.Kvs))
	}
	if v := resp.Kvs[0].Value; !bytes.HasPrefix(v, []byte("k8s\x00")) {
		t.Errorf("stored value starts %q, want the protobuf envelope k8s\\x00", v[:min(len(v), 8)])
	}

	got, err := deployments.Get(ctx, "web", metav1.GetOptions{})
	if err != nil || got.UID != created.UID || got.ResourceVersion != created.ResourceVersion || got.Generation != 1 {
		t.Fatalf("GET after create: %v %+v", err, got.ObjectMeta)
	}
	if _, err := deployments.Get(ctx, "absent", metav1.GetOptions{}); !apierrors.IsNotFound(err) || err.Error() != `deployments.apps "absent" not found` {
		t.Errorf("GET of a Deployment that is not there: %v, want a 404 naming deployments.apps", err)
	}

	// Discovery, as kubectl reads it before `kubectl get deploy`.
	groups, resources, err := s.cs.Discovery().ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(groups, func(g *metav1.APIGroup) bool { return g.Name == "apps" && g.PreferredVersion.GroupVersion == "apps/v1" }) {
		t.Errorf("/apis does not list apps with apps/v1 preferred")
	}
	var apps metav1.APIGroup
	if body, err := s.cs.AppsV1().RESTClient().Get().AbsPath("/apis/apps").DoRaw(ctx); err != nil || json.Unmarshal(body, &apps) != nil ||
		apps.Name != "apps" || apps.PreferredVersion.GroupVersion != "apps/v1" {
		t.Errorf("/apis/apps: %v %s, want the group apps with apps/v1 preferred", err, body)
	}
	var listed []metav1.APIResource
	for _, l := range resources {
		if l.GroupVersion == "apps/v1" {
			listed = l.APIResources
		}
	}
	if len(listed) != 2 || listed[0].Name != "deployments" || listed[1].Name != "deployments/status" ||
		!slices.Equal(listed[0].ShortNames, []string{"deploy"}) || !slices.Equal(listed[0].Categories, []string{"all"}) ||
		listed[0].SingularName != "deployment" || listed[0].Kind != "Deployment" || !listed[0].Namespaced {
		t.Errorf("/apis/apps/v1 lists %+v, want deployments (deploy, in all) and deployments/status", listed)
	}
}

// TestDeploymentUpdate holds the update side of the deployment strategy:
// a spec change bumps the generation, an annotation change does too, a
// label change does not; an update keeps the stored status; /status
// writes the status alone (spec, labels and generation stay the stored
// ones), by PUT and by PATCH; a stale resourceVersion is a 409, a
// Deployment that is not there a 404.
func TestDeploymentUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := startServer(t, ws.CacheOptions{})
	deployments := s.cs.AppsV1().Deployments("ns")
	d, err := deployments.Create(ctx, newDeployment("web"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	first := d.DeepCopy()

	// The same manifest again (apply of an unchanged file): the
	// defaults make it equal to what is stored, so no bump.
	again := newDeployment("web")
	again.ResourceVersion = d.ResourceVersion
	again.Status = appsv1.DeploymentStatus{}
	if d, err = deployments.Update(ctx, again, metav1.UpdateOptions{}); err != nil || d.Generation != 1 {
		t.Fatalf("update with the same spec: %v, generation %d, want 1", err, d.Generation)
	}

	d.Spec.Replicas = ptr.To[int32](3)
	if d, err = deployments.Update(ctx, d, metav1.UpdateOptions{}); err != nil || d.Generation != 2 {
		t.Fatalf("update of the spec: %v, generation %d, want 2", err, d.Generation)
	}
	d.Annotations = map[string]string{"note": "copied to the ReplicaSets"}
	if d, err = deployments.Update(ctx, d, metav1.UpdateOptions{}); err != nil || d.Generation != 3 {
		t.Fatalf("update of the annotations: %v, generation %d, want 3", err, d.Generation)
	}
	d.Labels = map[string]string{"app": "web", "tier": "front"}
	if d, err = deployments.Update(ctx, d, metav1.UpdateOptions{}); err != nil || d.Generation != 3 {
		t.Fatalf("update of the labels: %v, generation %d, want 3 still", err, d.Generation)
	}

	// /status: the controller reports what it saw, from a copy that has
	// an old spec and old labels.
	stale := d.DeepCopy()
	stale.Spec.Replicas = ptr.To[int32](1)
	stale.Labels = map[string]string{"app": "web"}
	stale.Status = appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 3}
	st, err := deployments.UpdateStatus(ctx, stale, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ptr.Deref(st.Spec.Replicas, 0) != 3 || st.Labels["tier"] != "front" || st.Generation != 3 {
		t.Errorf("after /status: replicas %d, labels %v, generation %d; want the stored 3, tier=front and 3",
			ptr.Deref(st.Spec.Replicas, 0), st.Labels, st.Generation)
	}
	if st.Status.ObservedGeneration != 3 || st.Status.Replicas != 3 {
		t.Errorf("after /status: status %+v, want the body's", st.Status)
	}
	got, err := s.cs.AppsV1().RESTClient().Get().AbsPath("/apis/apps/v1/namespaces/ns/deployments/web/status").DoRaw(ctx)
	if err != nil || !bytes.Contains(got, []byte(`"observedGeneration":3`)) {
		t.Errorf("GET /status: %v %s", err, got)
	}

	// An update of the Deployment keeps the stored status, whatever it sends.
	st.Status = appsv1.DeploymentStatus{}
	st.Spec.Paused = true
	d, err = deployments.Update(ctx, st, metav1.UpdateOptions{})
	if err != nil || d.Status.ObservedGeneration != 3 || d.Generation != 4 {
		t.Fatalf("update after /status: %v, status %+v, generation %d; want the stored status and generation 4", err, d.Status, d.Generation)
	}

	// A PATCH of /status, as a controller written with patches sends it.
	patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"replicas": 9}, "status": map[string]any{"observedGeneration": 4}})
	p, err := deployments.Patch(ctx, "web", types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	if err != nil || p.Status.ObservedGeneration != 4 || ptr.Deref(p.Spec.Replicas, 0) != 3 || p.Generation != 4 {
		t.Fatalf("PATCH /status: %v, status %+v, replicas %d, generation %d; want observedGeneration 4, the stored 3 and 4",
			err, p.Status, ptr.Deref(p.Spec.Replicas, 0), p.Generation)
	}

	// A write from a stale copy is a 409; one with no resourceVersion
	// overwrites (AllowUnconditionalUpdate); an update never creates.
	first.Spec.Replicas = ptr.To[int32](5)
	if _, err := deployments.Update(ctx, first, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("update at the create's resourceVersion: %v, want a 409", err)
	}
	if _, err := deployments.UpdateStatus(ctx, first, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("/status at the create's resourceVersion: %v, want a 409", err)
	}
	first.ResourceVersion = ""
	if d, err = deployments.Update(ctx, first, metav1.UpdateOptions{}); err != nil || ptr.Deref(d.Spec.Replicas, 0) != 5 || d.Generation != 5 {
		t.Errorf("update with no resourceVersion: %v, want it written at generation 5", err)
	}
	absent := newDeployment("absent")
	if _, err := deployments.Update(ctx, absent, metav1.UpdateOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("update of a Deployment that is not there: %v, want a 404", err)
	}
	if _, err := deployments.UpdateStatus(ctx, absent, metav1.UpdateOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("/status of a Deployment that is not there: %v, want a 404", err)
	}
	if resp, err := http.Get(s.http.URL + "/apis/apps/v1/namespaces/ns/deployments/absent/status"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /status of a Deployment that is not there: %v, want 404", resp.Status)
	}
}
