// Your copy of ../client.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 01`
// checks your work, and `go run ./workshop/cmd/workshop hint 01 N` gives
// exercise N's hint.

package listwatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilnet "k8s.io/apimachinery/pkg/util/net"

	"example.com/walkthrough/workshop/todo"
)

// ListerWatcher is what a Reflector needs from the API server: one page
// of a LIST, and a WATCH. Options are the API's own metav1.ListOptions.
//
// client-go: tools/cache/listwatch.go (ListerWatcherWithContext)
type ListerWatcher interface {
	List(ctx context.Context, opts metav1.ListOptions) (*List, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (Watcher, error)
}

// List is one page of a LIST: the objects, the resource version the list
// was read at, and the continue token for the next page ("" on the last).
//
// upstream: k8s.io/apimachinery/pkg/apis/meta/v1/types.go (ListMeta), as
// every *v1.XList carries it
type List struct {
	ResourceVersion    string
	Continue           string
	RemainingItemCount *int64
	Items              []runtime.Object
}

// Watcher is an open watch. Events arrive in order on ResultChan, which is
// closed when the stream ends; an Error event, if any, is the last one.
// Stop closes the connection; it is safe to call more than once.
//
// upstream: k8s.io/apimachinery/pkg/watch/watch.go (Interface),
// streamwatcher.go (StreamWatcher)
type Watcher interface {
	ResultChan() <-chan Event
	Stop()
}

// Client lists and watches one collection of one resource over plain
// net/http: GET the collection path with the options as a query.
//
// client-go: rest/request.go (Request.Do, Request.Watch) and
// tools/cache/listwatch.go (NewListWatchFromClient)
type Client struct {
	HTTP *http.Client
	// Base is the server's address: "https://127.0.0.1:6443".
	Base string
	// Path is the collection: "/api/v1/pods", "/api/v1/namespaces/ns/pods",
	// "/apis/apps/v1/deployments".
	Path string
	// Kind decodes the objects.
	Kind Kind
}

var _ ListerWatcher = (*Client)(nil)

// query writes the options the way the API server reads them. Empty
// options are left out, as client-go's parameter codec does.
func query(opts metav1.ListOptions) url.Values {
	q := url.Values{}
	if opts.LabelSelector != "" {
		q.Set("labelSelector", opts.LabelSelector)
	}
	if opts.FieldSelector != "" {
		q.Set("fieldSelector", opts.FieldSelector)
	}
	if opts.Watch {
		q.Set("watch", "true")
	}
	if opts.AllowWatchBookmarks {
		q.Set("allowWatchBookmarks", "true")
	}
	if opts.ResourceVersion != "" {
		q.Set("resourceVersion", opts.ResourceVersion)
	}
	if opts.ResourceVersionMatch != "" {
		q.Set("resourceVersionMatch", string(opts.ResourceVersionMatch))
	}
	if opts.TimeoutSeconds != nil {
		q.Set("timeoutSeconds", strconv.FormatInt(*opts.TimeoutSeconds, 10))
	}
	if opts.Limit > 0 {
		q.Set("limit", strconv.FormatInt(opts.Limit, 10))
	}
	if opts.Continue != "" {
		q.Set("continue", opts.Continue)
	}
	if opts.SendInitialEvents != nil {
		q.Set("sendInitialEvents", strconv.FormatBool(*opts.SendInitialEvents))
	}
	return q
}

// The REST client's own retries, in client-go's values. A GET that
// failed on the way (the connection reset, the server gone while it
// restarts) or that the server answered 429 or 5xx with a Retry-After
// header is sent again, up to maxRetries times: after the header's
// seconds, or after transientRetry for a failure on the way. This happens
// below the Reflector, so such a blip costs no relist and no step of the
// Reflector's backoff.
//
// client-go: rest/request.go (Request.request, Request.Watch,
// Request.maxRetries, NewRequest) and rest/with_retry.go
// (withRetry.IsNextRetry, checkWait): NewRequest sets 10 retries
const (
	maxRetries     = 10
	transientRetry = time.Second
)

// get sends a GET for the collection with opts as its query, again after
// a failure that retryAfter says is worth it. transient says which
// failures on the way are: a LIST's and a WATCH's differ.
func (c *Client) get(ctx context.Context, opts metav1.ListOptions, transient func(error) bool) (*http.Response, error) {
	u := c.Base + c.Path
	if q := query(opts).Encode(); q != "" {
		u += "?" + q
	}
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := c.HTTP.Do(req)
		if wait, again := retryAfter(resp, err, transient); again && attempt <= maxRetries {
			if resp != nil {
				_ = resp.Body.Close()
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			case <-t.C:
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			defer resp.Body.Close()
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			return nil, c.responseError(resp.StatusCode, body)
		}
		return resp, nil
	}
}

// retryAfter says whether a GET is worth sending again, and when: after a
// failure on the way that transient accepts, in a second; after a 429 or
// a 5xx whose Retry-After header is a whole number of seconds, in that
// many. Any other answer, a 5xx without the header included, is final.
func retryAfter(resp *http.Response, err error, transient func(error) bool) (time.Duration, bool) {
	if err != nil {
		return transientRetry, transient(err)
	}
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
		return 0, false
	}
	secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil {
		return 0, false
	}
	return time.Duration(secs) * time.Second, true
}

