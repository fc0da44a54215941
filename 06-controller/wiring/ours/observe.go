package ours

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"

	deltafifo "example.com/walkthrough/02-deltafifo"
	processor "example.com/walkthrough/04-processor"
	workqueue "example.com/walkthrough/05-workqueue"
	"example.com/walkthrough/06-controller/viewer"
)

// informerView is what the step-through viewer shows of one informer.
// Most of it is read from the components themselves, each under its own
// lock; the rest is kept here from the trace:
//
//   - the Reflector's phase (it has no such accessor);
//   - the handler's pending notifications: popped, not yet handled (the
//     listener's buffer belongs to its pop goroutine, unlocked);
//   - the FIFO while a pop is being traced: the pop may hold the FIFO's
//     lock (the DeltaFIFO always does, a RealFIFO with a long log too),
//     so the viewer shows the FIFO's last snapshot less what was popped;
//   - the delta being queued, which is traced just before the FIFO takes
//     it: the viewer shows the FIFO with it, as it is once the step is
//     done.
type informerView struct {
	resource string
	informer *processor.SharedIndexInformer

	// byKey: the FIFO keeps one entry per key (the DeltaFIFO), not one
	// per delta (the RealFIFO's log).
	byKey bool

	mu       sync.Mutex
	queue    processor.Queue // the informer's FIFO, once its pipeline is built
	phase    string
	pops     int // pops being traced right now
	fifo     []viewer.FIFOEntry
	incoming []processor.Delta // being queued: traced just before the write
	pending  []string          // "Added demo/web", oldest first
}

// pipeline builds chapter 04's walkthrough pipeline and keeps its queue.
func (v *informerView) pipeline(cfg processor.PipelineConfig) (processor.Reflector, processor.Queue) {
	r, q := processor.NewWalkthroughPipeline(cfg)
	v.mu.Lock()
	v.queue = q
	v.mu.Unlock()
	return r, q
}

func (v *informerView) setPhase(phase string) {
	v.mu.Lock()
	v.phase = phase
	v.mu.Unlock()
}

// queueing is called as d is traced on its way into the FIFO, and
// queued once it has been.
func (v *informerView) queueing(d processor.Delta) {
	v.mu.Lock()
	v.incoming = append(v.incoming, d)
	v.mu.Unlock()
}

func (v *informerView) queued() {
	v.mu.Lock()
	v.incoming = nil
	v.mu.Unlock()
}

// popping takes the popped deltas out of the FIFO's last snapshot and
// queues their notifications for the handler.
func (v *informerView) popping(deltas processor.Deltas) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.pops++
	for _, d := range deltas {
		key := deltafifo.PendingKey(d.Object)
		v.fifo = removeFirst(v.fifo, func(e viewer.FIFOEntry) bool { return e.Key == key })
		switch info := d.Object.(type) {
		case processor.ReplacedAllInfo:
			for _, obj := range info.Objects {
				v.pending = append(v.pending, string(d.Type)+" "+deltafifo.PendingKey(obj))
			}
		case processor.SyncAllInfo, processor.BookmarkInfo:
		default:
			v.pending = append(v.pending, string(d.Type)+" "+deltafifo.PendingKey(d.Object))
		}
	}
}

func (v *informerView) popped() {
	v.mu.Lock()
	v.pops--
	v.mu.Unlock()
}

// handled takes key's oldest notification off the handler's list.
func (v *informerView) handled(key string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for i, p := range v.pending {
		if strings.HasSuffix(p, " "+key) {
			v.pending = slices.Delete(v.pending, i, i+1)
			return
		}
	}
}

