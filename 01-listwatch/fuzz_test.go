package listwatch_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"example.com/walkthrough/workshop/scenario"
)

// FuzzFrameDecoder feeds the same watch stream to our frame decoder and to
// the decoder client-go's REST client puts on a watch, and compares what
// each reads, event by event, up to the error that ends the stream.
//
// The first byte picks the mode. Structured (even): the rest of the input
// picks frames from a menu of good and broken ones, so the stream is
// mostly plausible and the two decoders must agree exactly. Raw (odd): the
// rest is the stream itself; there the decoders may disagree on details
// (client-go matches JSON keys case-sensitively, encoding/json does not),
// so only ours is checked: it must not panic, and must stop at its first
// error. `make test` runs the seeds; `make fuzz CH=01` searches.
func FuzzFrameDecoder(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 3, 0})
	f.Add([]byte{0, 0, 4})
	f.Add([]byte{0, 1, 6, 0})
	f.Add([]byte{0, 0, 7, 0})
	f.Add([]byte{0, 2, 8})
	f.Add([]byte{0, 9, 10, 11, 12, 13, 14})
	f.Add(append([]byte{1}, `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}`...))
	f.Add(append([]byte{1}, `{"Type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}{"type`...))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		if in[0]%2 == 1 {
			next := impls[scenario.Reference].NewFrameDecoder(bytes.NewReader(in[1:]))
			for i := 0; i < 1000; i++ {
				if _, err := next(); err != nil {
					return
				}
			}
			return
		}
		stream := fuzzStream(in[1:])
		got := readAll(impls[scenario.Reference].NewFrameDecoder(bytes.NewReader(stream)))
		want := readAll(impls[scenario.ClientGo].NewFrameDecoder(bytes.NewReader(stream)))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("stream %q: the decoders differ (-client-go +%s):\n%s", stream, scenario.Ours(), diff)
		}
	})
}

func readAll(next func() (string, error)) []string {
	var out []string
	for range 200 {
		s, err := next()
		out = append(out, s)
		if err != nil {
			break
		}
	}
	return out
}

// fuzzStream builds a watch stream from a menu of frames, one per byte.
func fuzzStream(picks []byte) []byte {
	var b bytes.Buffer
	for i, p := range picks {
		if i >= 50 {
			break
		}
		rv := i + 1
		podObj := fmt.Sprintf(`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p%d","namespace":"ns","resourceVersion":"%d","labels":{"app":"web"}},"spec":{"nodeName":"n1"}}`, p%4, rv)
		switch p % 16 {
		case 0:
			fmt.Fprintf(&b, `{"type":"ADDED","object":%s}`+"\n", podObj)
		case 1:
			fmt.Fprintf(&b, `{"type":"MODIFIED","object":%s}`+"\n", podObj)
		case 2:
			fmt.Fprintf(&b, `{"type":"DELETED","object":%s}`, podObj)
		case 3:
			fmt.Fprintf(&b, `{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"%d","annotations":{"k8s.io/initial-events-end":"true"}}}}`+"\n", rv)
		case 4:
			b.WriteString(`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","code":410,"reason":"Expired","message":"too old resource version"}}` + "\n")
		case 5:
			b.WriteString(`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","code":500,"reason":"InternalError","message":"boom"}}`)
		case 6:
			fmt.Fprintf(&b, `{"type":"SURPRISE","object":%s}`+"\n", podObj)
		case 7:
			b.WriteString("this is not json\n")
		case 8:
			s := fmt.Sprintf(`{"type":"ADDED","object":%s}`, podObj)
			b.WriteString(s[:int(p)%len(s)])
			return b.Bytes() // a cut stream ends here
		case 9:
			b.WriteString(`{"type":"ADDED","object":null}`)
		case 10:
			b.WriteString(`{"type":"ADDED"}`)
		case 11:
			b.WriteString("\n  \n\t")
		case 12:
			fmt.Fprintf(&b, `{"type":"ADDED","object":{"kind":"Service","apiVersion":"v1","metadata":{"name":"s","namespace":"ns","resourceVersion":"%d"}}}`, rv)
		case 13:
			fmt.Fprintf(&b, `{"type":"ERROR","object":%s}`, podObj)
		case 14:
			fmt.Fprintf(&b, `{"object":%s,"type":"MODIFIED"}`, podObj)
		case 15:
			b.WriteString(`[1,2,3]`)
		}
	}
	return b.Bytes()
}