// listTransient: the failures on the way a LIST is sent again for, a
// connection reset or lost (the API server going away) above all.
func listTransient(err error) bool {
	return utilnet.IsConnectionReset(err) || utilnet.IsProbableEOF(err) || utilnet.IsHTTP2ConnectionLost(err)
}

// responseError turns an HTTP error into a *StatusError. The API server
// sends a JSON Status; anything else (a proxy's HTML page) gets a Status
// made from the code, so apierrors can still classify it.
func (c *Client) responseError(code int, body []byte) error {
	if st, err := decodeStatus(body); err == nil {
		if st.Code == 0 {
			st.Code = int32(code)
		}
		return &StatusError{ErrStatus: st}
	}
	generic := apierrors.NewGenericServerResponse(code, "get", c.groupResource(), "", string(body), 0, true)
	return &StatusError{ErrStatus: generic.ErrStatus}
}

// groupResource names the collection in Path, as the generic error's
// "(get pods)" or "(get deployments.apps)" does: the resource is the last
// element, the group the one after /apis/ (the core group has none).
func (c *Client) groupResource() schema.GroupResource {
	parts := strings.Split(strings.Trim(c.Path, "/"), "/")
	gr := schema.GroupResource{Resource: parts[len(parts)-1]}
	if len(parts) > 1 && parts[0] == "apis" {
		gr.Group = parts[1]
	}
	return gr
}

// List reads one page.
func (c *Client) List(ctx context.Context, opts metav1.ListOptions) (*List, error) {
	opts.Watch = false
	resp, err := c.get(ctx, opts, listTransient)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	list, err := c.decodeList(json.NewDecoder(resp.Body))
	if err != nil {
		return nil, fmt.Errorf("unable to decode list response: %w", err)
	}
	return list, nil
}

// decodeList reads a list response in one pass, token by token: each
// item is decoded straight from the stream into its object, so the raw
// JSON of a 500-item page is never held twice.
func (c *Client) decodeList(dec *json.Decoder) (*List, error) {
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	list := &List{}
	var apiVersion, kind string
	var raws []json.RawMessage // unstructured items, decoded once the list's kind is known
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch tok {
		case "apiVersion":
			err = dec.Decode(&apiVersion)
		case "kind":
			err = dec.Decode(&kind)
		case "metadata":
			var lm metav1.ListMeta
			if err = dec.Decode(&lm); err == nil {
				list.ResourceVersion, list.Continue, list.RemainingItemCount = lm.ResourceVersion, lm.Continue, lm.RemainingItemCount
			}
		case "items":
			err = c.decodeItems(dec, list, &raws)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, err
	}
	fallback := itemKind(apiVersion, kind)
	for _, raw := range raws {
		obj, err := decodeUnstructured(raw, fallback)
		if err != nil {
			return nil, fmt.Errorf("list item: %w", err)
		}
		list.Items = append(list.Items, obj)
	}
	return list, nil
}

// decodeItems reads the items array: typed items straight into objects
// (a list's items are all of its kind), unstructured ones as raw JSON.
func (c *Client) decodeItems(dec *json.Decoder, list *List, raws *[]json.RawMessage) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil // "items": null
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("items: want an array, got %v", tok)
	}
	for dec.More() {
		if c.Kind.New == nil {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			*raws = append(*raws, raw)
			continue
		}
		obj := c.Kind.New()
		if err := dec.Decode(obj); err != nil {
			return err
		}
		obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		list.Items = append(list.Items, obj)
	}
	return expectDelim(dec, ']')
}

// expectDelim reads the next token and fails unless it is the delimiter want.
func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %v, got %v", want, tok)
	}
	return nil
}

// Watch opens a watch. The server answers 200 at once and then keeps the
// response open, writing one frame per event.
func (c *Client) Watch(ctx context.Context, opts metav1.ListOptions) (Watcher, error) {
	opts.Watch = true
	ctx, cancel := context.WithCancel(ctx)
	resp, err := c.get(ctx, opts, watchTransient)
	if err != nil {
		// Out of retries on a failure on the way: a watch that ended at
		// once. Not when ctx ended, which is an error as in client-go.
		ended := ctx.Err() == nil && watchTransient(err)
		cancel()
		if ended {
			return endedWatcher(), nil
		}
		return nil, err
	}
	w := &streamWatcher{
		body:   resp.Body,
		cancel: cancel,
		dec:    NewFrameDecoder(resp.Body, c.Kind),
		result: make(chan Event),
		done:   make(chan struct{}),
	}
	go w.receive()
	return w, nil
}

