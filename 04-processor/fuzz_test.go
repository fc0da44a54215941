package processor_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"example.com/walkthrough/workshop/scenario"
)

// FuzzInformer plays the same random story (watch events, relists, a late
// handler) on our informer and on client-go's, each in its own synctest
// bubble, and compares what every handler was told and what the cache
// held after every step. Within a step the calls are compared as a set:
// a relist's tombstones come in map order. `make test` runs the seed
// corpus; `make fuzz CH=04` searches for new stories.
func FuzzInformer(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 0, 4, 3, 7, 1, 2, 4, 10, 6, 0, 1, 3, 2})
	f.Add([]byte{2, 0, 2, 1, 2, 2, 1, 0, 3, 1, 4, 5, 0, 0, 6, 3, 0})
	f.Add([]byte{4, 31, 4, 0, 6, 1, 1, 1, 1, 7, 3, 2, 3, 3, 4, 12})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 60 {
			ops = ops[:60]
		}
		want := fuzzStory(t, impls[scenario.ClientGo], ops)
		got := fuzzStory(t, impls[scenario.Reference], ops)
		for i := range min(len(want), len(got)) {
			if diff := cmp.Diff(want[i], got[i]); diff != "" {
				t.Fatalf("after step %d, %s and client-go differ (-client-go +%[2]s):\n%s", i, scenario.Ours(), diff)
			}
		}
		if len(want) != len(got) {
			t.Fatalf("client-go took %d steps, the reference %d", len(want), len(got))
		}
	})
}

var fuzzKeys = []string{"ns/a", "ns/b", "ns/c", "other/d", "e"}

// fuzzStory runs the story ops describe on one implementation and returns
// one trace per step.
func fuzzStory(t *testing.T, im impl, ops []byte) []string {
	var trace []string
	synctest.Test(t, func(t *testing.T) {
		w := newFuzzWorld(im)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go w.inf.Run(ctx)
		trace = append(trace, w.snapshot("start"))
		for i := 0; i+1 < len(ops); i += 2 {
			code, arg := ops[i]%8, ops[i+1]
			if what, ok := w.play(code, arg); ok {
				trace = append(trace, w.snapshot(what))
			}
		}
		cancel()
		synctest.Wait()
	})
	return trace
}

// fuzzWorld is one story's scripted API server, informer and handlers.
type fuzzWorld struct {
	im       impl
	server   map[string]int // key → resourceVersion, what the API server holds
	rv       int
	lw       *scriptedLW
	inf      informer
	handlers []*recorder
	regs     []registration
}

// newFuzzWorld starts with two objects on the server and two handlers, the
// second with a resync period of its own.
func newFuzzWorld(im impl) *fuzzWorld {
	w := &fuzzWorld{im: im, server: map[string]int{"ns/a": 5, "ns/b": 6}, rv: 10, lw: newScriptedLW("pods")}
	w.lw.setList(fmt.Sprint(w.rv), w.list())
	w.inf = im.NewInformer(w.lw, 0, atomicRealFIFO)
	for i, name := range []string{"h1", "h2"} {
		var resync *time.Duration
		if i == 1 {
			zero := time.Duration(0)
			resync = &zero
		}
		w.addHandler(name, resync)
	}
	return w
}

func (w *fuzzWorld) addHandler(name string, resync *time.Duration) {
	h := newRecorder(w.im, name, false)
	reg, _ := w.inf.AddEventHandler(h, resync)
	w.handlers, w.regs = append(w.handlers, h), append(w.regs, reg)
}

// list is what the server lists: its objects in key order.
func (w *fuzzWorld) list() []runtime.Object {
	var objs []runtime.Object
	for _, k := range fuzzKeys {
		if v, ok := w.server[k]; ok {
			obj, _ := newObject("pods", fmt.Sprintf("%s@%d", k, v))
			objs = append(objs, obj)
		}
	}
	return objs
}

// snapshot waits for the bubble to settle and writes down what every
// handler was told since the last one, and what the cache holds.
func (w *fuzzWorld) snapshot(what string) string {
	synctest.Wait()
	var b strings.Builder
	b.WriteString(what + "\n")
	for i, h := range w.handlers {
		evs := h.take()
		sort.Strings(evs)
		for _, ev := range evs {
			fmt.Fprintf(&b, "%s: %s\n", h.name, ev)
		}
		fmt.Fprintf(&b, "%s synced=%t\n", h.name, w.regs[i].HasSynced())
	}
	fmt.Fprintf(&b, "cache:\n%s\nsynced=%t store rv=%q\n", formatSet(w.im, w.inf.List()), w.inf.HasSynced(), w.inf.StoreRV())
	return b.String()
}

func (w *fuzzWorld) send(typ watch.EventType, key string, v int) string {
	obj, _ := newObject("pods", fmt.Sprintf("%s@%d", key, v))
	w.lw.send(watch.Event{Type: typ, Object: obj})
	return fmt.Sprintf("%s %s@%d", typ, key, v)
}

// play plays one step (code, arg) and says what it did; false when the
// step does not apply (a delete of a missing object, say).
func (w *fuzzWorld) play(code, arg byte) (string, bool) {
	key := fuzzKeys[int(arg)%len(fuzzKeys)]
	_, exists := w.server[key]
	switch code {
	case 0, 1: // a change
		w.rv++
		typ := watch.Modified
		if !exists {
			typ = watch.Added
		}
		w.server[key] = w.rv
		return w.send(typ, key, w.rv), true
	case 2: // an update that changes nothing: a sync for the handlers
		if !exists {
			return "", false
		}
		return w.send(watch.Modified, key, w.server[key]), true
	case 3: // a delete
		if !exists {
			return "", false
		}
		w.rv++
		delete(w.server, key)
		return w.send(watch.Deleted, key, w.rv), true
	case 4:
		return w.relist(arg), true
	case 5: // a bookmark
		w.rv++
		obj, _ := newObject("pods", fmt.Sprintf("x@%d", w.rv))
		w.lw.send(watch.Event{Type: watch.Bookmark, Object: obj})
		return fmt.Sprintf("bookmark %d", w.rv), true
	case 6: // a handler joins late
		if len(w.handlers) > 2 {
			return "", false
		}
		w.addHandler("h3", nil)
		return "late handler h3", true
	default: // a handler leaves
		if len(w.handlers) < 2 {
			return "", false
		}
		_ = w.inf.RemoveEventHandler(w.regs[0])
		w.handlers[0].take()
		w.handlers, w.regs = w.handlers[1:], w.regs[1:]
		return "remove first handler", true
	}
}

// relist breaks the watch; meanwhile the server adds or deletes the keys
// whose bits arg sets; the informer lists again.
func (w *fuzzWorld) relist(arg byte) string {
	w.rv++
	for j, k := range fuzzKeys {
		if arg&(1<<j) == 0 {
			continue
		}
		if _, ok := w.server[k]; ok {
			delete(w.server, k)
		} else {
			w.server[k] = w.rv
		}
	}
	w.lw.setList(fmt.Sprint(w.rv), w.list())
	w.lw.closeWatch()
	time.Sleep(3 * time.Second)
	return fmt.Sprintf("relist %08b", arg)
}
