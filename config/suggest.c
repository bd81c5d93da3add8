/* suggest.c: did-you-mean by edit distance (config layer). */
#include "clustersim/suggest.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#define CS__SUGGEST_MAXLEN 256

static size_t cs__distance(const char *a, const char *b, bool fold);

size_t cs_edit_distance(const char *a, const char *b)
{
    return cs__distance(a, b, true);
}

size_t cs_edit_distance_exact(const char *a, const char *b)
{
    return cs__distance(a, b, false);
}

static size_t cs__distance(const char *a, const char *b, bool fold)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > CS__SUGGEST_MAXLEN || lb > CS__SUGGEST_MAXLEN)
        return (size_t)-1;
    size_t row[CS__SUGGEST_MAXLEN + 1];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            int same = fold ? tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1])
                            : a[i - 1] == b[j - 1];
            size_t best = diag + (same ? 0 : 1);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *cs_suggest(const char *word, const char *const *candidates, size_t n)
{
    size_t len = strlen(word);
    size_t limit = len / 3 > 2 ? len / 3 : 2;
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        if (!candidates[i])
            continue;
        size_t d = cs_edit_distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    return best_d <= limit ? best : NULL;
}