// state reads the informer's components. It holds no lock while it reads
// one: a component's lock may be held by a goroutine that is tracing.
func (v *informerView) state() viewer.Informer {
	v.mu.Lock()
	out := viewer.Informer{Resource: v.resource, Reflector: viewer.Reflector{Phase: v.phase}, Handler: slices.Clone(v.pending)}
	queue, popping := v.queue, v.pops > 0
	fifo := slices.Clone(v.fifo)
	incoming := slices.Clone(v.incoming)
	v.mu.Unlock()

	if queue != nil && !popping {
		if pending, ok := processor.PendingOf(queue); ok {
			fifo = fifoEntries(pending)
			v.mu.Lock()
			// A copy: popping deletes from v.fifo in place, and fifo
			// goes into the step being recorded, which the viewer's
			// page may be encoding at that moment.
			v.fifo = slices.Clone(fifo)
			v.mu.Unlock()
		}
	}
	out.FIFO = v.withIncoming(fifo, incoming)
	out.Reflector.ResourceVersion = v.informer.LastSyncResourceVersion()
	idx := v.informer.GetIndexer()
	keys := idx.ListKeys()
	sort.Strings(keys)
	for _, k := range keys {
		obj, ok, err := idx.GetByKey(k)
		if err != nil || !ok {
			continue
		}
		rv := ""
		if m, err := meta.Accessor(obj); err == nil {
			rv = m.GetResourceVersion()
		}
		out.Indexer = append(out.Indexer, viewer.Object{Key: k, ResourceVersion: rv})
	}
	names := make([]string, 0)
	for name := range idx.GetIndexers() {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		index := viewer.Index{Name: name}
		values := idx.ListIndexFuncValues(name)
		sort.Strings(values)
		for _, value := range values {
			keys, err := idx.IndexKeys(name, value)
			if err != nil || len(keys) == 0 {
				continue
			}
			sort.Strings(keys)
			index.Values = append(index.Values, viewer.IndexValue{Value: value, Keys: keys})
		}
		out.Indexes = append(out.Indexes, index)
	}
	return out
}

// State is what the viewer shows: both informers and the workqueue.
func (w *Wiring) State() viewer.State {
	var s viewer.State
	for _, v := range w.views {
		s.Informers = append(s.Informers, v.state())
	}
	if q, ok := workqueue.Observe[string](w.queue); ok {
		s.Queue = viewer.Queue{Queue: q.Queue, Dirty: q.Dirty, Processing: q.Processing}
		now := time.Now()
		for _, item := range q.Waiting {
			s.Queue.Waiting = append(s.Queue.Waiting, viewer.Waiting{Key: item.Item, ReadyMS: item.ReadyAt.Sub(now).Milliseconds()})
		}
		if len(q.Requeues) > 0 {
			s.Queue.Requeues = q.Requeues
		}
	}
	return s
}

// withIncoming is the FIFO once the deltas being queued are in: a
// DeltaFIFO files each under its key, a RealFIFO appends each to its log.
// A whole list becomes one ReplacedAll delta in the atomic RealFIFO, one
// Replaced delta per object in the others.
func (v *informerView) withIncoming(fifo []viewer.FIFOEntry, incoming []processor.Delta) []viewer.FIFOEntry {
	var deltas []processor.Delta
	for _, d := range incoming {
		if info, ok := d.Object.(processor.ReplacedAllInfo); ok && v.byKey {
			for _, obj := range info.Objects {
				deltas = append(deltas, processor.Delta{Type: processor.Replaced, Object: obj})
			}
			continue
		}
		deltas = append(deltas, d)
	}
	for _, d := range deltas {
		key, text := deltafifo.PendingKey(d.Object), deltafifo.DescribeDelta(d)
		if i := slices.IndexFunc(fifo, func(e viewer.FIFOEntry) bool { return e.Key == key }); v.byKey && i >= 0 {
			fifo[i].Deltas = append(slices.Clone(fifo[i].Deltas), text)
			continue
		}
		fifo = append(fifo, viewer.FIFOEntry{Key: key, Deltas: []string{text}})
	}
	return fifo
}

func fifoEntries(pending []deltafifo.Pending) []viewer.FIFOEntry {
	out := make([]viewer.FIFOEntry, len(pending))
	for i, p := range pending {
		out[i] = viewer.FIFOEntry{Key: p.Key, Deltas: p.Deltas}
	}
	return out
}

func removeFirst[E any](s []E, match func(E) bool) []E {
	if i := slices.IndexFunc(s, match); i >= 0 {
		return slices.Delete(s, i, i+1)
	}
	return s
}
