package controller_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cockroachdb/datadriven"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"example.com/walkthrough/06-controller/fakeapi"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/workshop/scenario"
)

// TestScenarios plays testdata/scenarios/*.txt. Each file runs in a
// testing/synctest bubble: the informers, the queue's backoff timers and
// the workers all run on the bubble's fake clock, so "advance 20ms" moves
// time by exactly that, and every step ends once every goroutine waits.
func TestScenarios(t *testing.T) {
	scenario.Run(t, scenarioImpls, scenario.Options{Bubble: true})
}

// fieldManager is the controller's field manager; the driver logs only
// writes that carry it, so its own writes stay out of the trace.
const fieldManager = "rollout-controller"

var (
	rolloutsGVR    = v1alpha1.SchemeGroupVersion.WithResource("rollouts")
	deploymentsGVR = appsv1.SchemeGroupVersion.WithResource("deployments")
)

// driver holds one scenario's world: two fake clientsets standing in for
// the API server, and the system under test.
type driver struct {
	t   testing.TB
	im  impl
	env env
	log *actionLog
	sys *system

	ctx     context.Context
	cancel  context.CancelFunc
	runDone chan error
	stopped bool

	mu       sync.Mutex
	panicked any      // the first panic caught in a handler or worker
	queued   []string // keys added to the queue during the step
	q        queue

	dropped int // failed writes that were not injected (races), not traced
	gets    int // keys the workers took from the queue (FuzzControllers counts syncs)
}

func newDriver(t testing.TB, im impl) scenario.Driver {
	return newDriverState(t, im).step
}

func newDriverState(t testing.TB, im impl) *driver {
	d := &driver{t: t, im: im, log: &actionLog{}}
	api := fakeapi.New(d.onWrite)
	d.env = env{
		Kube:     api.Kube,
		Walk:     api.Walk,
		Workers:  2,
		Recorder: &recorder{log: d.log},
		Errorf:   func(string, ...any) {},
		Crashed:  d.crash,
		Guard1: func(f func(any)) func(any) {
			return func(obj any) {
				defer d.recoverInto()
				f(obj)
			}
		},
		Guard2: func(f func(any, any)) func(any, any) {
			return func(old, new any) {
				defer d.recoverInto()
				f(old, new)
			}
		},
		Queue: func(q queue) queue {
			d.q = &recordingQueue{queue: q, d: d}
			return d.q
		},
	}
	t.Cleanup(d.stop)
	return d
}

func (d *driver) crash(v any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.panicked == nil {
		d.panicked = v
	}
}

func (d *driver) recoverInto() {
	if v := recover(); v != nil {
		d.crash(v)
	}
}

// settle waits until every goroutine in the bubble is blocked, then
// re-raises the first panic any of them caught, so the scenario runner
// reports it against this step.
func (d *driver) settle() {
	synctest.Wait()
	d.mu.Lock()
	v := d.panicked
	d.mu.Unlock()
	if v != nil {
		panic(v)
	}
}

func (d *driver) step(t testing.TB, td *datadriven.TestData) string {
	switch td.Cmd {
	case "start":
		if d.sys != nil {
			td.Fatalf(t, "start: already started")
		}
		d.env.Workers = intArg(t, td, "workers", 2)
		d.env.MaxRetries = intArg(t, td, "max-retries", 0)
		sys := d.im.Build(d.env)
		d.sys = &sys
		d.ctx, d.cancel = context.WithCancel(context.Background())
		d.sys.Start(d.ctx)
		d.settle()
		if !d.sys.Synced() {
			return "informers did not sync"
		}
		d.runDone = make(chan error, 1)
		go func() { d.runDone <- d.sys.Run(d.ctx) }()
		d.settle()
		return d.render("started")
	case "stop":
		if d.sys == nil {
			td.Fatalf(t, "stop: not started")
		}
		d.stop()
		d.settle()
		return d.render("stopped")
	case "create", "update", "delete", "deployment-status":
		d.write(t, td)
		d.settle()
		return d.render("")
	case "advance":
		dur, err := time.ParseDuration(td.CmdArgs[0].Key)
		if err != nil {
			td.Fatalf(t, "advance: %v", err)
		}
		time.Sleep(dur)
		d.settle()
		return d.render("")
	case "fail":
		d.inject(t, td)
		return "ok"
	case "gc":
		// Play the garbage collector: delete every Deployment whose
		// controlling owner no longer exists.
		d.collectGarbage(t)
		d.settle()
		return d.render("")
	case "tombstone":
		// tombstone deployment ns/name: hand the Deployment delete handler a
		// tombstone, as an informer does when its watch missed the delete.
		key := td.CmdArgs[1].Key
		obj, err := d.env.Kube.Tracker().Get(deploymentsGVR, nsOf(key), nameOf(key))
		if err != nil {
			td.Fatalf(t, "tombstone: %v", err)
		}
		d.takeQueued()
		d.sys.DeploymentDelete(d.sys.Tombstone(key, obj))
		d.settle()
		q := d.takeQueued()
		if len(q) == 0 {
			q = []string{"(nothing)"}
		}
		return d.render("queued: " + strings.Join(q, " "))
	case "queued":
		// queued: the keys the handlers added to the queue since the last
		// look, sorted (handlers of two informers run concurrently).
		q := d.takeQueued()
		if len(q) == 0 {
			return "(nothing)"
		}
		return strings.Join(q, "\n")
	case "sync":
		// sync ns/name: run the sync for one key directly, with no worker.
		err := d.sys.Sync(context.Background(), td.CmdArgs[0].Key)
		d.settle()
		result := "ok"
		if err != nil {
			result = "error: " + err.Error()
		}
		return d.render(result)
	case "requeues":
		key := td.CmdArgs[0].Key
		return fmt.Sprintf("%s: %d", key, d.q.NumRequeues(key))
	case "objects":
		return d.objects()
	}
	td.Fatalf(t, "unknown command %q", td.Cmd)
	return ""
}

