package listwatch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/walkthrough/01-listwatch/testserver"
	"example.com/walkthrough/workshop/scenario"
)

// The benchmarks run ours and client-go's side by side on the same input,
// named .../ours and .../client-go so `make bench` can print the ratio.

const benchN = 100_000

// benchPod is a pod of a realistic shape: labels, an owner, one container.
func benchPod(i int) *v1.Pod {
	return &v1.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: fmt.Sprintf("ns-%d", i%100), Name: fmt.Sprintf("pod-%06d", i),
			ResourceVersion: fmt.Sprint(i + 1), UID: "0f3c1d2e-aaaa-bbbb-cccc-0123456789ab",
			Labels: map[string]string{"app": fmt.Sprintf("app-%d", i%10), "tier": "backend"},
		},
		Spec: v1.PodSpec{
			NodeName:   fmt.Sprintf("node-%d", i%50),
			Containers: []v1.Container{{Name: "main", Image: "registry.example/app:1.2.3", Args: []string{"--port=8080"}}},
		},
		Status: v1.PodStatus{Phase: v1.PodRunning, PodIP: "10.0.0.1"},
	}
}

var benchImpls = []struct{ name, impl string }{{"ours", scenario.Reference}, {scenario.ClientGo, scenario.ClientGo}}

// BenchmarkDecodeFrames decodes a watch stream of 100k ADDED pod frames.
func BenchmarkDecodeFrames(b *testing.B) {
	var stream bytes.Buffer
	for i := range benchN {
		raw, _ := json.Marshal(benchPod(i))
		fmt.Fprintf(&stream, `{"type":"ADDED","object":%s}`+"\n", raw)
	}
	for _, side := range benchImpls {
		b.Run(fmt.Sprintf("n=%d/%s", benchN, side.name), func(b *testing.B) {
			b.SetBytes(int64(stream.Len()))
			for b.Loop() {
				next := impls[side.impl].NewFrameDecoder(bytes.NewReader(stream.Bytes()))
				n := 0
				for {
					if _, err := next(); err != nil {
						if err != io.EOF {
							b.Fatal(err)
						}
						break
					}
					n++
				}
				if n != benchN {
					b.Fatalf("decoded %d frames", n)
				}
			}
		})
	}
}

// BenchmarkListPaged lists 100k pods in pages of 500 from the test server,
// in process: the server's share of the work is the same for both sides.
func BenchmarkListPaged(b *testing.B) {
	srv := testserver.New(testserver.Options{})
	pods := srv.Serve(testserver.Pods)
	for i := range benchN {
		p := benchPod(i)
		p.ResourceVersion = ""
		if _, err := pods.Create(p); err != nil {
			b.Fatal(err)
		}
	}
	for _, side := range benchImpls {
		b.Run(fmt.Sprintf("n=%d/%s", benchN, side.name), func(b *testing.B) {
			for b.Loop() {
				_, n, err := impls[side.impl].ListAll(context.Background(), srv, 500)
				if err != nil || n != benchN {
					b.Fatalf("listed %d: %v", n, err)
				}
			}
		})
	}
	// The floor: the same pages' bytes read off the wire and thrown away,
	// no decoding. What a client does above this is decoding.
	pages := pageURLs(b, srv, 500)
	b.Run(fmt.Sprintf("n=%d/floor", benchN), func(b *testing.B) {
		hc := srv.HTTPClient()
		for b.Loop() {
			for _, u := range pages {
				resp, err := hc.Get(u)
				if err != nil {
					b.Fatal(err)
				}
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					b.Fatalf("%s: %d %v", u, resp.StatusCode, err)
				}
			}
		}
	})
}

// pageURLs are the URLs of a paged LIST of every pod, pageSize a page,
// found by following each page's continue token once: the server's state
// does not change, so neither do its tokens.
func pageURLs(b *testing.B, srv *testserver.Server, pageSize int) []string {
	hc := srv.HTTPClient()
	var urls []string
	next := ""
	for {
		u := fmt.Sprintf("%s%s?limit=%d", testserver.Host, testserver.Pods.Path(""), pageSize)
		if next != "" {
			u += "&continue=" + url.QueryEscape(next)
		}
		urls = append(urls, u)
		resp, err := hc.Get(u)
		if err != nil {
			b.Fatal(err)
		}
		var page struct {
			Metadata metav1.ListMeta `json:"metadata"`
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		if next = page.Metadata.Continue; next == "" {
			return urls
		}
	}
}
