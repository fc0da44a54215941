// Your copy of ../openapi.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=07` checks your work, and
// `go run ./workshop/cmd/workshop hint 07 N` gives exercise N's hint.

package watchserver

import (
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"net/http"
)

// OpenAPI is what kubectl reads to learn, before it sends a manifest,
// whether the server checks the manifest's fields itself. `kubectl apply`
// validates Strict by default: it reads /openapi/v3 (the index of the
// documents, one per group version), then /openapi/v3/api/v1, and looks
// for the PATCH operation of the manifest's kind. If that operation takes
// the query parameter fieldValidation, the server validates and kubectl
// sends fieldValidation=Strict; if not, kubectl validates the manifest
// itself against the schemas; if there is no document at all (and no
// /openapi/v2 either), it refuses: "failed to download openapi".
//
// So this server serves the smallest true document: one path, the
// ConfigMap's, with its PATCH operation, the parameters it honours and
// the patch media types it accepts. It has no schemas: kubectl then
// computes apply's strategic merge patch from the ConfigMap type compiled
// into it, as it does for any built-in kind whose schema it cannot read.
// kube-apiserver's document describes every operation of every resource
// of the group version, with the schemas of all their types.
//
// upstream: k8s.io/kube-openapi/pkg/handler3/handler.go
// (OpenAPIService.HandleDiscovery, OpenAPIService.HandleGroupVersion)
func (s *Server) openAPI() {
	doc, err := json.Marshal(configMapOpenAPI())
	if err != nil {
		panic(err) // a literal of maps and strings always encodes
	}
	// The index names each document with the hash of its bytes, so that a
	// client may keep a copy for as long as the hash stays the same
	// (kube-apiserver: SHA-512, in upper-case hex).
	index, err := json.Marshal(map[string]any{"paths": map[string]any{
		"api/v1": map[string]string{"serverRelativeURL": fmt.Sprintf("/openapi/v3/api/v1?hash=%X", sha512.Sum512(doc))},
	}})
	if err != nil {
		panic(err)
	}
	serve := func(body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", mediaJSON)
			_, _ = w.Write(body)
		}
	}
	s.mux.HandleFunc("GET /openapi/v3", serve(index))
	s.mux.HandleFunc("GET /openapi/v3/api/v1", serve(doc))
}

// configMapOpenAPI is the OpenAPI 3.0 document of /api/v1 as far as
// kubectl apply reads it: the PATCH of one ConfigMap.
func configMapOpenAPI() map[string]any {
	query := func(name, typ string) map[string]any {
		return map[string]any{"name": name, "in": "query", "schema": map[string]any{"type": typ, "uniqueItems": true}}
	}
	path := func(name string) map[string]any {
		return map[string]any{"name": name, "in": "path", "required": true, "schema": map[string]any{"type": "string", "uniqueItems": true}}
	}
	bodies := map[string]any{}
	for _, t := range patchTypes {
		bodies[string(t)] = map[string]any{}
	}
	return map[string]any{
		"openapi": "3.0.0",
		"info":    map[string]any{"title": "Kubernetes", "version": "1.37"},
		"paths": map[string]any{
			"/api/v1/namespaces/{namespace}/configmaps/{name}": map[string]any{
				"parameters": []any{path("name"), path("namespace")},
				"patch": map[string]any{
					"description": "partially update the specified ConfigMap",
					"operationId": "patchCoreV1NamespacedConfigMap",
					// The parameters patch.go reads; dryRun and force
					// (server-side apply's) are not served.
					"parameters":  []any{query("fieldManager", "string"), query("fieldValidation", "string")},
					"requestBody": map[string]any{"content": bodies, "required": true},
					"responses": map[string]any{
						"200": map[string]any{"description": "OK"},
					},
					"x-kubernetes-action":             "patch",
					"x-kubernetes-group-version-kind": map[string]string{"group": "", "version": "v1", "kind": "ConfigMap"},
				},
			},
		},
		// kubectl looks here for the ConfigMap's schema; an empty set
		// (rather than none) says there is nothing to find.
		"components": map[string]any{"schemas": map[string]any{}},
	}
}
