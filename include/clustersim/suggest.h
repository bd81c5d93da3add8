/* suggest.h: did-you-mean for unknown names (keys, catalog entries, presets). */
#ifndef CLUSTERSIM_SUGGEST_H
#define CLUSTERSIM_SUGGEST_H

#include <stddef.h>

/* Returns the candidate closest to `word` by case-insensitive edit distance,
 * or NULL when none is close enough to be a plausible typo (distance above
 * max(2, strlen(word)/3)). Candidates are borrowed; so is the result. */
const char *cs_suggest(const char *word, const char *const *candidates, size_t n);

/* Levenshtein distance, case-insensitive; O(len(a)*len(b)) time, strings
 * longer than 256 bytes compare as very distant. */
size_t cs_edit_distance(const char *a, const char *b);
/* The same, case-sensitive (units, where case carries meaning). */
size_t cs_edit_distance_exact(const char *a, const char *b);

#endif
