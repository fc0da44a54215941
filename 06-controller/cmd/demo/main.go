// Command demo runs the chapter 06 controller, built only from the
// workshop's own parts, through a short story, and prints every step each
// change takes on its way through the machinery:
//
//	reflector → fifo → indexer → handler → queue → worker → api
//
// By default it needs nothing installed: the "cluster" is client-go's
// fake clientsets in this process (package fakeapi). With -kubeconfig it
// runs against a real cluster instead, applying the Rollout CRD first.
//
//	go run ./06-controller/cmd/demo                       # embedded
//	go run ./06-controller/cmd/demo -kubeconfig PATH      # a real cluster
//	go run ./06-controller/cmd/demo -trace PATH           # also record each step with every component's state
//	go run ./06-controller/cmd/demo -view web             # watch it in the browser (package viewer)
//	go run ./06-controller/cmd/demo -view web -trace PATH # replay a recorded trace in the browser
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"

	controller "example.com/walkthrough/06-controller"
	"example.com/walkthrough/06-controller/crd"
	"example.com/walkthrough/06-controller/fakeapi"
	"example.com/walkthrough/06-controller/pkg/apis/walkthrough/v1alpha1"
	"example.com/walkthrough/06-controller/pkg/generated/clientset/versioned"
	"example.com/walkthrough/06-controller/viewer"
	"example.com/walkthrough/06-controller/wiring/ours"
	"example.com/walkthrough/workshop/chapters"
)

var pause *time.Duration

func main() {
	kubeconfig := flag.String("kubeconfig", "", "run against this cluster instead of the embedded fake one")
	pause = flag.Duration("pause", 300*time.Millisecond, "pause between steps, to read the trace as it goes")
	simulate := flag.Bool("simulate-deployments", true, "play the Deployment controller (make Deployments report their replicas available); the embedded cluster and the local control plane have none")
	mode := flag.String("mode", "today", `the informers' path: "today" (WatchList, atomic RealFIFO, batch pops) or "classic" (LIST then WATCH, DeltaFIFO, one pop at a time)`)
	tracePath := flag.String("trace", "", "write every step, with what each component holds, to this file as JSON lines; with -view web, replay this file instead of running")
	view := flag.String("view", "", `"web" serves the step-through viewer on -view-addr while the demo runs, and after it until Ctrl-C`)
	viewAddr := flag.String("view-addr", "127.0.0.1:8089", "where -view web serves (loopback only)")
	flag.Parse()
	if *mode != "today" && *mode != "classic" {
		fail(2, fmt.Errorf("-mode is %q; use today or classic (make demo MODE=classic)", *mode))
	}
	if *view != "" && *view != "web" {
		fail(2, fmt.Errorf("-view is %q; the one viewer is web (make demo VIEW=web)", *view))
	}
	if *view == "web" && *tracePath != "" {
		fail(1, replay(*tracePath, *viewAddr))
	}
	var traceFile *os.File
	if *tracePath != "" {
		f, err := os.Create(*tracePath)
		if err != nil {
			fail(1, fmt.Errorf("trace: %w", err))
		}
		traceFile = f
	}
	var rec *viewer.Recorder
	if traceFile != nil {
		rec = viewer.NewRecorder(traceFile)
	} else if *view == "web" {
		rec = viewer.NewRecorder(nil) // steps for the page, no file
	}
	var srv *viewer.Server
	if *view == "web" {
		var err error
		if srv, err = viewer.Serve(*viewAddr, rec, repoRoot()); err != nil {
			fail(1, err)
		}
		fmt.Printf("The step-through viewer is at %s (it follows the demo live).\n\n", srv.URL)
	}
	err := run(os.Stdout, *kubeconfig, *simulate, *mode == "classic", rec)
	if rec != nil {
		if cerr := rec.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("trace %s: %w", *tracePath, cerr)
		}
	}
	if traceFile != nil {
		if cerr := traceFile.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("trace %s: %w", *tracePath, cerr)
		}
		if err == nil {
			fmt.Printf("\nThe trace is in %s: replay it with make demo VIEW=web TRACE=%s\n", *tracePath, *tracePath)
		}
	}
	if err != nil {
		fail(1, err)
	}
	nextSteps(os.Stdout, *mode == "classic", srv != nil)
	if srv != nil {
		fmt.Printf("\nThe story is over; the viewer stays at %s to step through it. Ctrl-C stops it.\n", srv.URL)
		waitForInterrupt()
		srv.Close()
	}
}

