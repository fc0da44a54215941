// Your copy of ../discovery.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Discovery is what a client reads before its first request, to learn
// which resources the server has and what it may do with them: kubectl,
// asked to `get cm`, reads /api (the versions of the core group), /apis
// (the other groups: coordination.k8s.io here) and /api/v1 (the resources
// of v1: configmaps, short name cm), and only then sends its LIST; asked
// for leases, it reads /apis/coordination.k8s.io/v1 too. Every document is
// made from served, the resources' descriptions, so a resource added
// there is discovered with no change here. These documents are enough for
// kubectl's create, get, get --watch, delete and apply.
//
// kube-apiserver also serves aggregated discovery, every group in one
// document, and kubectl asks for it first; given a plain JSON document
// instead, it reads these one by one, as it would from an older server.
//
// upstream: k8s.io/apiserver/pkg/endpoints/discovery/legacy.go
// (legacyRootAPIHandler), root.go (rootAPIsHandler), group.go
// (APIGroupHandler), version.go (APIVersionHandler), storageversionhash.go
// (StorageVersionHash)
func (s *Server) discovery() {
	s.mux.HandleFunc("GET /api", func(w http.ResponseWriter, r *http.Request) {
		writeDiscovery(w, &metav1.APIVersions{
			TypeMeta: metav1.TypeMeta{Kind: "APIVersions"},
			Versions: []string{"v1"},
			// Every client may reach the server at the address it used.
			ServerAddressByClientCIDRs: []metav1.ServerAddressByClientCIDR{{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host}},
		})
	})
	builtins := groupsOf(served)
	s.mux.HandleFunc("GET /apis", func(w http.ResponseWriter, r *http.Request) {
		writeDiscovery(w, &metav1.APIGroupList{
			TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"},
			Groups:   append(slices.Clone(builtins), groupsOf(s.extensionResources())...),
		})
	})
	for _, g := range builtins {
		group := g
		group.TypeMeta = metav1.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}
		s.mux.HandleFunc("GET /apis/"+g.Name, func(w http.ResponseWriter, r *http.Request) {
			writeDiscovery(w, &group)
		})
	}
	// One resource list per group version: /api/v1 without apiVersion, as
	// kube-apiserver writes the core group's, /apis/G/V with it.
	lists := map[string]*metav1.APIResourceList{}
	var order []string
	for _, res := range served {
		gv := res.GroupVersion().String()
		if lists[gv] == nil {
			lists[gv] = &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList"}, GroupVersion: gv}
			if res.Group != "" {
				lists[gv].APIVersion = "v1"
			}
			order = append(order, gv)
		}
		// The verbs this server serves: kube-apiserver's list also has
		// deletecollection. kubectl apply reads none of them (TestKubectl
		// passes without "patch" here): the list tells a client what it
		// may do, so it says what is served.
		verbs := metav1.Verbs{"create", "delete", "get", "list", "patch", "update", "watch"}
		lists[gv].APIResources = append(lists[gv].APIResources, apiResources(res, verbs)...)
	}
	for _, gv := range order {
		list, path := lists[gv], "/apis/"+gv
		if !strings.Contains(gv, "/") {
			path = "/api/" + gv
		}
		s.mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			writeDiscovery(w, list)
		})
	}
}

// apiResources is res as discovery lists it, with its subresources.
func apiResources(res *Resource, verbs metav1.Verbs) []metav1.APIResource {
	out := []metav1.APIResource{{
		Name:               res.Name,
		SingularName:       res.Singular,
		Namespaced:         !res.ClusterScoped,
		Kind:               res.Kind,
		Verbs:              verbs,
		ShortNames:         res.ShortNames,
		Categories:         res.Categories,
		StorageVersionHash: storageVersionHash(res.Group, res.Version, res.Kind),
	}}
	for _, sub := range res.Subresources {
		out = append(out, metav1.APIResource{Name: res.Name + "/" + sub, Namespaced: !res.ClusterScoped, Kind: res.Kind,
			Verbs: metav1.Verbs{"get", "patch", "update"}})
	}
	return out
}

// groupsOf is the API groups of resources, each with its one version, in
// the order they first appear (the core group is not one: /api lists it).
func groupsOf(resources []*Resource) []metav1.APIGroup {
	var groups []metav1.APIGroup
	for _, res := range resources {
		if res.Group != "" && !slices.ContainsFunc(groups, func(g metav1.APIGroup) bool { return g.Name == res.Group }) {
			gv := metav1.GroupVersionForDiscovery{GroupVersion: res.GroupVersion().String(), Version: res.Version}
			groups = append(groups, metav1.APIGroup{Name: res.Group, Versions: []metav1.GroupVersionForDiscovery{gv}, PreferredVersion: gv})
		}
	}
	return groups
}

// extensionResources is CustomResourceDefinitions, then every custom
// resource served: what discovery lists after the built-ins, as
// kube-apiserver lists apiextensions.k8s.io among its own groups and the
// CRDs' groups last.
func (s *Server) extensionResources() []*Resource {
	out := []*Resource{CustomResourceDefinitions}
	for _, cr := range s.customResources() {
		out = append(out, cr.main)
	}
	return out
}

// customDiscovery answers /apis/G and /apis/G/V for apiextensions.k8s.io
// and the groups of custom resources, made on each request from what is
// served now: a CRD created a moment ago is discovered at once.
// (kube-apiserver's discovery of a new CRD's group follows the CRD's
// Established condition, moments later.) parts is G, or G and V.
//
// upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_discovery_controller.go
// (DiscoveryController.sync)
func (s *Server) customDiscovery(w http.ResponseWriter, r *http.Request, parts []string) {
	find := func() []*Resource {
		var found []*Resource
		for _, res := range s.extensionResources() {
			if res.Group == parts[0] && (len(parts) == 1 || res.Version == parts[1]) {
				found = append(found, res)
			}
		}
		return found
	}
	found := find()
	if len(found) == 0 {
		// A group this server does not know yet may be one a CRD in
		// etcd defines: read them, then look once more.
		s.loadCRDs(r.Context())
		if found = find(); len(found) == 0 {
			writeError(w, r, notFoundPath())
			return
		}
	}
	if len(parts) == 1 {
		group := groupsOf(found)[0]
		group.TypeMeta = metav1.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}
		writeDiscovery(w, &group)
		return
	}
	list := &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: found[0].GroupVersion().String()}
	for _, res := range found {
		verbs := metav1.Verbs{"create", "delete", "get", "list", "patch", "update", "watch"}
		if res != CustomResourceDefinitions {
			// kube-apiserver's order for a custom resource.
			verbs = metav1.Verbs{"delete", "get", "list", "patch", "create", "update", "watch"}
		}
		list.APIResources = append(list.APIResources, apiResources(res, verbs)...)
	}
	writeDiscovery(w, list)
}

// writeDiscovery answers with a discovery document, in JSON whatever the
// client asked for (kube-apiserver negotiates protobuf too).
func writeDiscovery(w http.ResponseWriter, doc any) {
	body, err := json.Marshal(doc)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", mediaJSON)
	_, _ = w.Write(body)
}

// storageVersionHash tells a client when the version a resource is stored
// in changes (the storage migrator reads it): the first 8 bytes of the
// SHA-256 of "group/version/kind", in base64.
func storageVersionHash(group, version, kind string) string {
	sum := sha256.Sum256([]byte(group + "/" + version + "/" + kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}
