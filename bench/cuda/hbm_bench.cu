/* hbm_bench.cu: achievable HBM bandwidth (bench/cuda; docs/calibration.md):
 * a grid-stride copy kernel reading and writing `bytes` (default 2 GiB),
 * counted as 2 x bytes moved per call, as STREAM's copy. The ratio to the
 * datasheet bandwidth is the compute model's mem_eff. Prints `name: value`
 * lines. Usage: hbm_bench [BYTES]. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "hbm_bench: %s: %s\n", #x, cudaGetErrorString(e_));                 \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

__global__ void copy_kernel(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

int main(int argc, char **argv)
{
    size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t)2 << 30;
    size_t n = bytes / sizeof(float4);
    if (n == 0) {
        fprintf(stderr, "hbm_bench: expected a size in bytes >= 16\n");
        return 2;
    }
    float4 *a, *b;
    CK(cudaMalloc(&a, n * sizeof(float4)));
    CK(cudaMalloc(&b, n * sizeof(float4)));
    CK(cudaMemset(a, 0, n * sizeof(float4)));
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const int iters = 20;
    for (int i = 0; i < iters + 3; i++) {
        if (i == 3)
            CK(cudaEventRecord(e0));
        copy_kernel<<<sms * 8, 512>>>(a, b, n);
    }
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    double bw = 2.0 * (double)(n * sizeof(float4)) * iters / (ms * 1e-3);
    printf("device: %s\n", prop.name);
    printf("hbm_copy_bytes: %zu\n", n * sizeof(float4));
    printf("hbm_copy_bw_bytes_per_s: %.6g\n", bw);
    CK(cudaFree(a));
    CK(cudaFree(b));
    return 0;
}
