package viewer

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

//go:embed web
var web embed.FS

// Server serves the viewer's page for one trace.
type Server struct {
	// URL is where the page is: http://127.0.0.1:port/.
	URL string
	srv *http.Server
	ln  net.Listener
}

// Serve starts the viewer on addr (127.0.0.1:0 picks a free port) for the
// steps rec records. repo, when not empty, is the workshop's root: the
// page's links to chapter docs and reference files are served from it,
// as plain text.
func Serve(addr string, rec *Recorder, repo string) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("viewer address %q: %w (give host:port, such as 127.0.0.1:8089)", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("viewer address %q: the viewer serves only on loopback (127.0.0.1)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("viewer: %w (is another demo running? pick a port with VIEW_ADDR=127.0.0.1:PORT)", err)
	}
	static, _ := fs.Sub(web, "web")
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) { streamSteps(w, r, rec) })
	mux.HandleFunc("GET /trace.jsonl", func(w http.ResponseWriter, r *http.Request) {
		steps, _, _ := rec.Steps(0)
		w.Header().Set("Content-Type", "application/jsonl")
		enc := json.NewEncoder(w)
		for _, s := range steps {
			if enc.Encode(s) != nil {
				return
			}
		}
	})
	if repo != "" {
		mux.HandleFunc("GET /src/", func(w http.ResponseWriter, r *http.Request) { serveSource(w, r, repo) })
	}
	s := &Server{URL: "http://" + ln.Addr().String() + "/", ln: ln,
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server and ends every open page's stream.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return s.srv.Close()
}

// streamSteps sends every step as a server-sent event, then each new one
// as it is recorded, and an "end" event once the trace is closed.
func streamSteps(w http.ResponseWriter, r *http.Request, rec *Recorder) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	// hello tells the page whether it watches a demo still running (it
	// then follows the newest step) or a finished trace (it starts at the
	// first).
	_, closed, _ := rec.Steps(0)
	fmt.Fprintf(w, "event: hello\ndata: {\"live\": %t}\n\n", !closed)
	seen := 0
	for {
		steps, closed, more := rec.Steps(seen)
		for _, s := range steps {
			line, err := json.Marshal(s)
			if err != nil {
				return
			}
			if _, err := fmt.Fprintf(w, "data: %s\n\n", line); err != nil {
				return
			}
		}
		if len(steps) > 0 {
			seen = steps[len(steps)-1].Seq
		}
		if closed {
			fmt.Fprint(w, "event: end\ndata: {}\n\n")
			flusher.Flush()
			return
		}
		flusher.Flush()
		select {
		case <-more:
		case <-r.Context().Done():
			return
		}
	}
}

// sourcePath is what the page may link to: a chapter doc or a chapter's
// Go file.
var sourcePath = regexp.MustCompile(`^(docs/[a-z0-9-]+\.md|0[1-9]-[a-z]+/[a-z_]+\.go)$`)

func serveSource(w http.ResponseWriter, r *http.Request, repo string) {
	p := strings.TrimPrefix(path.Clean(r.URL.Path), "/src/")
	if !sourcePath.MatchString(p) {
		http.NotFound(w, r)
		return
	}
	b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(p)))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write(b)
}
