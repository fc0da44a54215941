package watchserver

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// A Deployment is the first built-in here with a strategy of its own, the
// rules of kube-apiserver's deployment registry for what a write may
// change. A controller reads two numbers to know whether it has acted on
// the newest spec: metadata.generation, which the server bumps, and
// status.observedGeneration, which the controller writes through /status.
// Both only mean something if each writer keeps to its half:
//
//   - a create starts at generation 1 with no status: a client cannot
//     claim the controller has already done its work;
//   - an update of the Deployment keeps the stored status whatever the
//     body says, and bumps the generation when the spec changed or the
//     annotations did (they are copied to the ReplicaSets, so a change of
//     them is work for the controller too), not for a label or a status;
//   - an update of /status keeps the stored spec, labels and generation,
//     and takes the rest (the status, annotations) from the body.
//
// Both compare semantically (apiequality.Semantic): an absent map and an
// empty one are the same, so a client that sends annotations: {} bumps
// nothing.
//
// Each write first fills in what apps/v1 defaults (defaultDeployment), as
// kube-apiserver's decoder does for every body: a manifest without
// replicas means 1, and its update must compare equal to the stored,
// defaulted spec, or every `kubectl apply` of an unchanged file would
// bump the generation.
//
// The strategy is a Resource's PrepareForCreate and PrepareForUpdate (and
// PrepareForStatusUpdate for /status), the hooks a custom resource's
// strategy uses: one set of handlers (createCustom, updateCustom, patch)
// runs them for both.
//
// upstream: k8s.io/kubernetes/pkg/registry/apps/deployment/strategy.go
// (deploymentStrategy.PrepareForCreate, deploymentStrategy.PrepareForUpdate,
// deploymentStrategy.AllowUnconditionalUpdate,
// deploymentStatusStrategy.PrepareForUpdate), with the generation kept from
// the stored object by k8s.io/apiserver/pkg/registry/rest/update.go
// (BeforeUpdate).

// prepareDeploymentCreate is a Deployment's create strategy: the
// defaults, no status, and generation 1.
func prepareDeploymentCreate(obj runtime.Object) {
	// exercise:begin 1
	d := obj.(*appsv1.Deployment)
	defaultDeployment(d)
	d.Status = appsv1.DeploymentStatus{}
	d.Generation = 1
	// exercise:end 1
}

// prepareDeploymentUpdate is a Deployment's update strategy, d the body
// and o the stored object: the defaults, the stored status, and the
// stored generation, plus 1 when the spec or the annotations changed.
func prepareDeploymentUpdate(obj, old runtime.Object) {
	// exercise:begin 2
	d, o := obj.(*appsv1.Deployment), old.(*appsv1.Deployment)
	defaultDeployment(d)
	d.Status = o.Status
	d.Generation = o.Generation
	if !apiequality.Semantic.DeepEqual(d.Spec, o.Spec) || !apiequality.Semantic.DeepEqual(d.Annotations, o.Annotations) {
		d.Generation = o.Generation + 1
	}
	// exercise:end 2
}

// prepareDeploymentStatusUpdate is the strategy of a Deployment's
// /status, d the body and o the stored object: the stored spec, labels
// and generation, the rest the body's.
func prepareDeploymentStatusUpdate(obj, old runtime.Object) {
	// exercise:begin 2
	d, o := obj.(*appsv1.Deployment), old.(*appsv1.Deployment)
	d.Spec = o.Spec
	d.Labels = o.Labels
	d.Generation = o.Generation
	// exercise:end 2
}

