/* suggest.h: did-you-mean for unknown names (keys, catalog entries, presets). */
#ifndef CLUSTERSIM_SUGGEST_H
#define CLUSTERSIM_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

/* Returns the candidate closest to `word` by case-insensitive edit distance,
 * or NULL when none is close enough to be a plausible typo (distance above
 * max(2, strlen(word)/3)). Candidates are borrowed; so is the result. */
const char *cs_suggest(const char *word, const char *const *candidates, size_t n);

/* Did-you-mean for the names people type, as a phrase for a message, into
 * buf[cap]: first the family the word names, every member in candidate
 * order ("H100" -> `did you mean one of "H100-SXM5-80GB", "H100-PCIe-80GB"?`,
 * "MI300" -> "MI300X", "llama3-70b" -> "llama3.1-70b": separators, case and
 * minor versions ignored; a name extended at a boundary, never "H10" ->
 * "H100"); then products known to be absent from the catalog ("GH200" ->
 * `GH200 is not in the catalog (...); closest: "H200-SXM-141GB", ...`);
 * then cs_suggest's nearest string (`did you mean "X"?`). Returns false
 * (buf "") when there is nothing to propose. */
bool cs_suggest_phrase(const char *word, const char *const *candidates, size_t n, char *buf,
                       size_t cap);

/* Levenshtein distance, case-insensitive; O(len(a)*len(b)) time, strings
 * longer than 256 bytes compare as very distant. */
size_t cs_edit_distance(const char *a, const char *b);
/* The same, case-sensitive (units, where case carries meaning). */
size_t cs_edit_distance_exact(const char *a, const char *b);

#endif
