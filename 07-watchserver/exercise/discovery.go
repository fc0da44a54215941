// Your copy of ../discovery.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=07` checks your work, and
// `go run ./workshop/cmd/workshop hint 07 N` gives exercise N's hint.

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
	var groups []metav1.APIGroup
	for _, res := range served {
		if res.Group != "" && !slices.ContainsFunc(groups, func(g metav1.APIGroup) bool { return g.Name == res.Group }) {
			gv := metav1.GroupVersionForDiscovery{GroupVersion: res.GroupVersion().String(), Version: res.Version}
			groups = append(groups, metav1.APIGroup{Name: res.Group, Versions: []metav1.GroupVersionForDiscovery{gv}, PreferredVersion: gv})
		}
	}
	s.mux.HandleFunc("GET /apis", func(w http.ResponseWriter, r *http.Request) {
		writeDiscovery(w, &metav1.APIGroupList{
			TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"},
			Groups:   groups,
		})
	})
	for _, g := range groups {
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
		lists[gv].APIResources = append(lists[gv].APIResources, metav1.APIResource{
			Name:         res.Name,
			SingularName: res.Singular,
			Namespaced:   true,
			Kind:         res.Kind,
			// The verbs this server serves: kube-apiserver's list
			// also has deletecollection. kubectl apply reads none
			// of them (TestKubectl passes without "patch" here):
			// the list tells a client what it may do, so it says
			// what is served.
			Verbs:              metav1.Verbs{"create", "delete", "get", "list", "patch", "update", "watch"},
			ShortNames:         res.ShortNames,
			StorageVersionHash: storageVersionHash(res.Group, res.Version, res.Kind),
		})
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
