//go:build !walkthrough_standin

// The end-to-end tests need a real cluster and never judge an exercise
// copy: a check builds without them (the tag walkthrough_standin), which
// keeps client-go's clientsets out of its binary and its link short.

package controller_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	controller "example.com/walkthrough/06-controller"
	"example.com/walkthrough/06-controller/app"
	"example.com/walkthrough/06-controller/crd"
	"example.com/walkthrough/06-controller/internal/ourserver"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/06-controller/pkg/generated/clientset/versioned"
	"example.com/walkthrough/06-controller/viewer"
	"example.com/walkthrough/06-controller/wiring/clientgo"
	"example.com/walkthrough/06-controller/wiring/ours"
	"example.com/walkthrough/workshop/cluster"
)

// e2eClients connects to the cluster and makes sure the CRD is served.
func e2eClients(t *testing.T) (*rest.Config, kubernetes.Interface, versioned.Interface) {
	cfg := cluster.Require(t)
	kube := kubernetes.NewForConfigOrDie(cfg)
	walk := versioned.NewForConfigOrDie(cfg)
	ext := apiextensions.NewForConfigOrDie(cfg)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := crd.Apply(ctx, ext); err != nil {
		t.Fatal(err)
	}
	return cfg, kube, walk
}

// writeLog records the controller's successful writes in one namespace.
type writeLog struct {
	mu    sync.Mutex
	ns    string
	lines []string
}

func (l *writeLog) add(ns, line string) {
	if ns != l.ns {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, seen := range l.lines {
		if seen == line {
			return // a repeat from a cache one event behind: shown once, as in the scenarios
		}
	}
	l.lines = append(l.lines, line)
}

type loggedDeployments struct {
	controller.DeploymentWriter
	ns  string
	log *writeLog
}

func (d loggedDeployments) Create(ctx context.Context, dep *appsv1.Deployment, o metav1.CreateOptions) (*appsv1.Deployment, error) {
	out, err := d.DeploymentWriter.Create(ctx, dep, o)
	if err == nil {
		d.log.add(d.ns, "create deployment "+describeDeployment(normalizeNS(dep), false))
	}
	return out, err
}

func (d loggedDeployments) Update(ctx context.Context, dep *appsv1.Deployment, o metav1.UpdateOptions) (*appsv1.Deployment, error) {
	out, err := d.DeploymentWriter.Update(ctx, dep, o)
	if err == nil {
		d.log.add(d.ns, "update deployment "+describeDeployment(normalizeNS(dep), false))
	}
	return out, err
}

type loggedRollouts struct {
	controller.RolloutStatusWriter
	ns  string
	log *writeLog
}

func (r loggedRollouts) UpdateStatus(ctx context.Context, ro *v1alpha1.Rollout, o metav1.UpdateOptions) (*v1alpha1.Rollout, error) {
	out, err := r.RolloutStatusWriter.UpdateStatus(ctx, ro, o)
	if err == nil {
		r.log.add(r.ns, "update rollout/status "+ro.Name+" "+describeStatus(ro.Status))
	}
	return out, err
}

func normalizeNS(d *appsv1.Deployment) *appsv1.Deployment {
	d = d.DeepCopy()
	d.Namespace = "NS"
	return d
}

// runE2EController runs one wiring of the controller until the returned
// stop is called.
func runE2EController(t *testing.T, which string, kube kubernetes.Interface, walk versioned.Interface, log *writeLog) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := controller.Config{
		DeploymentClient: func(ns string) controller.DeploymentWriter {
			return loggedDeployments{kube.AppsV1().Deployments(ns), ns, log}
		},
		RolloutClient: func(ns string) controller.RolloutStatusWriter {
			return loggedRollouts{walk.WalkthroughV1alpha1().Rollouts(ns), ns, log}
		},
	}
	var start func(context.Context)
	var shutdown func()
	var add func(c *controller.Controller) error
	switch which {
	case "ours":
		w := ours.New(kube, walk, ours.Options{})
		cfg.Rollouts, cfg.Deployments, cfg.Queue, cfg.Synced = w.Rollouts(), w.Deployments(), w.Queue(), w.Synced()
		start, shutdown = w.Start, w.Shutdown
		add = func(c *controller.Controller) error {
			return w.AddHandlers(ours.Handlers{RolloutAdd: c.OnRolloutAdd, RolloutUpdate: c.OnRolloutUpdate, RolloutDelete: c.OnRolloutDelete,
				DeploymentAdd: c.OnDeploymentAdd, DeploymentUpdate: c.OnDeploymentUpdate, DeploymentDelete: c.OnDeploymentDelete})
		}
	default:
		w := clientgo.New(kube, walk, clientgo.Options{})
		cfg.Rollouts, cfg.Deployments, cfg.Queue, cfg.Synced = w.Rollouts(), w.Deployments(), w.Queue(), w.Synced()
		start, shutdown = w.Start, w.Shutdown
		add = func(c *controller.Controller) error {
			return w.AddHandlers(clientgo.Handlers{RolloutAdd: c.OnRolloutAdd, RolloutUpdate: c.OnRolloutUpdate, RolloutDelete: c.OnRolloutDelete,
				DeploymentAdd: c.OnDeploymentAdd, DeploymentUpdate: c.OnDeploymentUpdate, DeploymentDelete: c.OnDeploymentDelete})
		}
	}
	c := controller.New(cfg)
	if err := add(c); err != nil {
		t.Fatal(err)
	}
	start(ctx)
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, 2) }()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%s: Run: %v", which, err)
		}
		shutdown()
	}
}

