/* sha256.h: SHA-256 (FIPS 180-4) of a byte buffer, for the input digests
 * that calibration overlays and reports record, and FNV-1a 64 for the
 * cheap identities of sweeps and plans (base layer). */
#ifndef CLUSTERSIM_BASE_SHA256_H
#define CLUSTERSIM_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

void cs_sha256(const void *data, size_t len, uint8_t digest[32]);
/* Lower-case hex digest, NUL-terminated. */
void cs_sha256_hex(const void *data, size_t len, char hex[65]);

/* FNV-1a 64-bit (Fowler, Noll, Vo): h folded over n bytes; start from
 * CS_FNV_OFFSET. Not cryptographic: it tells a sweep's or a plan's inputs
 * apart, nothing more. */
#define CS_FNV_OFFSET 14695981039346656037ULL
uint64_t cs_fnv1a(uint64_t h, const void *p, size_t n);

#endif
