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
				t.Fatalf("after step %d the reference and client-go differ (-client-go +reference):\n%s", i, diff)
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
		server := map[string]int{} // key → resourceVersion, what the API server holds
		rv := 10
		lw := newScriptedLW("pods")
		list := func() []runtime.Object {
			var objs []runtime.Object
			for _, k := range fuzzKeys {
				if v, ok := server[k]; ok {
					obj, _ := newObject("pods", fmt.Sprintf("%s@%d", k, v))
					objs = append(objs, obj)
				}
			}
			return objs
		}
		server["ns/a"], server["ns/b"] = 5, 6
		lw.setList(fmt.Sprint(rv), list())
		inf := im.NewInformer(lw, 0, atomicRealFIFO)
		handlers := []*recorder{newRecorder(im, "h1", false), newRecorder(im, "h2", false)}
		var regs []registration
		for i, h := range handlers {
			var resync *time.Duration
			if i == 1 {
				zero := time.Duration(0)
				resync = &zero
			}
			reg, _ := inf.AddEventHandler(h, resync)
			regs = append(regs, reg)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go inf.Run(ctx)

		snapshot := func(what string) {
			synctest.Wait()
			var b strings.Builder
			b.WriteString(what + "\n")
			for i, h := range handlers {
				evs := h.take()
				sort.Strings(evs)
				for _, ev := range evs {
					fmt.Fprintf(&b, "%s: %s\n", h.name, ev)
				}
				fmt.Fprintf(&b, "%s synced=%t\n", h.name, regs[i].HasSynced())
			}
			fmt.Fprintf(&b, "cache:\n%s\nsynced=%t store rv=%q\n", formatSet(im, inf.List()), inf.HasSynced(), inf.StoreRV())
			trace = append(trace, b.String())
		}
		snapshot("start")

		send := func(typ watch.EventType, key string, v int) string {
			obj, _ := newObject("pods", fmt.Sprintf("%s@%d", key, v))
			lw.send(watch.Event{Type: typ, Object: obj})
			return fmt.Sprintf("%s %s@%d", typ, key, v)
		}
		for i := 0; i+1 < len(ops); i += 2 {
			code, arg := ops[i]%8, ops[i+1]
			key := fuzzKeys[int(arg)%len(fuzzKeys)]
			var what string
			switch code {
			case 0, 1: // a change
				rv++
				typ := watch.Modified
				if _, ok := server[key]; !ok {
					typ = watch.Added
				}
				server[key] = rv
				what = send(typ, key, rv)
			case 2: // an update that changes nothing: a sync for the handlers
				v, ok := server[key]
				if !ok {
					continue
				}
				what = send(watch.Modified, key, v)
			case 3: // a delete
				if _, ok := server[key]; !ok {
					continue
				}
				rv++
				delete(server, key)
				what = send(watch.Deleted, key, rv)
			case 4: // the watch breaks; the server changes meanwhile; relist
				rv++
				for j, k := range fuzzKeys {
					if arg&(1<<j) != 0 {
						if _, ok := server[k]; ok {
							delete(server, k)
						} else {
							server[k] = rv
						}
					}
				}
				lw.setList(fmt.Sprint(rv), list())
				lw.closeWatch()
				time.Sleep(3 * time.Second)
				what = fmt.Sprintf("relist %08b", arg)
			case 5: // a bookmark
				rv++
				obj, _ := newObject("pods", fmt.Sprintf("x@%d", rv))
				lw.send(watch.Event{Type: watch.Bookmark, Object: obj})
				what = fmt.Sprintf("bookmark %d", rv)
			case 6: // a handler joins late
				if len(handlers) > 2 {
					continue
				}
				h := newRecorder(im, "h3", false)
				reg, _ := inf.AddEventHandler(h, nil)
				handlers, regs = append(handlers, h), append(regs, reg)
				what = "late handler h3"
			case 7: // a handler leaves
				if len(handlers) < 2 {
					continue
				}
				_ = inf.RemoveEventHandler(regs[0])
				handlers[0].take()
				handlers, regs = handlers[1:], regs[1:]
				what = "remove " + "first handler"
			}
			snapshot(what)
		}
		cancel()
		synctest.Wait()
	})
	return trace
}
