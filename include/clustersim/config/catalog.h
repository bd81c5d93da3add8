/* catalog.h: the hardware and price catalog (config layer). A catalog is
 * loaded from every *.yaml file of a directory (scenarios/catalog/ by
 * default) and names GPUs, scale-out links, intra-node interconnects,
 * storage tiers, sites (operating-cost defaults) and cloud offers. Scenarios
 * refer to entries by name and may override any field.
 *
 * File format (one or more of these top-level mappings per file, each
 * mapping entry name -> fields):
 *   gpus:, links:, intra:, storage:, sites:, cloud:,
 *   switches:, nics:, optics:, cables:  (network hardware, struct cs_nethw_spec;
 *   a link's switch_model / nic_model / optic_model / cable_model / dac_model
 *   name them)
 * Every entry has `source:` (required) and usually `date:`; `estimate:
 * true` with `basis:` marks a derived or secondary figure; `sources:` maps a
 * field key to its own {source, date, estimate, basis} (or a plain source
 * string) where it differs from the entry's; `notes:` is free text. Field
 * values carry units as strings ("989TFLOPS", "80GiB", "200Gbps", "$31905");
 * `null` means no usable source (the value becomes NAN, or 0 for counts).
 * An entry name appears once per kind across all files.
 *
 * Memory sizes: the vendors' "80GB" of HBM/GDDR is written `80GiB` (2^30
 * bytes), since memory stacks have power-of-two capacities and nvidia-smi
 * reports 81,920 MiB for an A100 80GB. Bandwidths are one direction.
 *
 * The catalog owns everything it returns; pointers stay valid until
 * cs_catalog_destroy. A loaded catalog is read-only, so several threads may
 * share it. */
#ifndef CLUSTERSIM_CATALOG_H
#define CLUSTERSIM_CATALOG_H

#include "clustersim/base/diag.h"
#include "clustersim/models/hw.h"
#include "clustersim/base/status.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct cs_catalog cs_catalog;

enum cs_catalog_kind {
    CS_CATALOG_GPU,
    CS_CATALOG_LINK,
    CS_CATALOG_INTRA,
    CS_CATALOG_STORAGE,
    CS_CATALOG_SITE,
    CS_CATALOG_CLOUD,
    CS_CATALOG_SWITCH,
    CS_CATALOG_NIC,
    CS_CATALOG_OPTIC,
    CS_CATALOG_CABLE,
    CS_CATALOG_KIND_COUNT
};

/* "gpu", "link", "intra", "storage", "site", "cloud", "switch", "nic", "optic",
 * "cable"; "?" when out of range. */
const char *cs_catalog_kind_name(enum cs_catalog_kind k);
/* Parses a kind name (as above, or the file's plural section name "gpus",
 * "links", "sites"); returns CS_ENOTFOUND for anything else. */
cs_status cs_catalog_kind_parse(const char *name, enum cs_catalog_kind *out);

/* Loads every *.yaml file of `dir` in sorted name order. Errors (with
 * file:line:col) go into `d`; all files are checked before failing.
 * Returns CS_OK and *out (caller frees with cs_catalog_destroy); CS_EIO when
 * the directory cannot be read or holds no *.yaml file; CS_ECONFIG for
 * invalid content (*out untouched). `dir` is borrowed. */
cs_status cs_catalog_load_dir(const char *dir, cs_diags *d, cs_catalog **out);

/* The default directory: $CLUSTERSIM_CATALOG when set and not empty, else
 * the data directory's scenarios/catalog (datadir.h: $CLUSTERSIM_DATA, the
 * installed share/clustersim, or the source tree). Returns a pointer into
 * the environment or a process-lifetime string; do not free. */
const char *cs_catalog_default_dir(void);

/* Frees the catalog; accepts NULL. */
void cs_catalog_destroy(cs_catalog *c);

/* Lookups by exact name; NULL when absent. Borrowed from the catalog. */
const struct cs_gpu_spec *cs_catalog_gpu(const cs_catalog *c, const char *name);
const struct cs_link_spec *cs_catalog_link(const cs_catalog *c, const char *name);
const struct cs_intra_spec *cs_catalog_intra(const cs_catalog *c, const char *name);
const struct cs_storage_spec *cs_catalog_storage(const cs_catalog *c, const char *name);
const struct cs_site_spec *cs_catalog_site(const cs_catalog *c, const char *name);
const struct cs_cloud_offer *cs_catalog_cloud(const cs_catalog *c, const char *name);
/* Network hardware of kind k (CS_CATALOG_SWITCH, _NIC, _OPTIC or _CABLE);
 * NULL when unknown or k is another kind. */
const struct cs_nethw_spec *cs_catalog_nethw(const cs_catalog *c, enum cs_catalog_kind k,
                                             const char *name);

/* The first cloud offer (in catalog order) for GPU `gpu_name`, or NULL. */
const struct cs_cloud_offer *cs_catalog_cloud_for_gpu(const cs_catalog *c,
                                                      const char *gpu_name);

/* Iteration, in catalog order (files by name, then file order). */
size_t cs_catalog_count(const cs_catalog *c, enum cs_catalog_kind k);

/* One entry's identity and provenance. */
struct cs_catalog_entry_info {
    const char *name;
    const char *file;    /* the catalog file that defines it */
    int line, col;
    const char *source;  /* entry-level source; never NULL */
    const char *date;    /* "" when not given */
    bool estimate;
    const char *basis;   /* "" when not given */
    const char *notes;   /* "" when not given */
};

/* One field of an entry as written in the catalog, with its own source. */
struct cs_catalog_field {
    const char *key;     /* e.g. "bf16" */
    const char *value;   /* the text as written, e.g. "989TFLOPS" or "null" */
    const char *source;  /* the field's source, else the entry's */
    const char *date;    /* the field's date, else the entry's; may be "" */
    bool estimate;       /* the field's or the entry's estimate flag */
    const char *basis;   /* "" when none */
    int line, col;
};

/* Fills *info for entry i (< cs_catalog_count) of kind k; false when out of
 * range. Strings are borrowed from the catalog. */
bool cs_catalog_entry(const cs_catalog *c, enum cs_catalog_kind k, size_t i,
                      struct cs_catalog_entry_info *info);

/* The fields of entry `name` of kind k, in file order; *n receives the
 * count. Returns NULL (and *n = 0) when there is no such entry. Borrowed. */
const struct cs_catalog_field *cs_catalog_fields(const cs_catalog *c, enum cs_catalog_kind k,
                                                 const char *name, size_t *n);

/* The entry's field `key`, or NULL when the entry does not write it. */
const struct cs_catalog_field *cs_catalog_field(const cs_catalog *c, enum cs_catalog_kind k,
                                                const char *name, const char *key);

/* The names of kind k in catalog order, for listings and did-you-mean:
 * returns a heap array of cs_catalog_count() borrowed strings; the caller
 * frees the array (not the strings) with free(). NULL when there are none. */
const char **cs_catalog_names(const cs_catalog *c, enum cs_catalog_kind k, size_t *n);

#endif
