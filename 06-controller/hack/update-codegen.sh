#!/usr/bin/env bash
# Regenerates chapter 06's API code with k8s.io/code-generator: deepcopy
# methods next to the types, then a typed clientset, listers and informers
# under pkg/generated. It does what code-generator's kube_codegen.sh does,
# with only Go: each generator is a `tool` in go.mod, run by `go tool`, at
# the same version as client-go.
#
#   hack/update-codegen.sh            regenerate in place (make generate)
#   hack/update-codegen.sh --check    regenerate into a temporary copy and
#                                     diff it against the tree (make generate-check)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
module="example.com/walkthrough/06-controller"
apis="${module}/pkg/apis/walkthrough/v1alpha1"
out_pkg="${module}/pkg/generated"
header="${here}/hack/boilerplate.go.txt"

if [[ "${1:-}" == "--check" ]]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "${tmp}"' EXIT
  # The copy sits next to links to the other modules, so go.mod's
  # replace ../workshop (and friends) still resolve.
  for sibling in "${here}"/../*/; do
    name="$(basename "${sibling}")"
    [[ "${name}" == "$(basename "${here}")" ]] || ln -s "$(cd "${sibling}" && pwd -P)" "${tmp}/${name}"
  done
  mkdir -p "${tmp}/06-controller"
  cp -R "${here}/go.mod" "${here}/go.sum" "${here}/hack" "${here}/pkg" "${tmp}/06-controller/"
  GOWORK=off "${tmp}/06-controller/hack/update-codegen.sh"
  if ! diff -ru "${here}/pkg" "${tmp}/06-controller/pkg"; then
    echo
    echo "The generated code in 06-controller/pkg is stale: the diff above is what"
    echo "code-generator writes now. Run \`make generate\` and commit the result."
    exit 1
  fi
  echo "06-controller: generated code is up to date."
  exit 0
fi

cd "${here}"
gen() { go tool "$@"; }

echo "deepcopy-gen: ${apis}"
rm -f pkg/apis/walkthrough/v1alpha1/zz_generated.deepcopy.go
gen deepcopy-gen --go-header-file "${header}" --output-file zz_generated.deepcopy.go "${apis}"

rm -rf pkg/generated

echo "client-gen: pkg/generated/clientset/versioned"
gen client-gen --go-header-file "${header}" \
  --output-dir pkg/generated/clientset --output-pkg "${out_pkg}/clientset" \
  --clientset-name versioned \
  --input-base "${module}/pkg/apis" --input walkthrough/v1alpha1

echo "lister-gen: pkg/generated/listers"
gen lister-gen --go-header-file "${header}" \
  --output-dir pkg/generated/listers --output-pkg "${out_pkg}/listers" \
  "${apis}"

echo "informer-gen: pkg/generated/informers"
gen informer-gen --go-header-file "${header}" \
  --output-dir pkg/generated/informers --output-pkg "${out_pkg}/informers" \
  --versioned-clientset-package "${out_pkg}/clientset/versioned" \
  --listers-package "${out_pkg}/listers" \
  "${apis}"
