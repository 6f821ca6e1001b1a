// CRC-32 by folding with carry-less multiplication (Gopal et al., "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ Instruction", Intel, 2009), for
// the bit-reflected zlib polynomial. The constants are x^k mod P for the folding
// distances, bit-reflected and shifted left by one, and the Barrett constants of P:
//   k1 = x^(4*128+32), k2 = x^(4*128-32)   fold four 128-bit lanes by 512 bits
//   k3 = x^(128+32),   k4 = x^(128-32)     fold one lane by 128 bits
//   k5 = x^64                              128 -> 64 bits
//   P' = P, mu = floor(x^64 / P)           Barrett reduction to 32 bits
// Only the functions below are compiled for those instructions (a function
// attribute, no compiler flag), and only called after the processor said it has them.

#include "CAutoTrackChecksum.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int autotrack_crc32_fold_available(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_PCLMUL) && (ecx & bit_SSE4_1);
}

__attribute__((target("pclmul,sse4.1")))
static __m128i fold(__m128i lane, __m128i constants, __m128i next) {
    __m128i low = _mm_clmulepi64_si128(lane, constants, 0x00);
    __m128i high = _mm_clmulepi64_si128(lane, constants, 0x11);
    return _mm_xor_si128(_mm_xor_si128(low, high), next);
}

__attribute__((target("pclmul,sse4.1")))
uint32_t autotrack_crc32_fold(uint32_t crc, const unsigned char *bytes, size_t length) {
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i barrett = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);

    // zlib's register is the inverted CRC.
    __m128i x1 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)bytes), _mm_cvtsi32_si128((int)~crc));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(bytes + 16));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(bytes + 32));
    __m128i x4 = _mm_loadu_si128((const __m128i *)(bytes + 48));
    bytes += 64;
    length -= 64;

    while (length >= 64) {
        x1 = fold(x1, k1k2, _mm_loadu_si128((const __m128i *)bytes));
        x2 = fold(x2, k1k2, _mm_loadu_si128((const __m128i *)(bytes + 16)));
        x3 = fold(x3, k1k2, _mm_loadu_si128((const __m128i *)(bytes + 32)));
        x4 = fold(x4, k1k2, _mm_loadu_si128((const __m128i *)(bytes + 48)));
        bytes += 64;
        length -= 64;
    }

    // Four lanes into one.
    x1 = fold(x1, k3k4, x2);
    x1 = fold(x1, k3k4, x3);
    x1 = fold(x1, k3k4, x4);

    while (length >= 16) {
        x1 = fold(x1, k3k4, _mm_loadu_si128((const __m128i *)bytes));
        bytes += 16;
        length -= 16;
    }

    // 128 bits to 64.
    __m128i x2b = _mm_clmulepi64_si128(x1, k3k4, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2b);
    __m128i shifted = _mm_srli_si128(x1, 4);
    x1 = _mm_and_si128(x1, low32);
    x1 = _mm_clmulepi64_si128(x1, k5, 0x00);
    x1 = _mm_xor_si128(x1, shifted);

    // Barrett reduction to 32 bits.
    __m128i t = _mm_and_si128(x1, low32);
    t = _mm_clmulepi64_si128(t, barrett, 0x10);
    t = _mm_and_si128(t, low32);
    t = _mm_clmulepi64_si128(t, barrett, 0x00);
    x1 = _mm_xor_si128(x1, t);
    return ~(uint32_t)_mm_extract_epi32(x1, 1);
}

#else

int autotrack_crc32_fold_available(void) { return 0; }

uint32_t autotrack_crc32_fold(uint32_t crc, const unsigned char *bytes, size_t length) {
    (void)bytes;
    (void)length;
    return crc; // Never called: autotrack_crc32_fold_available() is 0 here.
}

#endif
