// cv::floodFill for rgx-cli bench, in a module of its own that the bench
// loads at run time. Linking OpenCV into rgx-cli would load Debian's TBB at
// start-up, and Intel's CPU OpenCL runtime, which needs its own newer TBB
// under the same name, would then fail to load: the Intel device would
// vanish. Loaded after the device is open, the module shares that TBB.
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>

extern "C" {

// The luma as OpenCV sees it: CV_8U when every value fits, else CV_32F
// (exact for 16-bit integers). Returns a handle for the two calls below.
void* rgxFloodFillPrepare(const uint16_t* luma, int width, int height)
{
    const size_t count = size_t(width) * size_t(height);
    const bool eightBit = std::all_of(luma, luma + count, [](uint16_t v) { return v < 256; });
    auto* image = new cv::Mat(height, width, eightBit ? CV_8U : CV_32F);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const uint16_t value = luma[size_t(y) * size_t(width) + size_t(x)];
            if (eightBit)
                image->at<uint8_t>(y, x) = uint8_t(value);
            else
                image->at<float>(y, x) = float(value);
        }
    return image;
}

// One fill with a fixed range around the seed value (SPEC.md: mode range
// with one seed). Only the fill is timed, its mask included; filled gets 1
// for every pixel reached. Returns the milliseconds.
double rgxFloodFillRun(void* prepared, int seedX, int seedY, uint32_t lower, uint32_t upper,
                       int connectivity, uint8_t* filled)
{
    cv::Mat& image = *static_cast<cv::Mat*>(prepared);
    const auto start = std::chrono::steady_clock::now();
    cv::Mat mask = cv::Mat::zeros(image.rows + 2, image.cols + 2, CV_8U);
    const int flags = connectivity | (1 << 8) | cv::FLOODFILL_FIXED_RANGE | cv::FLOODFILL_MASK_ONLY;
    cv::floodFill(image, mask, cv::Point(seedX, seedY), cv::Scalar(), nullptr, cv::Scalar(double(lower)),
                  cv::Scalar(double(upper)), flags);
    const double elapsed =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    for (int y = 0; y < image.rows; ++y)
        for (int x = 0; x < image.cols; ++x)
            filled[size_t(y) * size_t(image.cols) + size_t(x)] = mask.at<uint8_t>(y + 1, x + 1) ? 1 : 0;
    return elapsed;
}

void rgxFloodFillRelease(void* prepared)
{
    delete static_cast<cv::Mat*>(prepared);
}

} // extern "C"