// watchTransient: the failures on the way a WATCH is sent again for: the
// ones a stream already in progress would simply end on (quietEnd's
// probable EOFs), and timeouts. When the retries run out on one of them,
// Watch returns a watch that has already ended rather than an error, as
// client-go does: the Reflector sees a very short watch, and lists again
// after a backoff.
func watchTransient(err error) bool {
	return utilnet.IsProbableEOF(err) || utilnet.IsTimeout(err)
}

// endedWatcher is a watch that ended before its first event.
//
// upstream: k8s.io/apimachinery/pkg/watch/watch.go (NewEmptyWatch)
func endedWatcher() Watcher {
	ch := make(chan Event)
	close(ch)
	return emptyWatcher(ch)
}

// emptyWatcher is a watch that has already ended: its channel is closed.
//
// upstream: k8s.io/apimachinery/pkg/watch/watch.go (emptyWatch)
type emptyWatcher chan Event

func (w emptyWatcher) ResultChan() <-chan Event { return w }
func (emptyWatcher) Stop()                      {}

// streamWatcher turns frames into events on a channel.
//
// upstream: k8s.io/apimachinery/pkg/watch/streamwatcher.go (StreamWatcher)
type streamWatcher struct {
	body   io.Closer
	cancel context.CancelFunc
	dec    *FrameDecoder
	result chan Event
	done   chan struct{} // closed by Stop
	once   sync.Once
}

func (w *streamWatcher) ResultChan() <-chan Event { return w.result }

// Stop ends the stream once, however often it is called: receive returns
// and closes the result channel.
func (w *streamWatcher) Stop() {
	w.once.Do(func() {
		close(w.done)
		w.cancel()
		_ = w.body.Close()
	})
}

// receive decodes until the stream ends. A stream that ends, cleanly or
// cut, just closes the channel: the caller resumes from the last resource
// version it saw. A frame that cannot be read, or an ERROR frame, is
// passed on as one Error event first.
//
// A panic while decoding is not left to crash the process from this
// goroutine: it travels to the reader as an Error event carrying a
// *GoroutinePanic, and the Reflector raises it again on its own goroutine.
func (w *streamWatcher) receive() {
	defer close(w.result)
	defer w.Stop()
	defer func() {
		if v := recover(); v != nil {
			select {
			case w.result <- Event{Type: Error, Err: &GoroutinePanic{Value: v}}:
			case <-w.done:
			}
		}
	}()
	for {
		ev, err := w.dec.Next()
		if err != nil {
			select {
			case <-w.done:
				return // we closed the body ourselves
			default:
			}
			if quietEnd(err) {
				return
			}
			ev = Event{Type: Error, Err: err}
		}
		select {
		case w.result <- ev:
		case <-w.done:
			return
		}
		if ev.Type == Error {
			return
		}
	}
}

// quietEnd reports the ways a stream ends that are not the server's
// doing: the clean end, a frame cut short, a connection reset or closed
// (utilnet.IsProbableEOF), a timeout. The stream then just ends, with no
// error event, and the Reflector watches again from the last version it
// saw. Anything else is an error event, and the Reflector lists again:
// so a cut connection must land here, or every cut costs a full relist.
//
// upstream: k8s.io/apimachinery/pkg/watch/streamwatcher.go (StreamWatcher.receive)
func quietEnd(err error) bool {
	var netErr net.Error
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || (errors.As(err, &netErr) && netErr.Timeout()) ||
		utilnet.IsProbableEOF(err)
}

// GoroutinePanic is a panic caught on a watch's decoding goroutine, on its
// way to the goroutine that reads the watch.
//
// client-go: none; StreamWatcher.receive lets utilruntime.HandleCrash
// crash the process, where this hands the panic to the Reflector's
// goroutine, for the tests to report.
type GoroutinePanic struct {
	Value any
}

func (p *GoroutinePanic) Error() string {
	return fmt.Sprintf("panic while decoding a watch: %v", p.Value)
}

// repanic raises again a panic that err carries from another goroutine.
//
// client-go: tools/cache/reflector.go (Reflector.list), whose panicCh does
// the same for a panic inside List.
func repanic(err error) {
	var p *GoroutinePanic
	if errors.As(err, &p) {
		panic(p.Value)
	}
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = errors.Is
	_ = net.ErrClosed
	_ = strconv.FormatInt
	_ = apierrors.NewGenericServerResponse
	_ = utilnet.IsConnectionReset
)
