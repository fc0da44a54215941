package indexer_test

import (
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/workshop/scenario"
)

// The benchmarks run ours and client-go's side by side on the same input,
// named .../ours and .../client-go so `make bench` can print the ratio.

var benchSizes = []int{10_000, 100_000}

// benchPods makes n pods over 100 namespaces, 50 nodes and 10 app labels.
func benchPods(n int) []*v1.Pod {
	pods := make([]*v1.Pod, n)
	for i := range pods {
		pods[i] = &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Namespace: fmt.Sprintf("ns-%d", i%100), Name: fmt.Sprintf("pod-%d", i),
				ResourceVersion: fmt.Sprint(i + 1),
				Labels:          map[string]string{"app": fmt.Sprintf("app-%d", i%10)},
			},
			Spec: v1.PodSpec{NodeName: fmt.Sprintf("node-%d", i%50)},
		}
	}
	return pods
}

// eachImpl runs body as a sub-benchmark per implementation and size.
func eachImpl(b *testing.B, body func(b *testing.B, im impl, pods []*v1.Pod)) {
	for _, n := range benchSizes {
		pods := benchPods(n)
		for _, name := range []string{"ours", scenario.ClientGo} {
			im := impls[map[string]string{"ours": scenario.Reference, scenario.ClientGo: scenario.ClientGo}[name]]
			b.Run(fmt.Sprintf("n=%d/%s", n, name), func(b *testing.B) { body(b, im, pods) })
		}
	}
}

func filled(im impl, pods []*v1.Pod) handle {
	h := im.NewIndexer(false, "namespace", "byNode", "byLabel")
	for _, p := range pods {
		if err := h.Add(p); err != nil {
			panic(err)
		}
	}
	return h
}

// BenchmarkAdd fills an empty indexer with n pods (three indexes).
func BenchmarkAdd(b *testing.B) {
	eachImpl(b, func(b *testing.B, im impl, pods []*v1.Pod) {
		for b.Loop() {
			filled(im, pods)
		}
	})
}

// BenchmarkUpdateMovesNode updates every pod onto another node, so each
// update moves one index entry.
func BenchmarkUpdateMovesNode(b *testing.B) {
	eachImpl(b, func(b *testing.B, im impl, pods []*v1.Pod) {
		h := filled(im, pods)
		moved := make([]*v1.Pod, len(pods))
		for i, p := range pods {
			c := p.DeepCopy()
			c.Spec.NodeName = fmt.Sprintf("node-%d", (i+1)%50)
			moved[i] = c
		}
		round := 0
		for b.Loop() {
			src := pods
			if round%2 == 0 {
				src = moved
			}
			round++
			for _, p := range src {
				_ = h.Update(p)
			}
		}
	})
}

// BenchmarkByIndex asks for the pods of one namespace, every namespace in
// turn.
func BenchmarkByIndex(b *testing.B) {
	eachImpl(b, func(b *testing.B, im impl, pods []*v1.Pod) {
		h := filled(im, pods)
		i := 0
		for b.Loop() {
			_, _ = h.ByIndex("namespace", fmt.Sprintf("ns-%d", i%100))
			i++
		}
	})
}

// BenchmarkList lists every object.
func BenchmarkList(b *testing.B) {
	eachImpl(b, func(b *testing.B, im impl, pods []*v1.Pod) {
		h := filled(im, pods)
		for b.Loop() {
			_ = h.List()
		}
	})
}
