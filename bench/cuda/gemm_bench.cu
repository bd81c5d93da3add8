/* gemm_bench.cu: cuBLAS GEMM timings at the shapes a transformer layer runs
 * (bench/cuda; docs/calibration.md). Prints exactly the GEMM CSV that
 * `clustersim calibrate --gemm` reads: m,n,k,dtype,seconds,name. Shapes
 * follow Megatron's per-GPU layer with tensor parallelism tp (Narayanan et
 * al. 2021): tokens = micro_batch x seq_len rows; QKV h -> 3h/tp (or with
 * GQA h -> (h + 2 kv h/heads)/tp, approximated by 3h/tp here), attention
 * projection h/tp -> h, MLP h -> ffn/tp and ffn/tp -> h; plus 8192^3 (the
 * MAMF reference shape). Usage: gemm_bench [--hidden H] [--ffn F]
 * [--tokens T] [--tp N] [--dtype bf16|fp16] [--iters N]. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "gemm_bench: %s: %s\n", #x, cudaGetErrorString(e_));                \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)
#define CB(x)                                                                                   \
    do {                                                                                        \
        cublasStatus_t s_ = (x);                                                                \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                      \
            fprintf(stderr, "gemm_bench: %s: cuBLAS status %d\n", #x, (int)s_);                 \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

struct shape { long m, n, k; const char *name; };

/* Median-free, simple: the mean of `iters` back-to-back calls after 5 warm-up calls. */
static double time_gemm(cublasHandle_t h, cudaDataType_t t, long m, long n, long k, void *a, void *b, void *c,
                        int iters)
{
    const float one = 1.0f, zero = 0.0f;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    /* cuBLAS is column-major: C (m x n) = A (m x k) B (k x n). */
    for (int i = 0; i < 5 + iters; i++) {
        if (i == 5)
            CK(cudaEventRecord(e0));
        CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k, &one, a, t, (int)m, b, t, (int)k,
                        &zero, c, t, (int)m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    }
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return ms * 1e-3 / iters;
}

int main(int argc, char **argv)
{
    long hidden = 8192, ffn = 0, tokens = 4096, tp = 8;
    int iters = 20;
    const char *dtype = "bf16";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--hidden")) hidden = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--ffn")) ffn = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--tokens")) tokens = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--tp")) tp = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--dtype")) dtype = argv[i + 1];
        else {
            fprintf(stderr, "gemm_bench: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (ffn <= 0)
        ffn = 4 * hidden;
    if (hidden <= 0 || tokens <= 0 || tp <= 0 || iters <= 0 || hidden % tp || ffn % tp) {
        fprintf(stderr, "gemm_bench: expected positive sizes with hidden and ffn divisible by tp\n");
        return 2;
    }
    cudaDataType_t t = strcmp(dtype, "fp16") == 0 ? CUDA_R_16F : CUDA_R_16BF;
    if (strcmp(dtype, "fp16") && strcmp(dtype, "bf16")) {
        fprintf(stderr, "gemm_bench: --dtype: expected bf16 or fp16\n");
        return 2;
    }
    struct shape s[] = {
        {tokens, 3 * hidden / tp, hidden, "qkv"},
        {tokens, hidden, hidden / tp, "attn_proj"},
        {tokens, ffn / tp, hidden, "mlp_up"},
        {tokens, hidden, ffn / tp, "mlp_down"},
        {hidden, 3 * hidden / tp, tokens, "qkv_wgrad"},
        {8192, 8192, 8192, "square8192"},
        {4096, 4096, 4096, "square4096"},
        {2048, 2048, 2048, "square2048"},
        {1024, 1024, 1024, "square1024"},
    };
    size_t maxe = 0;
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        size_t e[3] = {(size_t)(s[i].m * s[i].k), (size_t)(s[i].k * s[i].n), (size_t)(s[i].m * s[i].n)};
        for (int j = 0; j < 3; j++)
            if (e[j] > maxe)
                maxe = e[j];
    }
    void *a, *b, *c;
    CK(cudaMalloc(&a, maxe * 2));
    CK(cudaMalloc(&b, maxe * 2));
    CK(cudaMalloc(&c, maxe * 2));
    CK(cudaMemset(a, 0, maxe * 2));
    CK(cudaMemset(b, 0, maxe * 2));
    cublasHandle_t h;
    CB(cublasCreate(&h));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("# gemm_bench on %s (cuBLAS cublasGemmEx, %s in, fp32 accumulate), %d iterations per shape\n", prop.name,
           dtype, iters);
    printf("m,n,k,dtype,seconds,name\n");
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        double sec = time_gemm(h, t, s[i].m, s[i].n, s[i].k, a, b, c, iters);
        printf("%ld,%ld,%ld,%s,%.9g,%s\n", s[i].m, s[i].n, s[i].k, dtype, sec, s[i].name);
    }
    CB(cublasDestroy(h));
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
    return 0;
}
