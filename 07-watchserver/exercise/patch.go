// Your copy of ../patch.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metainternalversionscheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/kubernetes/scheme"
	kjson "sigs.k8s.io/json"
)

// PATCH changes part of an object: the client sends what to change, not
// the whole object, and the server applies it to what it has stored. That
// is what `kubectl apply` sends once the object exists (a strategic merge
// patch from the last applied configuration to the file), and what
// `kubectl patch`, `kubectl label` and `kubectl annotate` send.
//
// A patch is a function of the stored object, so it is applied inside the
// update's read-modify-write loop: another writer landing between our read
// and our write does not fail the patch, it is applied again to the newer
// object, unless the patch itself names a resourceVersion, which is then a
// precondition like a PUT's (409 when it is not the stored one).
//
// Three kinds, told apart by the Content-Type:
//
//	application/merge-patch+json           RFC 7386: a partial object; null deletes
//	application/strategic-merge-patch+json a merge that knows each list's merge key
//	                                       (a ConfigMap has no list, so the merge is RFC
//	                                       7386's but for the $patch directives)
//	application/json-patch+json            RFC 6902: a list of operations
//
// Server-side apply (application/apply-patch+yaml) is not served: it needs
// managed fields, which this server does not keep.
//
// upstream: k8s.io/apiserver/pkg/endpoints/handlers/patch.go (PatchResource,
// patcher.applyPatch, jsonPatcher.applyJSPatch, smpPatcher)
var patchTypes = []types.PatchType{types.JSONPatchType, types.MergePatchType, types.StrategicMergePatchType}

// maxJSONPatchOps bounds a JSON patch: applying each operation copies the
// document, so a long list costs quadratic time (kube-apiserver's limit).
const maxJSONPatchOps = 10000

// patch is the PATCH handler. It refuses what kube-apiserver refuses
// before reading the object (the media type, the options, a body that is
// not JSON), then applies the patch in a loop of read, apply, check and
// compare-and-swap.
func (s *Server) patch(w http.ResponseWriter, r *http.Request, res *Resource) {
	ns, name := r.PathValue("ns"), r.PathValue("name")
	patchType, ok := patchTypeOf(r.Header.Get("Content-Type"))
	if !ok {
		// kube-apiserver's router refuses the media type before its patch
		// handler runs, with this terse Status (and empty details).
		writeError(w, r, &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusUnsupportedMediaType,
			Reason: metav1.StatusReasonUnsupportedMediaType, Message: "415: Unsupported Media Type",
			Details: &metav1.StatusDetails{},
		}})
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 3<<20))
	if err != nil {
		writeError(w, r, apierrors.NewBadRequest(err.Error()))
		return
	}
	opts, err := patchOptions(r, patchType)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// Every kind is JSON: a body that is not is refused before the object
	// is read, with one message for all three.
	if !json.Valid(body) {
		writeError(w, r, apierrors.NewBadRequest("invalid JSON patch"))
		return
	}
	obj, err := s.patchLoop(r, res, ns, name, patchType, body, fieldValidation(opts.FieldValidation))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeObject(w, r, http.StatusOK, obj)
}

// patchTypeOf reads the Content-Type (its parameters, such as charset,
// ignored) as one of the patch kinds served.
func patchTypeOf(contentType string) (types.PatchType, bool) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return "", false
	}
	for _, t := range patchTypes {
		if string(t) == mt {
			return t, true
		}
	}
	return "", false
}

// patchOptions decodes the query (fieldManager, fieldValidation, dryRun,
// force) and checks it as kube-apiserver does: force is for apply only, a
// field manager is printable and at most 128 characters, fieldValidation
// one of Ignore, Warn and Strict. A fault is a 422 naming PatchOptions.
func patchOptions(r *http.Request, patchType types.PatchType) (*metav1.PatchOptions, error) {
	opts := &metav1.PatchOptions{}
	if err := metainternalversionscheme.ParameterCodec.DecodeParameters(r.URL.Query(), metav1.SchemeGroupVersion, opts); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if errs := metavalidation.ValidatePatchOptions(opts, patchType); len(errs) > 0 {
		return nil, apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: "PatchOptions"}, "", errs)
	}
	return opts, nil
}

// fieldValidation is the directive a request gets when it names none:
// Warn, so an unknown field is reported but not refused.
func fieldValidation(directive string) string {
	if directive == "" {
		return metav1.FieldValidationWarn
	}
	return directive
}

