/* sha256.h: SHA-256 (FIPS 180-4) of a byte buffer, for the input digests
 * that calibration overlays and reports record (base layer). */
#ifndef CLUSTERSIM_BASE_SHA256_H
#define CLUSTERSIM_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

void cs_sha256(const void *data, size_t len, uint8_t digest[32]);
/* Lower-case hex digest, NUL-terminated. */
void cs_sha256_hex(const void *data, size_t len, char hex[65]);

#endif
