package controller_test

import (
	"cmp"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/workshop/scenario"
)

// writeCommands change the API server's objects as a user (or another
// controller) would, with no field manager, so that these writes stay out
// of the trace; each then waits until every goroutine is idle and prints
// the controller's writes.
var writeCommands = []scenario.Command[*driver]{
	{Name: "create", Run: (*driver).userWrite,
		Usage: `create rollout|deployment NS/NAME [FIELD=VALUE ...]
Creates a Rollout (fields deployment=NAME, replicas=N, image=IMAGE) or a
Deployment (fields replicas=N, image=IMAGE, and owner=ROLLOUT, which makes
that Rollout its controller; owner=KIND/NAME makes up a controller of that
kind instead, of API version owner-api=GROUP/VERSION, apps/v1 by default;
also=KIND/NAME lists an owner that is not its controller before it).`,
		Example: "create rollout demo/web deployment=web replicas=2 image=nginx:1.27"},
	{Name: "update", Run: (*driver).userWrite,
		Usage: `update rollout NS/NAME [FIELD=VALUE ...]
Reads the Rollout, sets the fields given (as create's), and updates it.`,
		Example: "update rollout demo/web replicas=4"},
	{Name: "delete", Run: (*driver).userWrite,
		Usage: `delete rollout|deployment NS/NAME
Deletes the object.`,
		Example: "delete deployment demo/web"},
	{Name: "deployment-status", Run: (*driver).deploymentStatus,
		Usage: `deployment-status NS/NAME available=N
Sets the Deployment's status as its own controller would: N replicas, all
available (UpdateStatus).`,
		Example: "deployment-status demo/web available=2"},
	{Name: "gc", Run: (*driver).gc,
		Usage: `gc
Plays the garbage collector: deletes every Deployment whose controlling
owner no longer exists.`},
}

// fieldManager is the controller's field manager; the driver logs only
// writes that carry it, so its own writes stay out of the trace.
const fieldManager = "rollout-controller"

var (
	rolloutsGVR    = v1alpha1.SchemeGroupVersion.WithResource("rollouts")
	deploymentsGVR = appsv1.SchemeGroupVersion.WithResource("deployments")
)

func (d *driver) userWrite(t testing.TB, td *datadriven.TestData) string {
	d.write(t, td)
	d.settle()
	return d.render("")
}

func (d *driver) deploymentStatus(t testing.TB, td *datadriven.TestData) string {
	ctx := context.Background()
	key := td.CmdArgs[0].Key
	deployments := d.env.Kube.AppsV1().Deployments(nsOf(key))
	dep, err := deployments.Get(ctx, nameOf(key), metav1.GetOptions{})
	if err != nil {
		td.Fatalf(t, "%v", err)
	}
	dep.Status.AvailableReplicas = int32(scenario.IntArg(t, td, "available", 0))
	dep.Status.Replicas = dep.Status.AvailableReplicas
	if _, err := deployments.UpdateStatus(ctx, dep, metav1.UpdateOptions{}); err != nil {
		td.Fatalf(t, "%v", err)
	}
	d.settle()
	return d.render("")
}

func (d *driver) gc(t testing.TB, _ *datadriven.TestData) string {
	d.collectGarbage(t)
	d.settle()
	return d.render("")
}

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

// write performs a create, update or delete of a Rollout or a Deployment.
func (d *driver) write(t testing.TB, td *datadriven.TestData) {
	if len(td.CmdArgs) < 2 {
		td.Fatalf(t, "%s KIND NAMESPACE/NAME ...", td.Cmd)
	}
	kind, key := td.CmdArgs[0].Key, td.CmdArgs[1].Key
	ns, name := nsOf(key), nameOf(key)
	args := map[string]string{}
	for _, a := range td.CmdArgs[2:] {
		args[a.Key] = strings.Join(a.Vals, ",")
	}
	ctx := context.Background()
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
		err = d.createDeployment(t, td, ns, name, args)
	case "delete deployment":
		err = deployments.Delete(ctx, name, metav1.DeleteOptions{})
	default:
		td.Fatalf(t, "unknown write %q", td.Cmd+" "+kind)
	}
	if err != nil {
		td.Fatalf(t, "%s %s %s: %v", td.Cmd, kind, key, err)
	}
}

// createDeployment creates a Deployment of one container, owned by the
// Rollout args["owner"] when it names one.
func (d *driver) createDeployment(t testing.TB, td *datadriven.TestData, ns, name string, args map[string]string) error {
	ctx := context.Background()
	dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	dep.Spec.Template.Spec.Containers = []corev1.Container{{Name: "app", Image: args["image"]}}
	if v, ok := args["replicas"]; ok {
		n, _ := strconv.Atoi(v)
		dep.Spec.Replicas = ptr.To(int32(n))
	}
	if owner, ok := args["owner"]; ok {
		if kind, name, byHand := strings.Cut(owner, "/"); byHand {
			// Another controller's reference, made up: the handlers must
			// tell a Rollout of this API group from any other owner.
			apiVersion := cmp.Or(args["owner-api"], "apps/v1")
			dep.OwnerReferences = []metav1.OwnerReference{{
				APIVersion: apiVersion, Kind: kind, Name: name, UID: types.UID("uid-of-" + name), Controller: ptr.To(true),
			}}
		} else {
			r, err := d.env.Walk.WalkthroughV1alpha1().Rollouts(ns).Get(ctx, owner, metav1.GetOptions{})
			if err != nil {
				td.Fatalf(t, "owner: %v", err)
			}
			dep.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(r, v1alpha1.SchemeGroupVersion.WithKind("Rollout"))}
		}
	}
	if also, ok := args["also"]; ok {
		// An owner that is not the controller, listed first: the
		// controller is the reference marked so, wherever it is.
		kind, name, _ := strings.Cut(also, "/")
		apiVersion := "v1"
		if kind == "Rollout" {
			apiVersion = v1alpha1.SchemeGroupVersion.String()
		}
		dep.OwnerReferences = append([]metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name, UID: types.UID("uid-of-" + name)}}, dep.OwnerReferences...)
	}
	_, err := d.env.Kube.AppsV1().Deployments(ns).Create(ctx, dep, metav1.CreateOptions{})
	return err
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

func nsOf(key string) string   { ns, _, _ := strings.Cut(key, "/"); return ns }
func nameOf(key string) string { _, name, _ := strings.Cut(key, "/"); return name }
