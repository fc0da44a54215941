package listwatch

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
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
	// exercise:begin 5 Read a whole LIST, page by page
	// exercise:hint Ask for pageSize objects, then follow each page's Continue until it is empty;
	//   the result keeps the first page's resource version.
	// exercise:deeper Later pages set Continue and clear ResourceVersion and ResourceVersionMatch.
	//   If a later page fails with apierrors.IsResourceExpired, retry once with Limit 0, no
	//   Continue, and the original ResourceVersion and match.
	if opts.Limit == 0 {
		opts.Limit = pageSize
	}
	rv, rvm := opts.ResourceVersion, opts.ResourceVersionMatch
	var all *List
	for {
		if err := ctx.Err(); err != nil {
			return nil, paginated, err
		}
		page, err := lw.List(ctx, opts)
		if err != nil {
			if !apierrors.IsResourceExpired(err) || opts.Continue == "" {
				return nil, paginated, err
			}
			opts.Limit, opts.Continue = 0, ""
			opts.ResourceVersion, opts.ResourceVersionMatch = rv, rvm
			page, err := lw.List(ctx, opts)
			return page, paginated, err
		}
		if all == nil {
			if page.Continue == "" {
				return page, paginated, nil
			}
			all = &List{ResourceVersion: page.ResourceVersion, Items: make([]runtime.Object, 0, opts.Limit+1)}
		}
		all.Items = append(all.Items, page.Items...)
		if page.Continue == "" {
			return all, paginated, nil
		}
		opts.Continue = page.Continue
		opts.ResourceVersion, opts.ResourceVersionMatch = "", ""
		paginated = true
	}
	// exercise:end 5
}
