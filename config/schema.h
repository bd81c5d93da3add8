/* schema.h: parameter tables and the one generic validator behind them
 * (internal to config/). A table lists the keys of one YAML mapping: name,
 * type and unit, offset into the C struct it fills, allowed range, default
 * and a doc line. catalog.c and scenario.c describe every mapping this way
 * and call the functions below, so that types, units, ranges and messages
 * are checked in exactly one place (defined in schema.c). */
#ifndef CLUSTERSIM_CONFIG_SCHEMA_H
#define CLUSTERSIM_CONFIG_SCHEMA_H

#include "clustersim/config/catalog.h"
#include "clustersim/base/diag.h"
#include "clustersim/base/units.h"
#include "yamltree.h"

#include <stdbool.h>
#include <stddef.h>

enum cs_ftype {
    CS_FT_INT,    /* int; min..max */
    CS_FT_LONG,   /* long; min..max */
    CS_FT_U64,    /* uint64_t; 0..2^64-1 */
    CS_FT_QTY,    /* double parsed with cs_units_parse(unit); min..max */
    CS_FT_NUM,    /* double, a plain decimal number; min..max */
    CS_FT_BOOL,   /* bool: true | false */
    CS_FT_ENUM,   /* an enum stored as int: index into names */
    CS_FT_STR,    /* char[size] */
    CS_FT_SUB,    /* a nested mapping described by sub/nsub (scenario only) */
    CS_FT_CUSTOM  /* handled by the section's own code (scenario only) */
};

#define CS_F_REQUIRED 0x01u /* a scenario must give it (no default) */
#define CS_F_NULLABLE 0x02u /* `null` is allowed: NAN for doubles, 0 for ints */
#define CS_F_CATREQ 0x04u   /* a catalog entry must give it */
#define CS_F_MINEXCL 0x08u  /* the minimum itself is not allowed (min < v) */
#define CS_F_DERIVED 0x10u  /* the default is computed by the section's code */

struct cs_field {
    const char *key;
    enum cs_ftype type;
    enum cs_unit_kind unit;      /* CS_FT_QTY */
    size_t offset;               /* into the struct the table fills */
    size_t size;                 /* CS_FT_STR: buffer size */
    double min, max;
    unsigned flags;
    const char *const *names;    /* CS_FT_ENUM: NULL-terminated */
    const char *def;             /* default as the file would write it; NULL: none */
    const struct cs_field *sub;  /* CS_FT_SUB */
    size_t nsub;
    const char *doc;
};

/* Parses node `v` as field `f` and stores it at base + f->offset. On error
 * adds one diagnostic at v's mark, naming `path`, and returns false; the
 * destination is then untouched. */
bool cs_cfg__set(const struct cs_field *f, const struct cs_ynode *v, const char *path,
                 void *base, cs_diags *d);
/* Same from text (defaults); false when the text does not parse. */
bool cs_cfg__set_text(const struct cs_field *f, const char *text, void *base);
/* Stores the "not given" value: NAN for doubles, 0, false, "" otherwise. */
void cs_cfg__unset(const struct cs_field *f, void *base);
/* The field `key` of table t, or NULL. */
const struct cs_field *cs_cfg__find(const struct cs_field *t, size_t n, const char *key);
/* Adds "PARENT.KEY: unknown key (did you mean "X"?)" at the key's mark;
 * candidates are the table's keys plus the NULL-terminated `extra`. */
void cs_cfg__unknown_key(cs_diags *d, const struct cs_ynode *key, const char *parent,
                         const struct cs_field *t, size_t n, const char *const *extra);
/* The stored value of f as text with a unit; caller frees. */
char *cs_cfg__format(const struct cs_field *f, const void *base);
/* `s` (len bytes, NULs allowed) quoted and printable, at most ~40
 * characters, into buf (n bytes, always terminated; empty when n < 8). */
void cs_cfg__show_text(const char *s, size_t len, char *buf, size_t n);
/* true/True/TRUE and false/False/FALSE; false when s is neither. */
bool cs_cfg__parse_bool(const char *s, bool *out);
/* A short, quoted, printable rendering of what a node is, for "got ...". */
void cs_cfg__show(const struct cs_ynode *v, char *buf, size_t n);
/* "parent.key" (or "key" when parent is empty); caller frees. */
char *cs_cfg__path(const char *parent, const char *key);
/* Adds an error at node `at` (its file, line and column). */
void cs_cfg__error(cs_diags *d, const struct cs_ynode *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Human name of a catalog kind for messages ("GPU", "storage tier"). */
const char *cs_catalog__kind_label(enum cs_catalog_kind k);

/* The field table of a catalog kind (also used for `<thing>_overrides:`). */
const struct cs_field *cs_catalog__table(enum cs_catalog_kind k, size_t *n);

#endif
