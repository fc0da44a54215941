package deltafifo_test

import (
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/workshop/scenario"
)

// The benchmarks run ours and client-go's side by side on the same input,
// named .../ours and .../client-go so `make bench` can print the ratio.
// The RealFIFO runs in atomic mode, as informers use it, except where a
// Replace needs known objects.

var benchSizes = []int{10_000, 100_000}

// benchPods makes n pods (n keys) over 100 namespaces, at version rv.
func benchPods(n, offset int, rv string) []any {
	pods := make([]any, n)
	for i := range pods {
		pods[i] = &v1.Pod{ObjectMeta: metav1.ObjectMeta{
			Namespace: fmt.Sprintf("ns-%d", (i+offset)%100), Name: fmt.Sprintf("pod-%d", i+offset), ResourceVersion: rv,
		}}
	}
	return pods
}

// benchKinds are the two queues, as a benchmark makes them.
var benchKinds = []struct {
	name string
	make func(im impl, known knownStore) queue
}{
	{"DeltaFIFO", func(im impl, known knownStore) queue { return im.NewDeltaFIFO(known, true) }},
	{"RealFIFO", func(im impl, known knownStore) queue {
		if known == nil {
			return im.NewRealFIFO(nil, realOptions{Atomic: true, Bookmarks: true})
		}
		return im.NewRealFIFO(known, realOptions{})
	}},
}

// eachSide runs body per implementation, as the last level of the name.
func eachSide(b *testing.B, body func(b *testing.B, im impl)) {
	for _, side := range []string{"ours", scenario.ClientGo} {
		im := impls[map[string]string{"ours": scenario.Reference, scenario.ClientGo: scenario.ClientGo}[side]]
		b.Run(side, func(b *testing.B) { body(b, im) })
	}
}

// BenchmarkAddUpdatePop adds n objects, updates each once, and pops until
// the queue is empty: n pops of two deltas from a DeltaFIFO, 2n pops of
// one from a RealFIFO. One iteration is the whole cycle on a fresh queue.
func BenchmarkAddUpdatePop(b *testing.B) {
	for _, kind := range benchKinds {
		for _, n := range benchSizes {
			added, updated := benchPods(n, 0, "1"), benchPods(n, 0, "2")
			b.Run(fmt.Sprintf("%s/n=%d", kind.name, n), func(b *testing.B) {
				eachSide(b, func(b *testing.B, im impl) {
					for b.Loop() {
						q := kind.make(im, nil)
						for _, p := range added {
							_ = q.Add(p)
						}
						for _, p := range updated {
							_ = q.Update(p)
						}
						pops := n
						if kind.name == "RealFIFO" {
							pops = 2 * n
						}
						for range pops {
							if err := q.PopRaw(); err != nil {
								b.Fatal(err)
							}
						}
					}
				})
			})
		}
	}
}

// BenchmarkReplace relists 100k objects into a queue whose consumer holds
// 100k: 90% of the list is known, 10% is new, and the 10% known objects
// missing from it get tombstones. The RealFIFO runs non-atomic here (an
// atomic Replace appends one delta and costs nothing to speak of).
func BenchmarkReplace(b *testing.B) {
	const n = 100_000
	held, list := benchPods(n, 0, "1"), benchPods(n, n/10, "2")
	for _, kind := range benchKinds {
		b.Run(fmt.Sprintf("%s/n=%d", kind.name, n), func(b *testing.B) {
			eachSide(b, func(b *testing.B, im impl) {
				known := im.NewKnown()
				for _, p := range held {
					_ = known.Add(p)
				}
				for b.Loop() {
					q := kind.make(im, known)
					if err := q.Replace(list, "2"); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
