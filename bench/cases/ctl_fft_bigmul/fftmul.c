/*
 * ctl_fft_bigmul -- control program: big-integer multiplication by FFT
 * convolution (the Schoenhage-Strassen-free floating-point method of
 * arbitrary-precision libraries): digits in base 100 are packed into complex
 * vectors, transformed with an iterative radix-2 FFT, multiplied pointwise,
 * transformed back, rounded and carried.  A pi-digit style workload squares
 * and multiplies a few numbers.
 *
 * No bug: the slow input multiplies numbers eight times longer, so the run is
 * slower by n log n -- the hot loops (bit reversal, butterflies, pointwise
 * product, carry propagation) are necessary work.  Each transform works on
 * fresh data, so there is no cross-loop redundancy, and every iteration of
 * the hot loops stores into the output arrays (1*).
 *
 * usage: ctl_fft_bigmul LOG2_DIGITS NMULTIPLICATIONS SEED
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define BASE 100

typedef struct { double re, im; } cpx;
typedef struct { uint8_t *d; size_t n; } BigNum;       /* little-endian base-100 digits */

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

static cpx *twiddle; static size_t twiddle_n;

static void init_twiddles(size_t n)
{
    twiddle = malloc(sizeof(cpx) * (n / 2));
    twiddle_n = n;
    for (size_t i = 0; i < n / 2; i++) {
        double a = -2.0 * M_PI * (double)i / (double)n;
        twiddle[i].re = cos(a); twiddle[i].im = sin(a);
    }
}

NOINLINE void bit_reverse(cpx *a, size_t n)
{
    for (size_t i = 1, j = 0; i < n; i++) { /* HOT LOOP */
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) { cpx t = a[i]; a[i] = a[j]; a[j] = t; }
    }
}

/* in-place iterative radix-2 FFT; invert = conjugate twiddles */
NOINLINE void fft(cpx *a, size_t n, int invert)
{
    bit_reverse(a, n);
    for (size_t len = 2; len <= n; len <<= 1) {
        size_t step = twiddle_n / len;
        for (size_t i = 0; i < n; i += len)
            for (size_t j = 0; j < len / 2; j++) { /* HOT LOOP */
                cpx w = twiddle[j * step];
                if (invert) w.im = -w.im;
                cpx u = a[i + j], v = a[i + j + len / 2];
                cpx t = { v.re * w.re - v.im * w.im, v.re * w.im + v.im * w.re };
                a[i + j].re = u.re + t.re; a[i + j].im = u.im + t.im;
                a[i + j + len / 2].re = u.re - t.re; a[i + j + len / 2].im = u.im - t.im;
            }
    }
    if (invert)
        for (size_t i = 0; i < n; i++) { a[i].re /= (double)n; a[i].im /= (double)n; }
}

NOINLINE void pointwise_mul(cpx *a, const cpx *b, size_t n)
{
    for (size_t i = 0; i < n; i++) { /* HOT LOOP */
        double re = a[i].re * b[i].re - a[i].im * b[i].im;
        a[i].im = a[i].re * b[i].im + a[i].im * b[i].re;
        a[i].re = re;
    }
}

/* round the convolution and propagate carries into base-100 digits */
NOINLINE size_t carry_digits(const cpx *a, size_t n, uint8_t *out)
{
    uint64_t carry = 0;
    size_t len = 0;
    for (size_t i = 0; i < n; i++) { /* HOT LOOP */
        uint64_t v = (uint64_t)llround(a[i].re) + carry;
        out[i] = (uint8_t)(v % BASE);
        carry = v / BASE;
        if (out[i]) len = i + 1;
    }
    return len;
}

NOINLINE BigNum bignum_mul(const BigNum *x, const BigNum *y, cpx *fa, cpx *fb, size_t n)
{
    memset(fa, 0, sizeof(cpx) * n);
    memset(fb, 0, sizeof(cpx) * n);
    for (size_t i = 0; i < x->n; i++) fa[i].re = x->d[i];
    for (size_t i = 0; i < y->n; i++) fb[i].re = y->d[i];
    fft(fa, n, 0);
    fft(fb, n, 0);
    pointwise_mul(fa, fb, n);
    fft(fa, n, 1);
    BigNum r = { malloc(n), 0 };
    r.n = carry_digits(fa, n, r.d);
    return r;
}

/* residue modulo a prime: the product is verified by checking
   (x mod p) * (y mod p) == (x * y) mod p, as GMP's test suite does */
#define VERIFY_PRIME 2147483647ull
NOINLINE uint64_t bignum_mod(const BigNum *b)
{
    uint64_t r = 0;
    for (size_t i = b->n; i-- > 0;)
        r = (r * BASE + b->d[i]) % VERIFY_PRIME;
    return r;
}

static BigNum random_bignum(size_t n)
{
    BigNum b = { malloc(n), n };
    for (size_t i = 0; i < n; i++) b.d[i] = (uint8_t)(rnd() % BASE);
    if (!b.d[n - 1]) b.d[n - 1] = 1;
    return b;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s LOG2_DIGITS NMULTIPLICATIONS SEED\n", argv[0]);
        return 2;
    }
    int lg = atoi(argv[1]), nmul = atoi(argv[2]);
    rs = 2463534242u ^ (uint32_t)atoi(argv[3]);
    size_t digits = (size_t)1 << lg, n = digits * 2;
    init_twiddles(n);
    cpx *fa = malloc(sizeof(cpx) * n), *fb = malloc(sizeof(cpx) * n);
    uint64_t h = 0;
    size_t total_len = 0;
    for (int m = 0; m < nmul; m++) {
        BigNum x = random_bignum(digits), y = random_bignum(digits);
        BigNum p = bignum_mul(&x, &y, fa, fb, n);
        if (bignum_mod(&x) * bignum_mod(&y) % VERIFY_PRIME != bignum_mod(&p)) {
            fprintf(stderr, "product %d: verification failed (FFT precision)\n", m);
            return 1;
        }
        for (size_t i = 0; i < p.n; i++) h = h * 1000003u + p.d[i];
        total_len += p.n;
        free(x.d); free(y.d); free(p.d);
    }
    printf("digits=%zu products=%d product_digits=%zu hash=%016llx\n", digits, nmul, total_len,
           (unsigned long long)h);
    return 0;
}
