package watchserver

// prune drops from obj, in place, every field its structural schema does
// not declare, as kube-apiserver does on every write of a custom
// resource: an object's properties are the schema's properties (or any
// key, each under additionalProperties, when that is a schema), an array's
// items are pruned by its items, and x-kubernetes-preserve-unknown-fields
// keeps what is unknown at that level. At the root, apiVersion, kind and
// metadata are never pruned (metadata is ObjectMeta's, checked as any
// object's). A schema that is nil prunes nothing.
//
// upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go
// (PruneWithOptions, prune, skipPrune)
func prune(obj map[string]any, schema map[string]any) {
	// exercise:begin 1
	if schema == nil {
		return
	}
	pruneObject(obj, schema, true)
	// exercise:end 1
}

// pruneObject drops the fields of obj its schema does not declare, unless
// the schema preserves unknown fields; at the root, apiVersion, kind and
// metadata stay.
func pruneObject(obj map[string]any, schema map[string]any, root bool) {
	// exercise:begin 1
	properties, _ := schema["properties"].(map[string]any)
	additional, _ := schema["additionalProperties"].(map[string]any)
	preserve, _ := schema["x-kubernetes-preserve-unknown-fields"].(bool)
	for k, v := range obj {
		if root && (k == "apiVersion" || k == "kind" || k == "metadata") {
			continue
		}
		sub, declared := properties[k].(map[string]any)
		switch {
		case declared:
		case additional != nil:
			sub = additional
		case preserve:
			continue
		default:
			delete(obj, k)
			continue
		}
		pruneValue(v, sub)
	}
	// exercise:end 1
}

// pruneValue prunes the objects inside v, a value or a list of them.
func pruneValue(v any, schema map[string]any) {
	// exercise:begin 1
	switch v := v.(type) {
	case map[string]any:
		pruneObject(v, schema, false)
	case []any:
		items, _ := schema["items"].(map[string]any)
		if items == nil {
			return
		}
		for _, item := range v {
			pruneValue(item, items)
		}
	}
	// exercise:end 1
}
