/* suggest.c: did-you-mean by edit distance (config layer). */
#include "clustersim/base/suggest.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
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

/* ---- names people type: families before edit distance ---- */

static bool cs__caseeq_n(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return false;
        if (!a[i])
            return true;
    }
    return true;
}

static bool cs__caseeq(const char *a, const char *b)
{
    return strlen(a) == strlen(b) && cs__caseeq_n(a, b, strlen(a));
}

/* Lower-case letters and digits of s, with '.' kept only when keep_dot
 * ("H100-SXM5" -> "h100sxm5", "llama3.1-70b" -> "llama3.170b"); and with
 * minor versions dropped when drop_minor ("llama3.1-70b" -> "llama370b"). */
static void cs__norm(const char *s, char *out, size_t cap, bool drop_minor)
{
    size_t o = 0;
    for (size_t i = 0; s[i] && o + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '.' && drop_minor && i > 0 && isdigit((unsigned char)s[i - 1]) &&
            isdigit((unsigned char)s[i + 1])) {
            while (isdigit((unsigned char)s[i + 1]))
                i++;
            continue;
        }
        if (isalnum(c) || (c == '.' && !drop_minor))
            out[o++] = (char)tolower(c);
    }
    out[o] = '\0';
}

/* True when candidate c is a member of the family `word` names: the same
 * name once separators and minor versions are ignored ("llama3-70b" ->
 * "llama3.1-70b"), or c extends word at a name boundary: a separator
 * ("H100" -> "H100-SXM5-80GB"), a letter ("MI300" -> "MI300X"), or a digit
 * after a letter ("H100-SXM" -> "H100-SXM5-80GB"), but not a digit after a
 * digit ("H10" is not "H100"). */
static bool cs__family(const char *word, const char *c)
{
    char w[CS__SUGGEST_MAXLEN + 1], k[CS__SUGGEST_MAXLEN + 1];
    if (strlen(word) > CS__SUGGEST_MAXLEN || strlen(c) > CS__SUGGEST_MAXLEN || !*word)
        return false;
    cs__norm(word, w, sizeof w, true);
    cs__norm(c, k, sizeof k, true);
    if (!*w)
        return false;
    if (strcmp(w, k) == 0)
        return true;
    size_t lw = strlen(word);
    if (strlen(c) < lw || !cs__caseeq_n(c, word, lw))
        return false;
    unsigned char next = (unsigned char)c[lw], last = (unsigned char)word[lw - 1];
    if (next == '-' || next == '_' || next == '.')
        return true;
    if (isalpha(next))
        return true;
    return isdigit(next) && isalpha(last);
}

/* Products people ask for that the catalog does not have, with the entries
 * that are closest (the first of them present in the catalog is named). */
static const struct {
    const char *name;
    const char *why;
    const char *closest[3];
} cs__absent[] = {
    {"GH200", "the Grace Hopper superchip's GPU is a Hopper H100/H200 with 96 or 144 GB",
     {"H200-SXM-141GB", "H100-SXM5-80GB", NULL}},
    {"GB300", "Grace Blackwell Ultra", {"GB200", "B200", NULL}},
    {"B300", "Blackwell Ultra", {"B200", "GB200", NULL}},
};

static bool cs__present(const char *name, const char *const *cands, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cands[i] && strcmp(cands[i], name) == 0)
            return true;
    return false;
}

bool cs_suggest_phrase(const char *word, const char *const *cands, size_t n, char *buf,
                       size_t cap)
{
    if (cap == 0)
        return false;
    buf[0] = '\0';
    size_t o = 0;
#define CS__PUT(...)                                                                       \
    do {                                                                                   \
        int k_ = snprintf(buf + o, o < cap ? cap - o : 0, __VA_ARGS__);                    \
        if (k_ > 0)                                                                        \
            o += (size_t)k_;                                                               \
        if (o >= cap)                                                                      \
            o = cap - 1;                                                                   \
    } while (0)
    /* Family members, in catalog order. */
    size_t nfam = 0;
    for (size_t i = 0; i < n; i++)
        if (cands[i] && cs__family(word, cands[i]))
            nfam++;
    if (nfam > 0) {
        CS__PUT(nfam == 1 ? "did you mean " : "did you mean one of ");
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (cands[i] && cs__family(word, cands[i]))
                CS__PUT("%s\"%s\"", k++ ? ", " : "", cands[i]);
        CS__PUT("?");
        return true;
    }
    for (size_t a = 0; a < sizeof cs__absent / sizeof cs__absent[0]; a++) {
        if (!cs__caseeq(word, cs__absent[a].name))
            continue;
        size_t k = 0;
        for (size_t j = 0; j < 3 && cs__absent[a].closest[j]; j++)
            if (cs__present(cs__absent[a].closest[j], cands, n)) {
                CS__PUT("%s\"%s\"", k ? ", " : "", cs__absent[a].closest[j]);
                k++;
            }
        if (k == 0)
            break;
        char list[256];
        snprintf(list, sizeof list, "%s", buf);
        o = 0;
        CS__PUT("%s is not in the catalog (%s); closest: %s", cs__absent[a].name, cs__absent[a].why,
                list);
        return true;
    }
    const char *best = cs_suggest(word, cands, n);
    if (best) {
        CS__PUT("did you mean \"%s\"?", best);
        return true;
    }
#undef CS__PUT
    return false;
}
