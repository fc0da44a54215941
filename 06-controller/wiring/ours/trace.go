package ours

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	processor "example.com/walkthrough/04-processor"
)

// newTracer turns what chapter 04's pipeline reports about one resource
// into the demo's trace lines: the Reflector's lists (a LIST, or the end
// of a WatchList's initial events) and watch events, the FIFO's writes,
// and each pop (or batch of pops) on its way into the Indexer and the
// handlers. It tells v, which keeps what the viewer shows of the
// informer beyond its components' own state, before each line. With no
// trace (nil: the scenarios and the benchmarks) there is no tracer: a
// line per event and stage was a tenth of what a reconcile allocated, and
// the view's bookkeeping two percent more.
func newTracer(resource string, v *informerView, trace func(stage, key, message string)) *processor.Tracer {
	if trace == nil {
		// No one traces, so no one reads the view: the pipeline has no
		// stage to call.
		return nil
	}
	return &processor.Tracer{
		Listed: func(items []runtime.Object, rv string) {
			v.setPhase("watching")
			trace(StageReflector, "", fmt.Sprintf("LIST %s: %d items at rv %s", resource, len(items), rv))
		},
		Watched: func(ev watch.Event) {
			if ev.Type == watch.Error {
				return
			}
			if ev.Type == watch.Bookmark {
				if m, err := meta.Accessor(ev.Object); err == nil && m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
					v.setPhase("watching")
					trace(StageReflector, "", fmt.Sprintf("WatchList %s: initial events end at rv %s", resource, m.GetResourceVersion()))
				}
				return
			}
			if m, err := meta.Accessor(ev.Object); err == nil {
				trace(StageReflector, keyOf(m), fmt.Sprintf("watch %s %s rv=%s", ev.Type, resource, m.GetResourceVersion()))
			}
		},
		Queued: func(d processor.Delta) {
			v.queueing(d)
			defer v.queued()
			switch info := d.Object.(type) {
			case processor.ReplacedAllInfo:
				trace(StageFIFO, "", fmt.Sprintf("queue the list of %s: %d items", resource, len(info.Objects)))
			default:
				if m, err := meta.Accessor(d.Object); err == nil {
					trace(StageFIFO, keyOf(m), fmt.Sprintf("queue %s %s", d.Type, resource))
				}
			}
		},
		Popped: func(deltas processor.Deltas, batch bool) {
			v.popping(deltas)
			defer v.popped()
			if batch {
				trace(StageIndexer, "", fmt.Sprintf("pop a batch of %d %s: store them all, then notify handlers", len(deltas), resource))
			}
			for _, d := range deltas {
				if m, err := meta.Accessor(d.Object); err == nil {
					trace(StageIndexer, keyOf(m), fmt.Sprintf("pop %s %s: store it, notify handlers", d.Type, resource))
				} else if d.Type == processor.ReplacedAll {
					trace(StageIndexer, "", fmt.Sprintf("pop ReplacedAll %s: store the list, notify handlers", resource))
				}
			}
		},
	}
}

func keyOf(m metav1.Object) string { return m.GetNamespace() + "/" + m.GetName() }
