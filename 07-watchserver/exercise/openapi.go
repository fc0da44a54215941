// Your copy of ../openapi.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
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
// So this server serves the smallest true documents: one per group
// version it serves (CRDs' and custom resources' too), with one path per
// resource, its PATCH operation, the parameters it honours and
// the patch media types it accepts. It has no schemas: kubectl then
// computes apply's strategic merge patch from the ConfigMap type compiled
// into it, as it does for any built-in kind whose schema it cannot read.
// kube-apiserver's document describes every operation of every resource
// of the group version, with the schemas of all their types.
//
// upstream: k8s.io/kube-openapi/pkg/handler3/handler.go
// (OpenAPIService.HandleDiscovery, OpenAPIService.HandleGroupVersion)
func (s *Server) openAPI() {
	// The documents of the built-ins' group versions never change; those
	// of CRDs and custom resources are made at each request, from what is
	// served then.
	static := map[string][]byte{}
	for _, res := range served {
		gv := openAPIPath(res)
		if static[gv] == nil {
			static[gv] = mustJSON(patchOpenAPI(resourcesIn(served, res)))
		}
	}
	documents := func() map[string][]byte {
		docs := maps.Clone(static)
		extensions := s.extensionResources()
		for _, res := range extensions {
			if gv := openAPIPath(res); docs[gv] == nil {
				docs[gv] = mustJSON(patchOpenAPI(resourcesIn(extensions, res)))
			}
		}
		return docs
	}
	s.mux.HandleFunc("GET /openapi/v3", func(w http.ResponseWriter, r *http.Request) {
		// The index names each document with the hash of its bytes, so
		// that a client may keep a copy for as long as the hash stays the
		// same (kube-apiserver: SHA-512, in upper-case hex).
		paths := map[string]any{}
		for gv, doc := range documents() {
			paths[gv] = map[string]string{"serverRelativeURL": fmt.Sprintf("/openapi/v3/%s?hash=%X", gv, sha512.Sum512(doc))}
		}
		writeOpenAPI(w, mustJSON(map[string]any{"paths": paths}))
	})
	s.mux.HandleFunc("GET /openapi/v3/{path...}", func(w http.ResponseWriter, r *http.Request) {
		doc, ok := documents()[r.PathValue("path")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		writeOpenAPI(w, doc)
	})
}

// openAPIPath is the name of res's group version in the index: api/v1,
// apis/<group>/<version>.
func openAPIPath(res *Resource) string {
	if res.Group == "" {
		return "api/" + res.Version
	}
	return "apis/" + res.GroupVersion().String()
}

// resourcesIn is those of resources in res's group version.
func resourcesIn(resources []*Resource, res *Resource) []*Resource {
	var out []*Resource
	for _, r := range resources {
		if r.GroupVersion() == res.GroupVersion() {
			out = append(out, r)
		}
	}
	return out
}

func writeOpenAPI(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", mediaJSON)
	_, _ = w.Write(body)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // literals of maps and strings always encode
	}
	return b
}

// patchOpenAPI is the OpenAPI 3.0 document of one group version as far as
// kubectl apply reads it: the PATCH of one object of each resource.
func patchOpenAPI(resources []*Resource) map[string]any {
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
	paths := map[string]any{}
	for _, res := range resources {
		params := []any{path("name")}
		if !res.ClusterScoped {
			params = append(params, path("namespace"))
		}
		operation := "patch" + res.Kind
		if res == ConfigMaps {
			operation = "patchCoreV1NamespacedConfigMap"
		}
		paths[strings.Replace(res.path(true), "{ns}", "{namespace}", 1)+"/{name}"] = map[string]any{
			"parameters": params,
			"patch": map[string]any{
				"description": "partially update the specified " + res.Kind,
				"operationId": operation,
				// The parameters patch.go reads; dryRun and force
				// (server-side apply's) are not served.
				"parameters":  []any{query("fieldManager", "string"), query("fieldValidation", "string")},
				"requestBody": map[string]any{"content": bodies, "required": true},
				"responses": map[string]any{
					"200": map[string]any{"description": "OK"},
				},
				"x-kubernetes-action":             "patch",
				"x-kubernetes-group-version-kind": map[string]string{"group": res.Group, "version": res.Version, "kind": res.Kind},
			},
		}
	}
	return map[string]any{
		"openapi": "3.0.0",
		"info":    map[string]any{"title": "Kubernetes", "version": "1.37"},
		"paths":   paths,
		// kubectl looks here for the kinds' schemas; an empty set
		// (rather than none) says there is nothing to find.
		"components": map[string]any{"schemas": map[string]any{}},
	}
}