// e2eStory drives one Rollout through create, scale, image and a deleted
// Deployment, waiting for the controller after each step, and returns the
// final objects, described.
func e2eStory(t *testing.T, ctx context.Context, kube kubernetes.Interface, walk versioned.Interface, ns string) []string {
	rollouts := walk.WalkthroughV1alpha1().Rollouts(ns)
	deployments := kube.AppsV1().Deployments(ns)
	waitInStep := func(what string, replicas int32, image string) {
		t.Helper()
		err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
			r, err := rollouts.Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			return d.Spec.Replicas != nil && *d.Spec.Replicas == replicas && imageOf(d) == image && r.Status.ObservedGeneration == r.Generation, nil
		})
		if err != nil {
			t.Fatalf("%s: the controller did not catch up: %v", what, err)
		}
	}
	update := func(change func(*v1alpha1.Rollout)) {
		t.Helper()
		err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
			r, err := rollouts.Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			change(r)
			_, err = rollouts.Update(ctx, r, metav1.UpdateOptions{})
			return err == nil, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rollouts.Create(ctx, &v1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: v1alpha1.RolloutSpec{DeploymentName: "web", Replicas: ptr.To[int32](2), Image: "nginx:1.27"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitInStep("create", 2, "nginx:1.27")
	update(func(r *v1alpha1.Rollout) { r.Spec.Replicas = ptr.To[int32](4) })
	waitInStep("scale", 4, "nginx:1.27")
	update(func(r *v1alpha1.Rollout) { r.Spec.Image = "nginx:1.28" })
	waitInStep("image", 4, "nginx:1.28")
	if err := deployments.Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// A new Deployment (a new UID) in step again.
	time.Sleep(200 * time.Millisecond)
	waitInStep("recreate", 4, "nginx:1.28")

	r, err := rollouts.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return []string{
		fmt.Sprintf("rollout web gen=%d %s", r.Generation, describeStatus(r.Status)),
		"deployment " + describeDeployment(normalizeNS(d), true),
	}
}

// TestE2EControllersAgree runs our controller and its client-go twin, one
// after the other, through the same story on a real API server, and
// compares the writes each made and the objects each left.
func TestE2EControllersAgree(t *testing.T) {
	_, kube, walk := e2eClients(t)
	controllersAgree(t, kube, walk, func(string) string { return cluster.Namespace(t, kube.CoreV1()) })
}

// TestE2EOurServerAsKubeAPIServer: on chapter 07's server the controllers
// make the same writes and leave the same objects as on kube-apiserver.
func TestE2EOurServerAsKubeAPIServer(t *testing.T) {
	_, kube, walk := e2eClients(t)
	theirs := controllersAgree(t, kube, walk, func(string) string { return cluster.Namespace(t, kube.CoreV1()) })
	_, kube, walk = ourServer(t)
	ours := controllersAgree(t, kube, walk, func(which string) string { return "twin-" + which })
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("the controllers' writes and objects differ (-kube-apiserver +chapter 07's server):\n%s", diff)
	}
}

// TestE2EControllersAgreeOnOurServer is the same on chapter 07's API
// server, started in the test's process on an embedded etcd (make demo
// SERVER=ours's): both ends of the wire are the workshop's, and the two
// controllers still make the same writes and leave the same objects.
// Chapter 07 serves no Namespaces; each controller gets a namespace name
// of its own, which needs none. It needs no cluster: make test and the
// e2e tier run it, the runner's check of 06 does not (TestE2E*): a
// learner's copy is judged by the scenarios, and a story on a real clock
// under a loaded machine's -race is not for every check.
func TestE2EControllersAgreeOnOurServer(t *testing.T) {
	_, kube, walk := ourServer(t)
	controllersAgree(t, kube, walk, func(which string) string { return "twin-" + which })
}

// ourServer starts chapter 07's server for the test (ourserver.Start)
// and returns its config and clients of it.
func ourServer(t *testing.T) (*rest.Config, kubernetes.Interface, versioned.Interface) {
	cfg := ourserver.Start(t)
	return cfg, kubernetes.NewForConfigOrDie(cfg), versioned.NewForConfigOrDie(cfg)
}

// controllersAgree runs client-go's controller, then ours, each in the
// namespace namespace gives it, through e2eStory, compares, and returns
// the writes and the final objects (the same for both, or the test fails).
func controllersAgree(t *testing.T, kube kubernetes.Interface, walk versioned.Interface, namespace func(which string) string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	results := map[string][]string{}
	writes := map[string][]string{}
	for _, which := range []string{"client-go", "ours"} {
		ns := namespace(which)
		log := &writeLog{ns: ns}
		stop := runE2EController(t, which, kube, walk, log)
		results[which] = e2eStory(t, ctx, kube, walk, ns)
		stop()
		// Leave nothing for the next controller's first list to act on.
		if err := walk.WalkthroughV1alpha1().Rollouts(ns).Delete(ctx, "web", metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
		log.mu.Lock()
		writes[which] = append([]string(nil), log.lines...)
		log.mu.Unlock()
		sort.Strings(writes[which]) // the set of distinct writes; the scenarios check their order
	}
	if diff := cmp.Diff(results["client-go"], results["ours"]); diff != "" {
		t.Errorf("final objects differ (-client-go +ours):\n%s", diff)
	}
	if diff := cmp.Diff(writes["client-go"], writes["ours"]); diff != "" {
		t.Errorf("writes differ (-client-go +ours):\n%s", diff)
	}
	t.Logf("both made these writes:\n  %s", strings.Join(writes["ours"], "\n  "))
	return append(writes["ours"], results["ours"]...)
}

// TestE2ELeaderElection runs two replicas of the rollout-controller with
// --leader-elect against one cluster: one leads and reconciles; stopping
// it hands the Lease to the other within the lease time, and the other
// takes over the reconciling.
func TestE2ELeaderElection(t *testing.T) {
	cfg, kube, walk := e2eClients(t)
	leaderElection(t, cfg, kube, walk, cluster.Namespace(t, kube.CoreV1()))
}

// TestE2ELeaderElectionOnOurServer is the same on chapter 07's server:
// the replicas take turns through its Leases (a Lease's update needs its
// resourceVersion, so only one of two racing candidates wins it). Our
// server has no Namespaces to make; the namespace's name is enough.
func TestE2ELeaderElectionOnOurServer(t *testing.T) {
	cfg, kube, walk := ourServer(t)
	leaderElection(t, cfg, kube, walk, "lead")
}

// leaderElection runs two replicas of the controller with leader election
// in ns: one leads and reconciles; stopping it hands the Lease to the other
// within the lease time, and the other takes over the reconciling.
func leaderElection(t *testing.T, cfg *rest.Config, kube kubernetes.Interface, walk versioned.Interface, ns string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const lease = 4 * time.Second

	var mu sync.Mutex
	leading := map[string]bool{}
	var changes []string
	both := false
	// Replica b also records the step-through viewer's trace, as
	// rollout-controller -view does.
	rec := map[string]*viewer.Recorder{"b": viewer.NewRecorder(nil)}
	start := func(id string) (stop func()) {
		rctx, rcancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			err := app.Run(rctx, cfg, app.Options{
				Workers: 2, LeaderElect: true, LeaseNamespace: ns, LeaseName: "rollout-controller", Identity: id,
				LeaseDuration: lease, RenewDeadline: 3 * time.Second, RetryPeriod: 500 * time.Millisecond,
				Recorder: rec[id],
				OnLeading: func(on bool) {
					mu.Lock()
					defer mu.Unlock()
					leading[id] = on
					changes = append(changes, fmt.Sprintf("%s leading=%v", id, on))
					if leading["a"] && leading["b"] {
						both = true
					}
				},
			})
			if err != nil {
				t.Errorf("%s: %v", id, err)
			}
		}()
		return func() { rcancel(); <-done }
	}
	leader := func() string {
		mu.Lock()
		defer mu.Unlock()
		for id, on := range leading {
			if on {
				return id
			}
		}
		return ""
	}
	stops := map[string]func(){"a": start("a"), "b": start("b")}
	defer func() {
		for _, stop := range stops {
			stop()
		}
	}()
	if err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return leader() != "", nil
	}); err != nil {
		t.Fatal("no replica became leader")
	}
	first := leader()

	rollouts := walk.WalkthroughV1alpha1().Rollouts(ns)
	deployments := kube.AppsV1().Deployments(ns)
	if _, err := rollouts.Create(ctx, &v1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: v1alpha1.RolloutSpec{DeploymentName: "web", Replicas: ptr.To[int32](1), Image: "nginx:1.27"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	replicasAre := func(n int32) wait.ConditionWithContextFunc {
		return func(ctx context.Context) (bool, error) {
			d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
			return err == nil && d.Spec.Replicas != nil && *d.Spec.Replicas == n, nil
		}
	}
	if err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, replicasAre(1)); err != nil {
		t.Fatalf("leader %s did not create the Deployment", first)
	}

	// Stop the leader: it releases the Lease, and the other takes it.
	stopped := time.Now()
	stops[first]()
	delete(stops, first)
	if err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, 2*lease, true, func(context.Context) (bool, error) {
		l := leader()
		return l != "" && l != first, nil
	}); err != nil {
		t.Fatalf("no hand-over within %s", 2*lease)
	}
	handover := time.Since(stopped)
	if handover > lease {
		t.Errorf("hand-over took %s, longer than the lease (%s)", handover, lease)
	}
	r, err := rollouts.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r.Spec.Replicas = ptr.To[int32](3)
	if _, err := rollouts.Update(ctx, r, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, replicasAre(3)); err != nil {
		t.Fatalf("the new leader did not reconcile")
	}
	mu.Lock()
	defer mu.Unlock()
	if both {
		t.Errorf("both replicas led at once: %v", changes)
	}
	t.Logf("leader %s stopped; hand-over in %s; %v", first, handover.Round(time.Millisecond), changes)
	steps, _, _ := rec["b"].Steps(0)
	synced := 0
	for _, s := range steps {
		if s.Stage == controller.StageWorker && s.Key == ns+"/web" && len(s.State.Informers) == 2 {
			synced++
		}
	}
	if synced == 0 {
		t.Errorf("replica b led, but its viewer trace (%d steps) has no worker step for %s/web with both informers' state", len(steps), ns)
	}
}
