package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// CompactEtcd compacts etcd's history up to its current revision and returns that revision.
// After it, a watch that starts from any older resourceVersion can no longer be served from
// etcd: the API server answers 410 Gone, and a client must relist. Kubernetes' resourceVersion
// is etcd's revision, which is why this works.
//
// Only for PodTemplates does the 410 come at once. Every other resource is watched through
// the API server's watch cache, which keeps serving old resourceVersions from its own window
// of recent events (minutes of them) whatever etcd has compacted. Up disables the cache for
// PodTemplates alone, so a test of 410 Gone watches PodTemplates.
//
// It talks to etcd's v3 JSON gateway (gRPC over HTTP/JSON, served on the client port), so the
// tests need no etcd client library. In the gateway's JSON, int64 fields are strings.
func CompactEtcd(ctx context.Context, etcdURL string) (int64, error) {
	var status struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
	}
	if err := etcdPost(ctx, etcdURL+"/v3/maintenance/status", struct{}{}, &status); err != nil {
		return 0, err
	}
	rev, err := strconv.ParseInt(status.Header.Revision, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("etcd status: revision %q: %w", status.Header.Revision, err)
	}
	// physical: answer only once the old revisions are really gone.
	req := map[string]any{"revision": strconv.FormatInt(rev, 10), "physical": true}
	if err := etcdPost(ctx, etcdURL+"/v3/kv/compaction", req, nil); err != nil {
		return 0, err
	}
	return rev, nil
}

func etcdPost(ctx context.Context, url string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("etcd gateway: %w: is the cluster up (`cluster status`)?", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("etcd gateway %s: %s: %s", url, resp.Status, b)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}
