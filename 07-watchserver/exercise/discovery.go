// Your copy of ../discovery.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `make exercise CH=07` checks your work, and
// `go run ./workshop/cmd/workshop hint 07 N` gives exercise N's hint.

package watchserver

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Discovery is what a client reads before its first request, to learn
// which resources the server has and what it may do with them: kubectl,
// asked to `get cm`, reads /api (the versions of the core group), /apis
// (the other groups: none here) and /api/v1 (the resources of v1:
// configmaps, short name cm), and only then sends its LIST. These three
// documents are enough for kubectl's create, get, get --watch, delete and
// apply.
//
// kube-apiserver also serves aggregated discovery, every group in one
// document, and kubectl asks for it first; given a plain JSON document
// instead, it reads these one by one, as it would from an older server.
//
// upstream: k8s.io/apiserver/pkg/endpoints/discovery/legacy.go
// (legacyRootAPIHandler), root.go (rootAPIsHandler), version.go
// (APIVersionHandler), storageversionhash.go (StorageVersionHash)
func (s *Server) discovery() {
	s.mux.HandleFunc("GET /api", func(w http.ResponseWriter, r *http.Request) {
		writeDiscovery(w, &metav1.APIVersions{
			TypeMeta: metav1.TypeMeta{Kind: "APIVersions"},
			Versions: []string{"v1"},
			// Every client may reach the server at the address it used.
			ServerAddressByClientCIDRs: []metav1.ServerAddressByClientCIDR{{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host}},
		})
	})
	s.mux.HandleFunc("GET /apis", func(w http.ResponseWriter, r *http.Request) {
		writeDiscovery(w, &metav1.APIGroupList{
			TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"},
			Groups:   []metav1.APIGroup{},
		})
	})
	s.mux.HandleFunc("GET /api/v1", func(w http.ResponseWriter, r *http.Request) {
		writeDiscovery(w, &metav1.APIResourceList{
			TypeMeta:     metav1.TypeMeta{Kind: "APIResourceList"},
			GroupVersion: "v1",
			APIResources: []metav1.APIResource{{
				Name:         "configmaps",
				SingularName: "configmap",
				Namespaced:   true,
				Kind:         "ConfigMap",
				// The verbs this server serves: kube-apiserver's list
				// also has deletecollection. kubectl apply reads none
				// of them (TestKubectl passes without "patch" here):
				// the list tells a client what it may do, so it says
				// what is served.
				Verbs:              metav1.Verbs{"create", "delete", "get", "list", "patch", "update", "watch"},
				ShortNames:         []string{"cm"},
				StorageVersionHash: storageVersionHash("", "v1", "ConfigMap"),
			}},
		})
	})
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
