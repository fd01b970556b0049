/* Case hibernate-alloc: how the snippet asks the harness for a page (shared by the snippet and the case table). */
#ifndef EH_CASE_SAFE_PAGE_ABI_H
#define EH_CASE_SAFE_PAGE_ABI_H

/* get_safe_page(): SVC #EH_HIB_SVC_GET_SAFE_PAGE with the gfp mask in x0; a zeroed page or 0 back in x0. */
#define EH_HIB_SVC_GET_SAFE_PAGE 1

#endif