// nextSteps ends the demo with the other ways to run it, leaving out the
// one just run.
func nextSteps(out io.Writer, classic, web bool) {
	try := [][2]string{{"make demo MODE=classic", "the classic informers, one pop at a time"}}
	if classic {
		try[0] = [2]string{"make demo", "today's informers, with batch pops"}
	}
	if !web {
		try = append(try, [2]string{"make demo VIEW=web", "step through this story in your browser"})
	}
	try = append(try, [2]string{"make demo MINE=1", "on your own chapters (those that pass)"})
	fmt.Fprintln(out)
	for i, t := range try {
		label := "Next: "
		if i > 0 {
			label = "      "
		}
		fmt.Fprintf(out, "%s%-22s  %s\n", label, t[0], t[1])
	}
}

func fail(code int, err error) {
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "demo:", err)
	os.Exit(code)
}

// replay serves a recorded trace in the viewer until Ctrl-C.
func replay(path, addr string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("trace: %w (record one with make demo TRACE=%s)", err, path)
	}
	defer f.Close()
	rec, err := viewer.Replay(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	srv, err := viewer.Serve(addr, rec, repoRoot())
	if err != nil {
		return err
	}
	defer srv.Close()
	steps, _, _ := rec.Steps(0)
	fmt.Printf("Replaying %s (%d steps) at %s. Ctrl-C stops it.\n", path, len(steps), srv.URL)
	waitForInterrupt()
	return nil
}

func waitForInterrupt() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	<-ctx.Done()
}

// repoRoot is the workshop's root, where the viewer's links to chapter
// docs and files point, when the demo runs inside it (make demo does);
// "" elsewhere, and the page's links go nowhere.
func repoRoot() string {
	root, err := chapters.Root()
	if err != nil {
		return ""
	}
	return root
}

// world is where the demo runs: clients, a namespace, and whether the
// API server is the embedded fake (which can inject a conflict).
type world struct {
	kube     kubernetes.Interface
	walk     versioned.Interface
	ns       string
	where    string
	injectCo func() // makes the next status update conflict; nil on a real cluster
}

