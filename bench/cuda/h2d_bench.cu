/* h2d_bench.cu: host<->device copy bandwidth over PCIe (or C2C) with pinned
 * host memory (bench/cuda; docs/calibration.md): what checkpoint snapshots
 * and optimizer offload move. Prints `name: value` lines. Usage:
 * h2d_bench [BYTES] (default 1 GiB). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "h2d_bench: %s: %s\n", #x, cudaGetErrorString(e_));                 \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

static double bw(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const int iters = 10;
    CK(cudaMemcpy(dst, src, bytes, kind)); /* warm-up */
    CK(cudaEventRecord(e0));
    for (int i = 0; i < iters; i++)
        CK(cudaMemcpyAsync(dst, src, bytes, kind, 0));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return (double)bytes * iters / (ms * 1e-3);
}

int main(int argc, char **argv)
{
    size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t)1 << 30;
    if (bytes == 0) {
        fprintf(stderr, "h2d_bench: expected a size in bytes\n");
        return 2;
    }
    void *h, *d;
    CK(cudaMallocHost(&h, bytes));
    CK(cudaMalloc(&d, bytes));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s\n", prop.name);
    printf("h2d_bytes: %zu\n", bytes);
    printf("h2d_bw_bytes_per_s: %.6g\n", bw(d, h, bytes, cudaMemcpyHostToDevice));
    printf("d2h_bw_bytes_per_s: %.6g\n", bw(h, d, bytes, cudaMemcpyDeviceToHost));
    CK(cudaFreeHost(h));
    CK(cudaFree(d));
    return 0;
}
