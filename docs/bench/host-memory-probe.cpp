// Host-memory probe: pinned allocation vs pageable reads (fresh, pre-touched, huge-page advised).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <sys/mman.h>
#include <thread>
#include <vector>
using Clock = std::chrono::steady_clock;
static double ms(Clock::time_point a) { return std::chrono::duration<double, std::milli>(Clock::now() - a).count(); }
int main() {
  cl_platform_id platforms[8]; cl_uint np; clGetPlatformIDs(8, platforms, &np);
  cl_device_id dev = nullptr;
  for (cl_uint i = 0; i < np && !dev; ++i) { cl_uint nd; if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &dev, &nd) != CL_SUCCESS) dev = nullptr; }
  if (!dev) { puts("no gpu"); return 1; }
  cl_int err; cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, nullptr, &err);
  for (size_t mib : {3, 13, 48, 192}) {
    size_t bytes = mib << 20;
    cl_mem dbuf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    char zero = 1; clEnqueueFillBuffer(q, dbuf, &zero, 1, 0, bytes, 0, nullptr, nullptr); clFinish(q);
    // pinned: alloc + map + read
    auto t = Clock::now();
    cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes, nullptr, &err);
    void* mapped = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, nullptr, nullptr, &err);
    double alloc = ms(t); t = Clock::now();
    clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, bytes, mapped, 0, nullptr, nullptr);
    double pinnedRead = ms(t);
    clEnqueueUnmapMemObject(q, pin, mapped, 0, nullptr, nullptr); clFinish(q); clReleaseMemObject(pin);
    // pageable fresh (malloc, no advice)
    char* fresh = (char*)malloc(bytes); t = Clock::now();
    clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, bytes, fresh, 0, nullptr, nullptr);
    double freshRead = ms(t);
    // pageable again into the same (now touched) memory
    t = Clock::now(); clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, bytes, fresh, 0, nullptr, nullptr);
    double touchedRead = ms(t); free(fresh);
    // fresh with huge page advice, aligned
    char* huge = (char*)aligned_alloc(2 << 20, bytes); madvise(huge, bytes, MADV_HUGEPAGE); t = Clock::now();
    clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, bytes, huge, 0, nullptr, nullptr);
    double hugeRead = ms(t); free(huge);
    // touch cost alone: memset fresh memory, 1 thread and 4 threads
    char* m = (char*)malloc(bytes); t = Clock::now(); memset(m, 0, bytes); double touch1 = ms(t); free(m);
    m = (char*)malloc(bytes); t = Clock::now();
    { std::vector<std::thread> th; for (int k = 0; k < 4; ++k) th.emplace_back([=] { memset(m + k * (bytes / 4), 0, bytes / 4); }); for (auto& x : th) x.join(); }
    double touch4 = ms(t); free(m);
    // write (upload) from pageable touched memory
    m = (char*)malloc(bytes); memset(m, 3, bytes); t = Clock::now();
    clEnqueueWriteBuffer(q, dbuf, CL_TRUE, 0, bytes, m, 0, nullptr, nullptr); double upload = ms(t); free(m);
    printf("%4zu MiB: pinned alloc+map %7.2f ms, pinned read %6.2f | pageable read fresh %7.2f, touched %6.2f, huge-advised fresh %7.2f | touch 1 thread %6.2f, 4 threads %6.2f | upload %6.2f ms\n",
           mib, alloc, pinnedRead, freshRead, touchedRead, hugeRead, touch1, touch4, upload);
    clReleaseMemObject(dbuf);
  }
  return 0;
}
