#ifndef CAUTOTRACK_CHECKSUM_H
#define CAUTOTRACK_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// Whether `autotrack_crc32_fold` runs on this processor (x86-64 with carry-less
/// multiplication and SSE 4.1); elsewhere callers use zlib's `crc32` alone.
int autotrack_crc32_fold_available(void);

/// Continues the CRC-32 `crc` (zlib's: reflected polynomial 0xEDB88320, inverted in
/// and out) over `length` bytes, where `length` is at least 64 and a multiple of 16:
/// the same value zlib's `crc32(crc, bytes, length)` returns, 16 bytes per step.
/// Only call it when `autotrack_crc32_fold_available()` says so.
uint32_t autotrack_crc32_fold(uint32_t crc, const unsigned char *bytes, size_t length);

#endif