// run tells the story. rec, when not nil, records every step with what
// each component holds.
func run(out io.Writer, kubeconfig string, simulate, classic bool, rec *viewer.Recorder) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w, err := connect(ctx, kubeconfig)
	if err != nil {
		return err
	}
	p := newPrinter(out, w.ns, rec)
	p.banner(w.where)

	// The machinery: chapter 01–05 parts, traced at every stage.
	wiring := ours.New(w.kube, w.walk, ours.Options{Trace: p.trace, Classic: classic})
	if rec != nil {
		rec.SetState(wiring.State)
	}
	c := controller.New(controller.Config{
		Rollouts:         wiring.Rollouts(),
		Deployments:      wiring.Deployments(),
		Queue:            wiring.Queue(),
		DeploymentClient: func(ns string) controller.DeploymentWriter { return w.kube.AppsV1().Deployments(ns) },
		RolloutClient:    func(ns string) controller.RolloutStatusWriter { return w.walk.WalkthroughV1alpha1().Rollouts(ns) },
		Recorder:         recorder{p},
		Synced:           wiring.Synced(),
		Trace:            p.trace,
	})
	if err := wiring.AddHandlers(ours.Handlers{
		RolloutAdd: c.OnRolloutAdd, RolloutUpdate: c.OnRolloutUpdate, RolloutDelete: c.OnRolloutDelete,
		DeploymentAdd: c.OnDeploymentAdd, DeploymentUpdate: c.OnDeploymentUpdate, DeploymentDelete: c.OnDeploymentDelete,
	}); err != nil {
		return err
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	if classic {
		p.section("Start: classic informers (LIST+WATCH, DeltaFIFO, single pops); workers wait")
	} else {
		p.section("Start: today's informers (WatchList or LIST, batch pops); workers wait")
	}
	wiring.Start(runCtx)
	runDone := make(chan error, 1)
	go func() { runDone <- c.Run(runCtx, 2) }()
	if simulate {
		go simulateDeployments(runCtx, w, p)
	}
	if err := waitFor(ctx, func() (bool, error) {
		for _, s := range wiring.Synced() {
			if !s() {
				return false, nil
			}
		}
		return true, nil
	}); err != nil {
		return fmt.Errorf("caches did not sync: %w", err)
	}
	p.done()

	rollouts := w.walk.WalkthroughV1alpha1().Rollouts(w.ns)
	deployments := w.kube.AppsV1().Deployments(w.ns)
	inStep := func(replicas int32, image string, wantAvailable bool) func() (bool, error) {
		return func() (bool, error) {
			r, err := rollouts.Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
			if err != nil || d.Spec.Replicas == nil || *d.Spec.Replicas != replicas || d.Spec.Template.Spec.Containers[0].Image != image {
				return false, nil
			}
			if r.Status.ObservedGeneration != r.Generation {
				return false, nil
			}
			return !wantAvailable || (r.Status.AvailableReplicas == replicas && d.Status.AvailableReplicas == replicas), nil
		}
	}

	steps := []struct {
		title string
		do    func() error
		until func() (bool, error)
	}{
		{"Create Rollout web: 2 replicas of nginx:1.27", func() error {
			_, err := rollouts.Create(ctx, &v1alpha1.Rollout{
				ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: w.ns},
				Spec:       v1alpha1.RolloutSpec{DeploymentName: "web", Replicas: ptr.To[int32](2), Image: "nginx:1.27"},
			}, metav1.CreateOptions{})
			return err
		}, inStep(2, "nginx:1.27", simulate)},
		{"Scale web to 4 replicas", func() error {
			return updateRollout(ctx, w, func(r *v1alpha1.Rollout) { r.Spec.Replicas = ptr.To[int32](4) })
		}, inStep(4, "nginx:1.27", simulate)},
		{"Change web's image to nginx:1.28", func() error {
			return updateRollout(ctx, w, func(r *v1alpha1.Rollout) { r.Spec.Image = "nginx:1.28" })
		}, inStep(4, "nginx:1.28", simulate)},
		{"Delete the Deployment behind the controller's back", func() error {
			return deployments.Delete(ctx, "web", metav1.DeleteOptions{})
		}, inStep(4, "nginx:1.28", false)},
	}
	if w.injectCo != nil {
		steps = append(steps, struct {
			title string
			do    func() error
			until func() (bool, error)
		}{"Scale to 3; the API server answers the status update with a Conflict", func() error {
			w.injectCo()
			return updateRollout(ctx, w, func(r *v1alpha1.Rollout) { r.Spec.Replicas = ptr.To[int32](3) })
		}, inStep(3, "nginx:1.28", simulate)})
	}
	steps = append(steps, struct {
		title string
		do    func() error
		until func() (bool, error)
	}{"Delete Rollout web", func() error {
		return rollouts.Delete(ctx, "web", metav1.DeleteOptions{})
	}, func() (bool, error) { return p.stepSaw("rollout no longer exists"), nil }})

	for _, s := range steps {
		p.section(s.title)
		if err := s.do(); err != nil {
			return fmt.Errorf("%s: %w", s.title, err)
		}
		if err := waitFor(ctx, s.until); err != nil {
			return fmt.Errorf("%s: the controller did not catch up: %w", s.title, err)
		}
		p.settle()
		p.done()
		time.Sleep(*pause)
	}

	p.section("Stop: the queue drains, the workers finish, Run returns")
	stop()
	if err := <-runDone; err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	wiring.Shutdown()
	p.done()
	p.summary()
	return nil
}

// connect builds the world: the embedded fake cluster, or a real one.
func connect(ctx context.Context, kubeconfig string) (*world, error) {
	if kubeconfig == "" {
		api := fakeapi.New(nil)
		w := &world{kube: api.Kube, walk: api.Walk, ns: "demo", where: "the embedded API server (client-go fake clientsets, in this process)"}
		var once sync.Once
		w.injectCo = func() {
			armed := true
			once.Do(func() {
				api.Walk.PrependReactor("update", "rollouts", func(a k8stesting.Action) (bool, runtime.Object, error) {
					if !armed || a.GetSubresource() != "status" {
						return false, nil, nil
					}
					armed = false
					m, _ := meta.Accessor(a.(k8stesting.UpdateAction).GetObject())
					return true, nil, apierrors.NewConflict(v1alpha1.Resource("rollouts"), m.GetName(), errors.New("the object has been modified"))
				})
			})
		}
		return w, nil
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	walk, err := versioned.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ext, err := apiextensions.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	if err := crd.Apply(ctx, ext); err != nil {
		return nil, err
	}
	ns := fmt.Sprintf("rollout-demo-%d", time.Now().Unix())
	if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create namespace %s: %w", ns, err)
	}
	return &world{kube: kube, walk: walk, ns: ns, where: "the cluster in " + kubeconfig}, nil
}

