/* yamltree.h: YAML files -> a read-only tree of scalars, mappings and
 * sequences in which every node keeps the file, line and column where it was
 * written (config layer, internal to config/).
 *
 * Semantics:
 * - One document per file; an empty file, a file of comments only, and a
 *   document whose root is a null scalar ("---" alone, "~") give a NULL root.
 * - Scalars stay strings; the caller interprets them (numbers, units,
 *   booleans). Tags are ignored.
 * - Limits, each refused with a `file:line:col: error:` diagnostic before it
 *   can cost much time or memory: files over CS_YAML_MAX_FILE_BYTES, scalars
 *   over CS_YAML_MAX_SCALAR_BYTES, nesting deeper than CS_YAML_MAX_DEPTH
 *   (counted from the root of the top file, through includes), more than
 *   CS_YAML_MAX_NODES nodes in all, includes nested deeper than
 *   CS_YAML_MAX_INCLUDE_DEPTH, more than CS_YAML_MAX_FILES files or
 *   CS_YAML_MAX_TOTAL_BYTES bytes in all (so a fan-out of includes of big
 *   files cannot make us read for hours). After a whole-document budget runs
 *   out no further includes are read.
 * - Anchors (&a) and aliases (*a) are refused: scenarios have include: and
 *   catalog names for reuse, and refusing them makes "billion laughs" alias
 *   bombs impossible rather than merely bounded.
 * - Keys must be scalars and unique within a mapping (compared as strings).
 * - `include:` in any mapping names a file (a string) or files (a sequence of
 *   strings), relative to the directory of the file that says it, confined
 *   by cs_ypath_check (below) to the directory of the file the load started
 *   from, the data directory and --allow-include directories. Each
 *   included file must have a mapping at its root. Its pairs are deep-merged
 *   under the including mapping: keys written in the including mapping win;
 *   when both sides have a mapping for a key the mappings merge recursively;
 *   sequences and scalars are replaced, never merged. With several files, a
 *   later one wins over an earlier one. The `include` pair is removed. The
 *   including mapping's own keys come first, in their order, then keys only
 *   the included files have, in include order. Included nodes keep their own
 *   file and line. Cycles are detected by comparing lexically normalized
 *   paths ("a/./b/../c.yaml" is "a/c.yaml"); symbolic links are not followed
 *   for that, the include depth limit stops any cycle they hide.
 *
 * The tree is built from libyaml's event API with an explicit stack, so
 * depth and size limits are checked as the input is read, and nothing
 * recurses more than CS_YAML_MAX_DEPTH levels. */
#ifndef CLUSTERSIM_CONFIG_YAMLTREE_H
#define CLUSTERSIM_CONFIG_YAMLTREE_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"

#include <stdbool.h>
#include <stddef.h>

#define CS_YAML_MAX_FILE_BYTES ((size_t)16 * 1024 * 1024)
#define CS_YAML_MAX_SCALAR_BYTES ((size_t)1024 * 1024)
#define CS_YAML_MAX_DEPTH 64
#define CS_YAML_MAX_INCLUDE_DEPTH 16
#define CS_YAML_MAX_NODES ((size_t)1000000)
#define CS_YAML_MAX_FILES 1000
#define CS_YAML_MAX_TOTAL_BYTES ((size_t)64 * 1024 * 1024)

enum cs_ynode_kind { CS_YNODE_SCALAR, CS_YNODE_MAP, CS_YNODE_SEQ };

struct cs_ynode;
struct cs_ypair {
    struct cs_ynode *key;
    struct cs_ynode *value;
};

/* A node of the tree. All memory belongs to the document. */
struct cs_ynode {
    enum cs_ynode_kind kind;
    const char *file; /* borrowed from the doc's file table; valid while the doc lives */
    int line, col;    /* 1-based start mark; col counts characters */
    char *scalar;     /* SCALAR: NUL-terminated value (NULL otherwise); may contain NULs */
    size_t len;       /* SCALAR: length in bytes */
    int plain;        /* SCALAR: 1 if unquoted (plain style) */
    size_t n;         /* MAP: number of pairs; SEQ: number of items */
    struct cs_ypair *pairs;  /* MAP */
    struct cs_ynode **items; /* SEQ */
};

typedef struct cs_ydoc cs_ydoc;

/* Loads a YAML file (one document) and its includes. Errors go to d (which
 * must be initialized) as `file:line:col: error: ...`, capped by d. Returns
 * CS_OK; CS_EIO when `path` itself cannot be read; CS_ECONFIG for bad YAML,
 * a broken include or a limit. *out is untouched on failure; on success the
 * caller frees it with cs_ydoc_destroy. `path` is borrowed and copied; it is
 * the file name of the root's nodes as given. */
/* Path `rel` as seen from file `from` (relative to its directory unless
 * absolute), normalized; the rule `include:` follows, and the other file
 * references of a scenario (a sweep's base, a neighbour's scenario) with
 * it. Caller frees. */
char *cs_ypath_resolve(const char *from, const char *rel);

/* The one confinement rule for those references (config.h,
 * cs_cfg_allow_include_dir): `path` (as cs_ypath_resolve gave it), named
 * from a load that started at file `top`, must end in .yaml or .yml (or
 * either + .gz) and resolve, through symbolic links, inside the directory of
 * `top` (the current directory when `top` has no slash), the data directory
 * or an added directory. CS_OK with the resolved real path in *real (caller
 * frees), which is what the caller then reads. CS_EIO when it cannot be
 * resolved (missing), CS_ECONFIG when refused; the reason in why[whylen],
 * never the file's content (a refused file is not opened). */
cs_status cs_ypath_check(const char *top, const char *path, char **real, char *why, size_t whylen);

cs_status cs_ydoc_load_file(const char *path, cs_diags *d, cs_ydoc **out);

/* Same from memory: `buf` holds `len` bytes (NULs included; no terminator
 * needed). `name` is the file name in diagnostics and the base of relative
 * includes (the current directory when it has no slash). Both borrowed. */
cs_status cs_ydoc_load_buffer(const char *name, const char *buf, size_t len, cs_diags *d,
                              cs_ydoc **out);

/* Same, with includes confined to the directory of file `top` instead of
 * `name`'s (cs_ypath_check): for a document clustersim writes itself that
 * includes a file the user named (calibrate's --scenario). NULL: `name`. */
cs_status cs_ydoc_load_buffer_top(const char *name, const char *top, const char *buf, size_t len, cs_diags *d,
                                  cs_ydoc **out);

/* The root node; NULL for an empty document. Borrowed from doc. */
const struct cs_ynode *cs_ydoc_root(const cs_ydoc *doc);

/* Frees the document and every node; accepts NULL. */
void cs_ydoc_destroy(cs_ydoc *doc);

/* The value of `key` in mapping `map`, compared as a whole string; NULL when
 * absent, or when map is NULL or not a mapping. Linear in the map's size. */
const struct cs_ynode *cs_ynode_map_get(const struct cs_ynode *map, const char *key);

/* True for a plain scalar "", "~", "null", "Null" or "NULL"; false for
 * quoted scalars, collections and a NULL pointer. */
bool cs_ynode_is_null(const struct cs_ynode *n);

/* "a scalar", "a mapping", "a sequence"; "a node" for an unknown kind. */
const char *cs_ynode_kind_name(enum cs_ynode_kind k);

/* Like cs_ynode_kind_name, but "null" for a null scalar: for messages such as
 * "expected a mapping, got null". NULL pointer -> "nothing". */
const char *cs_ynode_describe(const struct cs_ynode *n);

#endif