// patchLoop applies the patch inside Storage.update's read-modify-write:
// to the object as read, its result checked against it, and, when another
// writer lands before our write, again to the newer object. A
// resourceVersion the patch set is the client's precondition there (409
// when it is not the stored one); one it left alone is the stored one's.
func (s *Server) patchLoop(r *http.Request, res *Resource, ns, name string, patchType types.PatchType, body []byte, directive string) (runtime.Object, error) {
	return s.storageFor(res).update(r.Context(), ns, name, func(cur runtime.Object) (runtime.Object, error) {
		next, err := applyPatch(res, cur, patchType, body, directive)
		if err != nil {
			return nil, err
		}
		if err := checkPatched(res, accessor(next), accessor(cur), ns, name); err != nil {
			return nil, err
		}
		if res.PrepareForUpdate != nil {
			// A custom resource's strategy: its generation, its status.
			res.PrepareForUpdate(next, cur)
		}
		return next, nil
	})
}

// checkPatched judges the patched object against the stored one, in
// kube-apiserver's order: a patch that moves or renames the object (400:
// a patch never does), then a resourceVersion the patch set that is not
// the stored one (409, before any validation; Storage.update checks it
// again, atomically), then the metadata (422) as an update's, which are a
// new object's and more: a uid the patch changed is immutable. An empty uid is the
// stored one, and the creationTimestamp is always the stored one.
func checkPatched(res *Resource, next, cur metav1.Object, ns, name string) error {
	switch {
	case next.GetNamespace() == "":
		next.SetNamespace(ns)
	case next.GetNamespace() != ns:
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if next.GetName() != name {
		return apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", next.GetName(), name))
	}
	if rv, err := strconv.ParseUint(next.GetResourceVersion(), 10, 64); err == nil && rv != 0 && next.GetResourceVersion() != cur.GetResourceVersion() {
		return apierrors.NewConflict(res.GroupResource(), name, errors.New(conflictMessage))
	}
	if next.GetUID() == "" {
		next.SetUID(cur.GetUID())
	}
	next.SetCreationTimestamp(cur.GetCreationTimestamp())
	// The update's checks include a new object's (labels, annotations),
	// each fault once.
	if errs := apivalidation.ValidateObjectMetaAccessorUpdate(next, cur, field.NewPath("metadata")); len(errs) > 0 {
		return apierrors.NewInvalid(schema.GroupKind{Group: res.Group, Kind: res.Kind}, next.GetName(), errs)
	}
	return nil
}

// applyPatch applies one patch to the stored object and decodes the
// result, refusing (422) a result that is not an object of res and, under
// fieldValidation=Strict, one with fields its kind does not have
// (kubectl apply asks for Strict).
func applyPatch(res *Resource, cur runtime.Object, patchType types.PatchType, body []byte, directive string) (runtime.Object, error) {
	if patchType == types.StrategicMergePatchType {
		return applyStrategic(res, cur, body, directive)
	}
	curJSON, err := runtime.Encode(jsonEncoder, cur)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	var patched []byte
	var strictErrs []error
	if patchType == types.JSONPatchType {
		patched, strictErrs, err = applyJSONPatch(curJSON, body, directive)
	} else {
		patched, strictErrs, err = applyMergePatch(curJSON, body, directive)
	}
	if err != nil {
		return nil, err
	}
	next := res.NewObject()
	_, _, err = strictDecoder.Decode(patched, nil, next)
	strict, isStrict := runtime.AsStrictDecodingError(err)
	switch {
	case err != nil && !isStrict:
		return nil, patchInvalid(string(patched), err)
	case err != nil:
		strictErrs = append(strictErrs, strict.Errors()...)
	}
	if len(strictErrs) > 0 && directive == metav1.FieldValidationStrict {
		return nil, patchInvalid(string(patched), runtime.NewStrictDecodingError(strictErrs))
	}
	return next, nil
}

// strictDecoder reads JSON and reports the fields an object does not
// have (and duplicate fields) as a StrictDecodingError beside the object.
var strictDecoder = func() runtime.Decoder {
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaJSON)
	return info.StrictSerializer
}()

// patchInvalid is the 422 for a patch whose result cannot be the object:
// it names no kind and no object, only the field "patch", whose value is
// the patched document (the JSON kinds) or the patch (strategic).
func patchInvalid(value string, err error) error {
	return apierrors.NewInvalid(schema.GroupKind{}, "", field.ErrorList{field.Invalid(field.NewPath("patch"), value, err.Error())})
}

