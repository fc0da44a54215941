// Your copy of ../pager.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 01`
// checks your work, and `go run ./workshop/cmd/workshop hint 01 N` gives
// exercise N's hint.

package listwatch

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"example.com/walkthrough/workshop/todo"
)

// DefaultPageSize is the limit a paged LIST asks for when the caller sets
// none.
//
// client-go: tools/pager/pager.go (defaultPageSize)
const DefaultPageSize = 500

// ListAll reads a whole LIST, page by page. It asks for pageSize objects
// at a time (opts.Limit wins if set; 0 means one unlimited request) and
// follows each page's continue token until a page has none. All pages
// come from one snapshot, so the result carries the first page's resource
// version.
//
// A continue token outlives its snapshot only until the server compacts
// it away: then a later page fails with 410 Expired, and ListAll falls
// back to one unpaged LIST with the caller's options. An Expired error on
// the first page is returned as it is.
//
// paginated reports whether the server split the answer into pages.
//
// client-go: tools/pager/pager.go (ListPager.List)
func ListAll(ctx context.Context, lw ListerWatcher, opts metav1.ListOptions, pageSize int64) (list *List, paginated bool, err error) {
	// Exercise 5: ListAll reads a whole LIST, page by page.
	panic(todo.Exercise("01-listwatch", 5, "ListAll"))
}

// These lines use the todo import and every import the code of the stubs
// above needs, so that filling in a stub never needs an import added and
// the file compiles once the last stub is gone. Delete them then, if you like.
var (
	_ = todo.Exercise
	_ = apierrors.IsResourceExpired
	_ runtime.Object
)