// defaultDeployment fills in what apps/v1 defaults in a Deployment: one
// replica, a RollingUpdate of 25% up and 25% down, ten old ReplicaSets
// kept, ten minutes to progress, and its pod template's defaults.
//
// upstream: k8s.io/kubernetes/pkg/apis/apps/v1/defaults.go
// (SetDefaults_Deployment), with the pod template's from
// k8s.io/kubernetes/pkg/apis/core/v1/defaults.go (SetDefaults_PodSpec,
// SetDefaults_Container); the generated
// k8s.io/kubernetes/pkg/apis/apps/v1/zz_generated.defaults.go
// (SetObjectDefaults_Deployment) also defaults volumes, probes and env
// sources, which these do not (see docs/07's "How kube-apiserver differs").
func defaultDeployment(d *appsv1.Deployment) {
	// exercise:begin 1
	spec := &d.Spec
	if spec.Replicas == nil {
		spec.Replicas = ptr.To[int32](1)
	}
	if spec.Strategy.Type == "" {
		spec.Strategy.Type = appsv1.RollingUpdateDeploymentStrategyType
	}
	if spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if spec.Strategy.RollingUpdate == nil {
			spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
		// A quarter of the replicas, rounded: down for the unavailable,
		// up for the surge, so that a single replica can roll.
		quarter := intstr.FromString("25%")
		if spec.Strategy.RollingUpdate.MaxUnavailable == nil {
			spec.Strategy.RollingUpdate.MaxUnavailable = ptr.To(quarter)
		}
		if spec.Strategy.RollingUpdate.MaxSurge == nil {
			spec.Strategy.RollingUpdate.MaxSurge = ptr.To(quarter)
		}
	}
	if spec.RevisionHistoryLimit == nil {
		spec.RevisionHistoryLimit = ptr.To[int32](10)
	}
	if spec.ProgressDeadlineSeconds == nil {
		spec.ProgressDeadlineSeconds = ptr.To[int32](600)
	}
	defaultPodSpec(&spec.Template.Spec)
	// exercise:end 1
}

// defaultPodSpec fills in a pod template's defaults, and each container's.
func defaultPodSpec(p *corev1.PodSpec) {
	// exercise:begin 1
	// serviceAccount is the old name of serviceAccountName: the two are
	// kept the same, the new one winning.
	if p.ServiceAccountName == "" {
		p.ServiceAccountName = p.DeprecatedServiceAccount
	}
	p.DeprecatedServiceAccount = p.ServiceAccountName
	if p.DNSPolicy == "" {
		p.DNSPolicy = corev1.DNSClusterFirst
	}
	if p.RestartPolicy == "" {
		p.RestartPolicy = corev1.RestartPolicyAlways
	}
	if p.SecurityContext == nil {
		p.SecurityContext = &corev1.PodSecurityContext{}
	}
	if p.TerminationGracePeriodSeconds == nil {
		p.TerminationGracePeriodSeconds = ptr.To[int64](corev1.DefaultTerminationGracePeriodSeconds)
	}
	if p.SchedulerName == "" {
		p.SchedulerName = corev1.DefaultSchedulerName
	}
	for i := range p.InitContainers {
		defaultContainer(&p.InitContainers[i])
	}
	for i := range p.Containers {
		defaultContainer(&p.Containers[i])
	}
	// exercise:end 1
}

// defaultContainer fills in a container's defaults: where its termination
// message goes, its ports' protocol, and when its image is pulled.
func defaultContainer(c *corev1.Container) {
	// exercise:begin 1
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = corev1.PullIfNotPresent
		if imageTag(c.Image) == "latest" {
			// A moving tag: pull it every time, or a node keeps
			// running whatever it pulled first.
			c.ImagePullPolicy = corev1.PullAlways
		}
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = corev1.ProtocolTCP
		}
	}
	// exercise:end 1
}

// imageTag is an image reference's tag: "latest" when it has neither a
// tag nor a digest (the registry's default), "" when it has a digest
// only, or is empty. The tag follows the last ':' of the last path
// element: a registry's port (host:5000/app) is not one.
func imageTag(image string) string {
	// exercise:begin 1
	if image == "" {
		return ""
	}
	name, _, hasDigest := strings.Cut(image, "@")
	last := name[strings.LastIndex(name, "/")+1:]
	if _, tag, ok := strings.Cut(last, ":"); ok {
		return tag
	}
	if hasDigest {
		return ""
	}
	return "latest"
	// exercise:end 1
}