func updateRollout(ctx context.Context, w *world, change func(*v1alpha1.Rollout)) error {
	for {
		r, err := w.walk.WalkthroughV1alpha1().Rollouts(w.ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(r)
		_, err = w.walk.WalkthroughV1alpha1().Rollouts(w.ns).Update(ctx, r, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// simulateDeployments plays the Deployment controller, which neither the
// embedded cluster nor the local control plane runs: 150ms after a
// Deployment changes, it reports all its replicas available.
func simulateDeployments(ctx context.Context, w *world, p *printer) {
	deployments := w.kube.AppsV1().Deployments(w.ns)
	watcher, err := deployments.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		p.trace("cluster", "", fmt.Sprintf("(simulated) cannot watch deployments: %v", err))
		return
	}
	defer watcher.Stop()
	for ev := range watcher.ResultChan() {
		d, ok := ev.Object.(*appsv1.Deployment)
		if !ok || d.Spec.Replicas == nil || d.Status.AvailableReplicas == *d.Spec.Replicas && d.Status.ObservedGeneration == d.Generation {
			continue
		}
		go func(name string) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(150 * time.Millisecond):
			}
			d, err := deployments.Get(ctx, name, metav1.GetOptions{})
			if err != nil || d.Spec.Replicas == nil || d.Status.AvailableReplicas == *d.Spec.Replicas && d.Status.ObservedGeneration == d.Generation {
				return
			}
			n := *d.Spec.Replicas
			d.Status.ObservedGeneration = d.Generation
			d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.ReadyReplicas, d.Status.AvailableReplicas = n, n, n, n
			if _, err := deployments.UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil {
				p.trace("cluster", w.ns+"/"+name, fmt.Sprintf("(simulated) status update failed: %v", err))
				return
			}
			p.trace("cluster", w.ns+"/"+name, fmt.Sprintf("(simulated) deployment %s: %d/%d available", name, n, n))
		}(d.Name)
	}
}

func waitFor(ctx context.Context, cond func() (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	for {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// recorder prints Events as the trace's last stage.
type recorder struct{ p *printer }

func (r recorder) Eventf(obj runtime.Object, eventtype, reason, format string, args ...any) {
	// The controller already traces each Event (stage "event"); a real
	// cluster would get an Event object here.
}

// --- the printer -----------------------------------------------------------

// printer writes the live trace, 80 columns wide, and keeps the numbers
// for the summary.
type printer struct {
	mu      sync.Mutex
	out     io.Writer
	rec     *viewer.Recorder // nil: no viewer, no trace file
	ns      string
	start   time.Time
	step    *stepStats
	steps   []*stepStats
	byStage map[string]int
	// lateWrites counts API writes traced after their step's "done"
	// line (a status update the simulated Deployment controller caused).
	lateWrites int
}

type stepStats struct {
	title           string
	start           time.Time
	took            time.Duration
	writes, retries int
	stages          map[string]int
	messages        string
	// closed is set when the step's "done" line is printed: what the
	// trace shows after it is not counted in the step (lateWrites).
	closed bool
}

// stageOrder is the order of the columns in the summary.
var stageOrder = []string{"reflector", "fifo", "indexer", "handler", "queue", "worker", "api", "event"}

func newPrinter(out io.Writer, ns string, rec *viewer.Recorder) *printer {
	return &printer{out: out, rec: rec, ns: ns, start: time.Now(), byStage: map[string]int{}}
}

func (p *printer) banner(where string) {
	fmt.Fprintf(p.out, "Rollout controller demo: chapters 01-05 wired into one controller, on\n%s.\n", where)
	fmt.Fprintf(p.out, "Each line is one step of one change:\n")
	fmt.Fprintf(p.out, "  reflector → fifo → indexer → handler → queue → worker → api (+ event)\n")
	fmt.Fprintf(p.out, "Objects are in namespace %q.\n", p.ns)
}

func (p *printer) section(title string) {
	if p.rec != nil {
		p.rec.Section(title)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.steps) + 1
	p.step = &stepStats{title: title, start: time.Now(), stages: map[string]int{}}
	p.steps = append(p.steps, p.step)
	head := fmt.Sprintf("── %d. %s ", n, title)
	if pad := 80 - len([]rune(head)); pad > 0 {
		head += strings.Repeat("─", pad)
	}
	fmt.Fprintf(p.out, "\n%s\n", head)
}

// settle lets the trace of a step's last changes print before its footer.
func (p *printer) settle() { time.Sleep(30 * time.Millisecond) }

func (p *printer) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.step.took = time.Since(p.step.start)
	p.step.closed = true
	fmt.Fprintf(p.out, "%*s\n", 80, fmt.Sprintf("done in %s: %d API writes, %d retries",
		p.step.took.Round(time.Millisecond), p.step.writes, p.step.retries))
}

func (p *printer) trace(stage, key, msg string) {
	// The recorder snapshots every component: not under p.mu, which a
	// goroutine holding a component's lock may be waiting for.
	if p.rec != nil {
		p.rec.Trace(stage, key, msg)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	name := strings.TrimPrefix(key, p.ns+"/")
	if name == "" {
		name = "-"
	}
	head := fmt.Sprintf("%7.3fs %-9s %-6s ", time.Since(p.start).Seconds(), stage, name)
	fmt.Fprintln(p.out, head+wrap(msg, 80-len([]rune(head)), strings.Repeat(" ", len([]rune(head)))))
	p.byStage[stage]++
	if p.step != nil {
		p.step.messages += msg + "\n"
	}
	if p.step != nil && p.step.closed {
		// The summary counts what the trace shows before "done".
		if stage == controller.StageAPI {
			p.lateWrites++
		}
	} else if p.step != nil {
		p.step.stages[stage]++
		if stage == controller.StageAPI {
			p.step.writes++
		}
		if stage == controller.StageQueue && strings.HasPrefix(msg, "retry later") {
			p.step.retries++
		}
	}
}

// stepSaw reports whether a trace line of the current step contains msg.
func (p *printer) stepSaw(msg string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.step != nil && strings.Contains(p.step.messages, msg)
}

func (p *printer) summary() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "\n%s\n", "── Summary "+strings.Repeat("─", 69))
	fmt.Fprintf(p.out, "%-50s %5s %6s %7s %8s\n", "step", "lines", "writes", "retries", "time")
	for i, s := range p.steps {
		lines := 0
		for _, n := range s.stages {
			lines += n
		}
		title := strings.Split(wrap(fmt.Sprintf("%d. %s", i+1, s.title), 50, "   "), "\n")
		fmt.Fprintf(p.out, "%-50s %5d %6d %7d %8s\n", title[0], lines, s.writes, s.retries, s.took.Round(time.Millisecond))
		for _, more := range title[1:] {
			fmt.Fprintln(p.out, more)
		}
	}
	fmt.Fprintf(p.out, "%-50s %5s %6s %7s %8s\n", "total, with pauses to read", "", "", "", time.Since(p.start).Round(time.Millisecond))
	fmt.Fprintln(p.out)
	var stages []string
	for _, s := range stageOrder {
		stages = append(stages, fmt.Sprintf("%s %d", s, p.byStage[s]))
	}
	var extra []string
	for s, n := range p.byStage {
		if !contains(stageOrder, s) {
			extra = append(extra, fmt.Sprintf("%s %d", s, n))
		}
	}
	sort.Strings(extra)
	fmt.Fprintln(p.out, wrap("Lines per stage: "+strings.Join(append(stages, extra...), ", ")+".", 80, ""))
	if p.lateWrites > 0 {
		fmt.Fprintln(p.out, wrap(fmt.Sprintf("%d API %s landed after the \"done\" line of %s step; the trace shows %s, the steps above do not count %s.",
			p.lateWrites, plural(p.lateWrites, "write", "writes"), plural(p.lateWrites, "its", "their"), plural(p.lateWrites, "it", "them"), plural(p.lateWrites, "it", "them")), 80, ""))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wrap folds text into lines of at most width runes, breaking between
// words, and starts every line after the first with indent: a trace line
// is read in full, never cut.
func wrap(text string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, line)
			line = word
			continue
		}
		line = strings.TrimSpace(line + " " + word)
	}
	lines = append(lines, line)
	return strings.Join(lines, "\n"+indent)
}
