/* expr.h: the small arithmetic language of a sweep's derive: values and
 * constraints: (config layer, config/expr.c; used by config/sweep.c, see
 * docs/sweep.md). It exists so that a sweep file can say "gpus / (tp * pp)"
 * without the simulator ever running a user's code: there are no calls, no
 * assignment and no loops, only arithmetic on doubles and names the caller
 * resolves.
 *
 * Grammar (lowest precedence first; every binary operator is left
 * associative; spaces and tabs are skipped between tokens):
 *
 *   expr    := and { "||" and }
 *   and     := cmp { "&&" cmp }
 *   cmp     := add { ( "<" | "<=" | ">" | ">=" | "==" | "!=" ) add }
 *   add     := mul { ( "+" | "-" ) mul }
 *   mul     := unary { ( "*" | "/" | "%" ) unary }
 *   unary   := ( "-" | "+" | "!" ) unary | primary
 *   primary := number | name | "(" expr ")"
 *   number  := what strtod(3) reads from a digit or '.' on ("6", "2.5",
 *              ".5", "1e3"); one that overflows a double is an error
 *   name    := [A-Za-z_] [A-Za-z0-9_.]*     ("tp", "cluster.nodes")
 *
 * Values: comparisons, ! , && and || give 1 or 0 and treat any nonzero
 * operand as true; && and || evaluate both sides (nothing has side
 * effects). A unary operator binds tighter than any binary one, so
 * "-2 * 3" is (-2) * 3 and "!x == 0" is (!x) == 0. "%" is fmod(3) (the
 * sign of the dividend: -7 % 3 is -1). "/" or "%" by zero is an error, not
 * an infinity; so is a result that is not finite. Nesting of parentheses
 * and unary operators is limited to 64 levels, so a hostile file cannot
 * exhaust the stack. */
#ifndef CLUSTERSIM_CONFIG_EXPR_H
#define CLUSTERSIM_CONFIG_EXPR_H

#include <stdbool.h>
#include <stddef.h>

/* Resolves the name name[0..len) (not NUL-terminated) to *out; false when
 * the caller does not know it (the evaluator then fails with "unknown name
 * or not a number: NAME"). ctx is the caller's, passed through. */
typedef bool (*cs_expr_lookup_fn)(void *ctx, const char *name, size_t len, double *out);

/* Evaluates the NUL-terminated text `expr` (borrowed) with the grammar
 * above. On success stores the value in *out and returns true. On a syntax
 * error, an unknown name, a division by zero, a too deep nesting or a
 * non-finite result returns false, leaves *out untouched and writes one
 * message ("unexpected ')' at column 4", "division by zero") into err
 * (errlen bytes, caller-owned; err may be NULL). Columns count from 1.
 * Reentrant: all state is on the stack and in ctx. */
bool cs_expr_eval(const char *expr, cs_expr_lookup_fn lookup, void *ctx, double *out, char *err,
                  size_t errlen);

#endif
