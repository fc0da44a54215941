package controller_test

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"example.com/walkthrough/06-controller/fakeapi"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// lookCommands read what the controller did without letting it work: the
// keys it queued, its retries, the objects it left.
//
// The steps that let it work print its writes and Events since the last
// step (render): one line each, "VERB deployment|rollout[/status] ...",
// "event TYPE REASON NS/NAME: MESSAGE", grouped by Rollout (the groups
// sorted by key) and in the order written within a group; a line repeated
// within a group is shown once; "(no writes)" when there was none.
var lookCommands = []scenario.Command[*driver]{
	{Name: "queued", Run: (*driver).queuedStep,
		Usage: `queued
The keys the handlers added to the queue since the last look, sorted (the
handlers of two informers run concurrently), one a line, or (nothing).`},
	{Name: "requeues", Run: (*driver).requeues,
		Usage: `requeues NS/NAME
The queue's NumRequeues of the key: "NS/NAME: N".`,
		Example: "requeues demo/web"},
	{Name: "objects", Run: (*driver).objectsStep,
		Usage: `objects
Every Rollout and Deployment the fake API server holds, sorted, one a line
with its spec and status, or (none).`},
}

func (d *driver) queuedStep(testing.TB, *datadriven.TestData) string {
	q := d.takeQueued()
	if len(q) == 0 {
		return "(nothing)"
	}
	return strings.Join(q, "\n")
}

func (d *driver) requeues(_ testing.TB, td *datadriven.TestData) string {
	key := td.CmdArgs[0].Key
	return fmt.Sprintf("%s: %d", key, d.q.NumRequeues(key))
}

func (d *driver) objectsStep(testing.TB, *datadriven.TestData) string { return d.objects() }

// onWrite logs the controller's successful writes (fakeapi hears them all).
// A failed write that was not injected is a race between two informers
// (a create that finds the object already there because the cache was
// one event behind); it is retried, and left out of the trace.
func (d *driver) onWrite(w fakeapi.Write) {
	if w.FieldManager != fieldManager {
		return
	}
	if w.Err != nil {
		d.mu.Lock()
		d.dropped++
		d.mu.Unlock()
		return
	}
	d.logWrite(w.Verb, w.Subresource, w.Object, "")
}

// logWrite adds one controller write to the step's log.
func (d *driver) logWrite(verb, sub string, obj runtime.Object, outcome string) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		d.log.add(ownerKey(o), "%s deployment %s%s", verb, describeDeployment(o, false), outcome)
	case *v1alpha1.Rollout:
		what := "rollout"
		if sub != "" {
			what += "/" + sub
		}
		d.log.add(o.Namespace+"/"+o.Name, "%s %s %s %s%s", verb, what, o.Namespace+"/"+o.Name, describeStatus(o.Status), outcome)
	}
}

// render writes the step's log, after head when there is one. The
// controller's workers run in parallel, so writes about different
// Rollouts may interleave in any order: lines are grouped by Rollout, and
// within a group keep the order the controller wrote them in, which is
// causal. A line repeated within a group (a worker acting on a cache one
// event behind, or a retry that fails the same way) is shown once, the
// first time: how often a key was retried is what `requeues` is for.
func (d *driver) render(head string) string {
	lines := d.log.Take()
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].rollout < lines[j].rollout })
	var out []string
	if head != "" {
		out = append(out, head)
	}
	seen := map[logLine]bool{}
	for _, l := range lines {
		if seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, l.text)
	}
	if len(out) == 0 {
		return "(no writes)"
	}
	return strings.Join(out, "\n")
}

// objects prints every Rollout and Deployment the fake API server holds.
func (d *driver) objects() string {
	var out []string
	rs, err := d.env.Walk.Tracker().List(rolloutsGVR, v1alpha1.SchemeGroupVersion.WithKind("Rollout"), "")
	if err != nil {
		d.t.Fatal(err)
	}
	for _, r := range rs.(*v1alpha1.RolloutList).Items {
		out = append(out, fmt.Sprintf("rollout %s/%s gen=%d deployment=%s replicas=%s image=%s %s",
			r.Namespace, r.Name, r.Generation, r.Spec.DeploymentName, int32s(r.Spec.Replicas), r.Spec.Image, describeStatus(r.Status)))
	}
	ds, err := d.env.Kube.Tracker().List(deploymentsGVR, appsv1.SchemeGroupVersion.WithKind("Deployment"), "")
	if err != nil {
		d.t.Fatal(err)
	}
	for _, dep := range ds.(*appsv1.DeploymentList).Items {
		out = append(out, "deployment "+describeDeployment(&dep, true))
	}
	sort.Strings(out)
	return strings.Join(notation.OrNone(out), "\n")
}

func describeDeployment(dep *appsv1.Deployment, withStatus bool) string {
	s := fmt.Sprintf("%s/%s replicas=%s image=%s", dep.Namespace, dep.Name, int32s(dep.Spec.Replicas), imageOf(dep))
	if ref := metav1.GetControllerOf(dep); ref != nil {
		s += " owner=" + ref.Kind + "/" + ref.Name
	}
	if len(dep.Labels) > 0 {
		keys := make([]string, 0, len(dep.Labels))
		for k := range dep.Labels {
			keys = append(keys, k+":"+dep.Labels[k])
		}
		sort.Strings(keys)
		s += " labels=" + strings.Join(keys, ",")
	}
	if withStatus {
		s += fmt.Sprintf(" available=%d", dep.Status.AvailableReplicas)
	}
	return s
}

func describeStatus(st v1alpha1.RolloutStatus) string {
	s := fmt.Sprintf("available=%d observed=%d", st.AvailableReplicas, st.ObservedGeneration)
	for _, c := range st.Conditions {
		s += fmt.Sprintf(" %s=%s(%s: %s)", c.Type, c.Status, c.Reason, c.Message)
	}
	return s
}

func imageOf(dep *appsv1.Deployment) string {
	if cs := dep.Spec.Template.Spec.Containers; len(cs) > 0 {
		return cs[0].Image
	}
	return ""
}

func int32s(p *int32) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(int(*p))
}

// ownerKey is the Rollout a Deployment belongs to, or the Deployment's own
// key when it has no controlling Rollout.
func ownerKey(dep *appsv1.Deployment) string {
	if ref := metav1.GetControllerOf(dep); ref != nil && ref.Kind == "Rollout" {
		return dep.Namespace + "/" + ref.Name
	}
	return dep.Namespace + "/" + dep.Name
}

// recordingQueue passes every call through and notes the keys added.
type recordingQueue struct {
	queue
	d *driver
}

func (q *recordingQueue) Add(key string) {
	q.d.noteQueued(key)
	q.queue.Add(key)
}

// Get counts every key a worker takes: one per sync.
func (q *recordingQueue) Get() (string, bool) {
	key, shutdown := q.queue.Get()
	if !shutdown {
		q.d.mu.Lock()
		q.d.gets++
		q.d.mu.Unlock()
	}
	return key, shutdown
}

func (d *driver) noteQueued(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.queued = append(d.queued, key)
}

func (d *driver) takeQueued() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	q := d.queued
	d.queued = nil
	sort.Strings(q)
	return q
}