// stop ends the controller gracefully and waits for it and the informers.
func (d *driver) stop() {
	if d.sys == nil || d.stopped {
		return
	}
	d.stopped = true
	d.cancel()
	if d.runDone != nil {
		select {
		case <-d.runDone:
		case <-time.After(time.Minute): // fake time: it passes at once when all else waits
			d.t.Errorf("Run did not return within a minute of its context ending. " +
				"It must shut its queue down, so that every worker's Get returns, before it waits for the workers.")
			d.q.ShutDown() // unstick the workers, so that the test can end
			<-d.runDone
		}
	} else if d.q != nil {
		d.q.ShutDown() // Run never ran, so nothing else stops the queue
	}
	d.sys.Shutdown()
}

// --- the fake API server ---------------------------------------------------

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

// inject makes the next matching controller writes fail:
//
//	fail update rollouts/status times=1 error=conflict
func (d *driver) inject(t testing.TB, td *datadriven.TestData) {
	if len(td.CmdArgs) < 2 {
		td.Fatalf(t, "fail VERB RESOURCE[/SUBRESOURCE] [times=N] [error=conflict|server]")
	}
	verb := td.CmdArgs[0].Key
	resource, sub, _ := strings.Cut(td.CmdArgs[1].Key, "/")
	times := intArg(t, td, "times", 1)
	kind := "conflict"
	for _, a := range td.CmdArgs {
		if a.Key == "error" {
			kind = a.Vals[0]
		}
	}
	fake := &d.env.Kube.Fake
	if resource == "rollouts" {
		fake = &d.env.Walk.Fake
	}
	fake.PrependReactor(verb, resource, func(action k8stesting.Action) (bool, runtime.Object, error) {
		if times == 0 || action.GetSubresource() != sub {
			return false, nil, nil
		}
		var obj runtime.Object
		switch a := action.(type) {
		case k8stesting.CreateActionImpl:
			if a.CreateOptions.FieldManager != fieldManager {
				return false, nil, nil
			}
			obj = a.Object
		case k8stesting.UpdateActionImpl:
			if a.UpdateOptions.FieldManager != fieldManager {
				return false, nil, nil
			}
			obj = a.Object
		default:
			return false, nil, nil
		}
		times--
		m, _ := meta.Accessor(obj)
		gr := action.GetResource().GroupResource()
		var err error
		switch kind {
		case "conflict":
			err = apierrors.NewConflict(gr, m.GetName(), errors.New("the object has been modified"))
		case "server":
			err = apierrors.NewInternalError(errors.New("injected"))
		default:
			err = fmt.Errorf("injected: %s", kind)
		}
		d.logWrite(action.GetVerb(), action.GetSubresource(), obj, fmt.Sprintf(" → %s (injected)", apierrors.ReasonForError(err)))
		return true, nil, err
	})
}

// --- the driver's own writes ---------------------------------------------

