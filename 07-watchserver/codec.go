package watchserver

import (
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
)

// Media types the server speaks.
const (
	mediaJSON     = "application/json"
	mediaProtobuf = "application/vnd.kubernetes.protobuf"
)

// codecs encode and decode the served resources' objects in the two
// formats, each in its resource's group and version (a Status, which has
// no group, as "v1"). Objects are
// stored in etcd as protobuf, as kube-apiserver stores built-in types: the
// value starts with the 4 bytes "k8s\x00", then a runtime.Unknown holding
// apiVersion, kind and the object's own protobuf bytes.
//
// upstream: k8s.io/apiserver/pkg/server/storage/storage_codec.go
// (NewStorageCodec), with --storage-media-type forced to protobuf for
// built-in types.
var (
	jsonEncoder     = mustEncoder(mediaJSON)
	protobufEncoder = mustEncoder(mediaProtobuf)
	decoder         = unstructuredFromProtobuf{scheme.Codecs.UniversalDeserializer()} // crdbody.go
)

func mustEncoder(mediaType string) runtime.Encoder {
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok {
		panic("no serializer for " + mediaType)
	}
	gvs := schema.GroupVersions{}
	for _, r := range served {
		gvs = append(gvs, r.GroupVersion())
	}
	return unstructuredAsJSON{scheme.Codecs.EncoderForVersion(info.Serializer, gvs)}
}

// unstructuredAsJSON encodes a custom resource (or a
// CustomResourceDefinition, served unstructured too) as JSON whatever the
// media type asked for: it has no protobuf form, and kube-apiserver stores
// custom resources and CRDs as JSON. Responses never reach here in
// protobuf for them: the routes of custom resources negotiate JSON first
// (customresource.go). Anything else goes to the typed encoder.
//
// upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
// (unstructuredNegotiatedSerializer), which offers JSON and YAML only.
type unstructuredAsJSON struct{ typed runtime.Encoder }

func (e unstructuredAsJSON) Encode(obj runtime.Object, w io.Writer) error {
	if _, ok := obj.(runtime.Unstructured); ok {
		return unstructured.UnstructuredJSONScheme.Encode(obj, w)
	}
	return e.typed.Encode(obj, w)
}

func (e unstructuredAsJSON) Identifier() runtime.Identifier {
	return runtime.Identifier("unstructuredAsJSON(" + string(e.typed.Identifier()) + ")")
}