// applyMergePatch merges an RFC 7386 patch into the object's JSON. Unless
// validation is Ignore, the patch is read strictly first, so a duplicate
// field is found (and a patch that is not an object is a 400).
func applyMergePatch(curJSON, body []byte, directive string) ([]byte, []error, error) {
	var strictErrs []error
	if directive != metav1.FieldValidationIgnore {
		var err error
		if strictErrs, err = kjson.UnmarshalStrict(body, &map[string]any{}); err != nil {
			return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
		}
	}
	patched, err := jsonpatch.MergePatch(curJSON, body)
	if errors.Is(err, jsonpatch.ErrBadJSONPatch) {
		return nil, nil, apierrors.NewBadRequest(err.Error())
	}
	return patched, strictErrs, err
}

// jsonPatchOp is one RFC 6902 operation, for the strict read of a JSON
// patch: an operation with a misspelt member is reported.
//
// upstream: k8s.io/apiserver/pkg/endpoints/handlers/patch.go (jsonPatchOp)
type jsonPatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	From  string `json:"from"`
	Value any    `json:"value"`
}

// applyJSONPatch runs an RFC 6902 operation list on the object's JSON. A
// list that cannot be read is a 400; one that cannot be applied (a test
// that fails, a path that is not there) is a 422 whose message hides the
// reason (it goes into no cause either), as kube-apiserver's does.
func applyJSONPatch(curJSON, body []byte, directive string) ([]byte, []error, error) {
	var strictErrs []error
	if directive != metav1.FieldValidationIgnore {
		var err error
		if strictErrs, err = kjson.UnmarshalStrict(body, &[]jsonPatchOp{}); err != nil {
			return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
		}
		for i, e := range strictErrs {
			strictErrs[i] = fmt.Errorf("json patch %v", e)
		}
	}
	ops, err := jsonpatch.DecodePatch(body)
	if err != nil {
		return nil, nil, apierrors.NewBadRequest(err.Error())
	}
	if len(ops) > maxJSONPatchOps {
		return nil, nil, apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("The allowed maximum operations in a JSON patch is %d, got %d", maxJSONPatchOps, len(ops)))
	}
	patched, err := ops.Apply(curJSON)
	if err != nil {
		return nil, nil, apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
	}
	return patched, strictErrs, nil
}

// applyStrategic applies a strategic merge patch. It works on maps, not
// JSON: the resource's struct tells the merge each list's merge key and
// strategy (its patchMergeKey and patchStrategy tags). The 422's value is
// the patch as a Go map prints, not the patched object.
func applyStrategic(res *Resource, cur runtime.Object, body []byte, directive string) (runtime.Object, error) {
	original, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cur)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	patchMap := map[string]any{}
	var strictErrs []error
	if directive == metav1.FieldValidationIgnore {
		err = kjson.UnmarshalCaseSensitivePreserveInts(body, &patchMap)
	} else {
		strictErrs, err = kjson.UnmarshalStrict(body, &patchMap)
	}
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	patchedMap, err := strategicpatch.StrategicMergeMapPatch(original, patchMap, res.NewObject())
	if err != nil {
		return nil, strategicError(err)
	}
	next := res.NewObject()
	err = runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(patchedMap, next, directive != metav1.FieldValidationIgnore)
	strict, isStrict := runtime.AsStrictDecodingError(err)
	switch {
	case err != nil && !isStrict:
		return nil, patchInvalid(fmt.Sprintf("%+v", patchMap), err)
	case err != nil:
		strictErrs = append(strictErrs, strict.Errors()...)
	}
	if len(strictErrs) > 0 && directive == metav1.FieldValidationStrict {
		return nil, patchInvalid(fmt.Sprintf("%+v", patchMap), runtime.NewStrictDecodingError(strictErrs))
	}
	return next, nil
}

// strategicError sorts the merge's errors: a patch that is malformed for
// the merge (an unknown $patch directive, a bad list format) is the
// client's 400; a patch that cannot be applied to this object is a 422
// that names nothing; anything else is the server's.
func strategicError(err error) error {
	// The sentinels are compared, not unwrapped: a wrapped one is not a
	// fault of the patch's format (kube-apiserver compares them too).
	switch err {
	case mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList, mergepatch.ErrBadPatchFormatForRetainKeys,
		mergepatch.ErrBadPatchFormatForSetElementOrderList, mergepatch.ErrUnsupportedStrategicMergePatchFormat:
		return apierrors.NewBadRequest(err.Error())
	case mergepatch.ErrNoListOfLists, mergepatch.ErrPatchContentNotMatchRetainKeys:
		return apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
	}
	return err
}