func (d *driver) collectGarbage(t testing.TB) {
	ctx := context.Background()
	owners := map[types.UID]bool{}
	rs, err := d.env.Walk.WalkthroughV1alpha1().Rollouts("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs.Items {
		owners[r.UID] = true
	}
	ds, err := d.env.Kube.AppsV1().Deployments("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range ds.Items {
		if ref := metav1.GetControllerOf(&dep); ref != nil && !owners[ref.UID] {
			if err := d.env.Kube.AppsV1().Deployments(dep.Namespace).Delete(ctx, dep.Name, metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// write performs a create, update or delete as a user would, with no
// field manager, so it stays out of the trace:
//
//	create rollout ns/web deployment=web replicas=3 image=nginx:1
//	create deployment ns/web replicas=1 image=httpd:2 [owner=web]
//	update rollout ns/web replicas=5 image=nginx:2
//	delete rollout ns/web
//	delete deployment ns/web
//	deployment-status ns/web available=3
func (d *driver) write(t testing.TB, td *datadriven.TestData) {
	ctx := context.Background()
	if td.Cmd == "deployment-status" {
		key := td.CmdArgs[0].Key
		dep, err := d.env.Kube.AppsV1().Deployments(nsOf(key)).Get(ctx, nameOf(key), metav1.GetOptions{})
		if err != nil {
			td.Fatalf(t, "%v", err)
		}
		dep.Status.AvailableReplicas = int32(intArg(t, td, "available", 0))
		dep.Status.Replicas = dep.Status.AvailableReplicas
		if _, err := d.env.Kube.AppsV1().Deployments(nsOf(key)).UpdateStatus(ctx, dep, metav1.UpdateOptions{}); err != nil {
			td.Fatalf(t, "%v", err)
		}
		return
	}
	if len(td.CmdArgs) < 2 {
		td.Fatalf(t, "%s KIND NAMESPACE/NAME ...", td.Cmd)
	}
	kind, key := td.CmdArgs[0].Key, td.CmdArgs[1].Key
	ns, name := nsOf(key), nameOf(key)
	args := map[string]string{}
	for _, a := range td.CmdArgs[2:] {
		args[a.Key] = strings.Join(a.Vals, ",")
	}
	rollouts := d.env.Walk.WalkthroughV1alpha1().Rollouts(ns)
	deployments := d.env.Kube.AppsV1().Deployments(ns)
	var err error
	switch td.Cmd + " " + kind {
	case "create rollout":
		r := &v1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		applyRolloutArgs(t, td, r, args)
		_, err = rollouts.Create(ctx, r, metav1.CreateOptions{})
	case "update rollout":
		var r *v1alpha1.Rollout
		if r, err = rollouts.Get(ctx, name, metav1.GetOptions{}); err == nil {
			applyRolloutArgs(t, td, r, args)
			_, err = rollouts.Update(ctx, r, metav1.UpdateOptions{})
		}
	case "delete rollout":
		err = rollouts.Delete(ctx, name, metav1.DeleteOptions{})
	case "create deployment":
		dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		dep.Spec.Template.Spec.Containers = []corev1.Container{{Name: "app", Image: args["image"]}}
		if v, ok := args["replicas"]; ok {
			n, _ := strconv.Atoi(v)
			dep.Spec.Replicas = ptr.To(int32(n))
		}
		if owner, ok := args["owner"]; ok {
			r, gerr := rollouts.Get(ctx, owner, metav1.GetOptions{})
			if gerr != nil {
				td.Fatalf(t, "owner: %v", gerr)
			}
			dep.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(r, v1alpha1.SchemeGroupVersion.WithKind("Rollout"))}
		}
		_, err = deployments.Create(ctx, dep, metav1.CreateOptions{})
	case "delete deployment":
		err = deployments.Delete(ctx, name, metav1.DeleteOptions{})
	default:
		td.Fatalf(t, "unknown write %q", td.Cmd+" "+kind)
	}
	if err != nil {
		td.Fatalf(t, "%s %s %s: %v", td.Cmd, kind, key, err)
	}
}

func applyRolloutArgs(t testing.TB, td *datadriven.TestData, r *v1alpha1.Rollout, args map[string]string) {
	for k, v := range args {
		switch k {
		case "deployment":
			r.Spec.DeploymentName = v
		case "image":
			r.Spec.Image = v
		case "replicas":
			n, err := strconv.Atoi(v)
			if err != nil {
				td.Fatalf(t, "replicas: %v", err)
			}
			r.Spec.Replicas = ptr.To(int32(n))
		default:
			td.Fatalf(t, "unknown rollout field %q", k)
		}
	}
}

// --- rendering -------------------------------------------------------------

// render writes the step's log. The controller's workers run in parallel,
// so writes about different Rollouts may interleave in any order: lines
// are grouped by Rollout (groups sorted by key), and within a group keep
// the order the controller wrote them in, which is causal. A line repeated
// within a group (a worker acting on a cache one event behind, or a retry
// that fails the same way) is shown once, the first time: how often a key
// was retried is what `requeues` is for.
func (d *driver) render(head string) string {
	lines := d.log.take()
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
	if len(out) == 0 {
		return "(none)"
	}
	return strings.Join(out, "\n")
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

func nsOf(key string) string   { ns, _, _ := strings.Cut(key, "/"); return ns }
func nameOf(key string) string { _, name, _ := strings.Cut(key, "/"); return name }

func intArg(t testing.TB, td *datadriven.TestData, name string, def int) int {
	for _, a := range td.CmdArgs {
		if a.Key == name && len(a.Vals) > 0 {
			n, err := strconv.Atoi(a.Vals[0])
			if err != nil {
				td.Fatalf(t, "%s: %v", name, err)
			}
			return n
		}
	}
	return def
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