// encodeStored is the bytes etcd holds for obj. The resourceVersion is never
// stored: etcd's ModRevision is the version, so the field is cleared first.
func encodeStored(obj runtime.Object) ([]byte, error) {
	// exercise:begin 1 Create and get: the stored encoding, the handlers, and a Txn that succeeds only if the key is absent
	// exercise:hint Every function works for any Resource: objects are runtime.Objects, their
	//   metadata accessor(obj)'s. A create: readObject decodes the body into res.NewObject(),
	//   validateObject checks its metadata, Storage.Create puts encodeStored's bytes (protobuf, no
	//   resourceVersion) at s.res.Key in a Txn whose If compares the key's ModRevision with 0, and
	//   writeObject answers 201 with the response header's revision as the resourceVersion. A get:
	//   Storage.Get reads the key (none: 404), decodeStored sets the resourceVersion from its
	//   ModRevision. Errors go through writeError.
	// exercise:deeper A failed compare is apierrors.NewAlreadyExists(s.res.GroupResource(), name),
	//   which names the group: leases.coordination.k8s.io "a" already exists. Set UID and
	//   creationTimestamp before encoding, and refuse a resourceVersion the client set with a plain
	//   errors.New("resourceVersion should not be set on objects to be created"): writeError
	//   answers an error that is not an apierrors.APIStatus as kube-apiserver does, a bare 500
	//   Status (no reason, no causes, err.Error() as the message). The create handler refuses a
	//   body naming another namespace, apierrors.NewBadRequest("the namespace of the provided
	//   object does not match the namespace sent on the request"), and validateObject runs
	//   apivalidation.ValidateObjectMetaAccessor with NameIsDNSSubdomain into
	//   apierrors.NewInvalid(schema.GroupKind{Group: res.Group, Kind: res.Kind}, name, errs).
	//   decodeStored leaves kind and apiVersion empty (SetGroupVersionKind of the zero one), as
	//   kube-apiserver's storage: a LIST names them once, on the list, not on each item; a custom
	//   resource (a runtime.Unstructured, stored as JSON by the encoders) keeps them. This
	//   exercise also covers Get, the codec (encodeStored, decodeStored) and the create/get
	//   handlers with writeObject, writeError, readObject and validateObject.
	// exercise:deeper An Event's key lives on an etcd lease (its Resource's TTL): put it with the
	//   options s.putOptions(ctx) returns (clientv3.WithLease, none for a resource without a TTL),
	//   passing on its error as it is, and Storage.update puts with them too. putOptions asks
	//   leaseGrants.lease, which shares one lease among a minute's writes: under its mutex, reuse
	//   the last lease while now+ttl < expires < now+ttl+slack (slack: the smaller of ttl/20 and
	//   a minute) and it carries at most maxAttached writes; else Grant ttl+slack in seconds.
	//   A failed grant is a 500 (apierrors.NewInternalError).
	// exercise:deeper A custom resource (and a CRD, both unstructured) is created by createCustom:
	//   readObject, the URL's namespace, res.PrepareForCreate, then validateMeta (validateObject's
	//   checks, with no namespace for a cluster-scoped object) and Storage.Create.
	//   prepareCustomCreate sets generation 1, drops .status when the CRD declares /status, and
	//   prunes: prune drops every field the schema's properties do not declare (unless
	//   additionalProperties is a schema, or x-kubernetes-preserve-unknown-fields is true), at the
	//   root all but apiVersion, kind and metadata, and prunes what it keeps by its own schema (an
	//   array by items). A new CRD is then established: one update of its status, acceptedNames =
	//   spec.names and the conditions NamesAccepted (NoConflicts, "no conflicts found") and
	//   Established (InitialNamesAccepted, "the initial names have been accepted") True, then
	//   s.register. Before its create, a CRD is validated (validateCRD, every fault in one 422
	//   naming CustomResourceDefinition.apiextensions.k8s.io): its name is
	//   spec.names.plural+"."+spec.group, group, plural and kind are set, one version is stored.
	// exercise:deeper A Deployment is created by createCustom too: prepareDeploymentCreate fills
	//   in apps/v1's defaults (defaultDeployment: 1 replica, RollingUpdate with maxSurge and
	//   maxUnavailable intstr.FromString("25%"), revisionHistoryLimit 10, progressDeadlineSeconds
	//   600; defaultPodSpec: restartPolicy Always, terminationGracePeriodSeconds 30, dnsPolicy
	//   ClusterFirst, schedulerName default-scheduler, an empty securityContext, serviceAccount =
	//   serviceAccountName; defaultContainer: terminationMessagePath /dev/termination-log, policy
	//   File, ports TCP, imagePullPolicy Always when imageTag is "latest", else IfNotPresent),
	//   then clears the status and sets generation 1. imageTag reads the tag after the last ':'
	//   of the last path element; no tag and no digest ("@...") is "latest".
	c := obj.DeepCopyObject()
	accessor(c).SetResourceVersion("")
	return runtime.Encode(protobufEncoder, c)
	// exercise:end 1
}

// decodeStored turns an etcd value back into an object of res, whose
// resourceVersion is the revision that wrote it.
func decodeStored(res *Resource, value []byte, modRevision int64) (runtime.Object, error) {
	// exercise:begin 1
	into := res.NewObject()
	obj, gvk, err := decoder.Decode(value, nil, into)
	if err != nil {
		return nil, fmt.Errorf("decoding a stored %s: %w", res.Kind, err)
	}
	if gvk.Kind != res.Kind || gvk.Group != res.Group {
		return nil, fmt.Errorf("decoding a stored %s: got %s", res.Kind, gvk)
	}
	// As kube-apiserver's storage decodes: no kind, no apiVersion. The
	// encoder names them on the object it writes, so a GET and a watch
	// event carry them, and a LIST only once, on the list. A custom
	// resource (unstructured) keeps them: no encoder knows its kind, and
	// kube-apiserver names it on every item of a list too.
	if _, custom := obj.(runtime.Unstructured); !custom {
		obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	}
	accessor(obj).SetResourceVersion(fmt.Sprint(modRevision))
	return obj, nil
	// exercise:end 1
}
