// lbvh: a GPU bounding volume hierarchy builder the way a renderer builds one every frame, with
// vkalgo's sort inside the engine's own command buffer.
//
//   lbvh [--triangles N] [--seed S] [--input FILE] [--output FILE] [--image FILE.png]
//        [--width W --height H] [--repeat R]
//
// The build (Karras, "Maximizing Parallelism in the Construction of BVHs, Octrees, and k-d
// Trees", HPG 2012), recorded into ONE command buffer:
//   1. morton     30-bit Morton codes of the triangle centroids (shaders/morton.comp), with the
//                 triangle indices as values. The centroid box is computed on the CPU when the
//                 scene is loaded (it is part of the scene, like the triangle count).
//   2. sort       vkalgo's stable key-value radix sort of (code, index) on bits [0, 30), through
//                 the record layer (vkalgo_sort_record) on this program's buffers.
//   3. hierarchy  the radix tree (shaders/hierarchy.comp); equal codes fall back to the sorted
//                 position as Karras suggests, so duplicates still give a valid tree.
//   4. refit      leaf boxes and bottom-up inner boxes with one atomic counter per inner node
//                 (shaders/refit.comp): the second child to arrive goes on, the first stops.
// Node layout (also the --output file's): inner i is node i, the leaf of sorted position k is
// node N - 1 + k; the root is node 0 (for N = 1 the root is the only leaf).
//
// The program creates its own VkInstance and VkDevice (a discrete GPU first, then integrated,
// virtual, CPU), its own memory, and wraps the device with vkalgo_context_create_external. It
// checks the tree on the CPU, prints the GPU time of each phase (timestamps; a warm-up build,
// then R timed ones: the best and the median), and with --image traces one ray per pixel through the
// tree (shaders/trace.comp) and writes a PNG.
//
// All work runs on one queue of one family (compute, preferably with timestamps), so no
// queue-family ownership transfers or semaphores are needed.
//
// VKALGO_VALIDATION=1 enables the Khronos validation layer with synchronization validation;
// any message fails the run. Test hooks: LBVH_WRITE_TRIANGLES=FILE also writes the triangles
// of the scene in the --input format; LBVH_DEBUG=1 prints the first 64 nodes of a tree that
// fails the check.
//
// Exit status: 0 success, 1 failure (a message says what), 2 bad command line or input.
#include <png.h>
#include <vkalgo.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "lbvh_common.h"
#include "lbvh_shaders.h"

namespace {

// ---------------------------------------------------------------------------------------------
// Errors

unsigned g_validation_messages = 0;

bool fail(const std::string& what) {
  std::fprintf(stderr, "lbvh: error: %s\n", what.c_str());
  return false;
}

bool vk_check(VkResult r, const char* call) {
  if (r == VK_SUCCESS) return true;
  std::fprintf(stderr, "lbvh: error: %s failed with VkResult %d\n", call, int(r));
  return false;
}

bool vkalgo_check(VkalgoResult r, const char* call) {
  if (r == VKALGO_SUCCESS) return true;
  std::fprintf(stderr, "lbvh: error: %s failed: %s: %s\n", call, vkalgo_result_string(r),
               vkalgo_last_error_message());
  return false;
}

#define VK_CHECK(call) vk_check((call), #call)
#define VKALGO_CHECK(call) vkalgo_check((call), #call)

// ---------------------------------------------------------------------------------------------
// Command line

struct Options {
  uint32_t triangles = 1000000;
  bool triangles_set = false;
  uint64_t seed = 1;
  std::string input, output, image;
  uint32_t width = 1280, height = 720;
  uint32_t repeat = 1;
  bool async_compute = false;
};

const char* kUsage =
    "usage: lbvh [--triangles N] [--seed S] [--input FILE] [--output FILE] [--image FILE.png]\n"
    "            [--width W --height H] [--repeat R]\n"
    "  --triangles N  random triangles (1 to 33554432; default 1000000)\n"
    "  --seed S       seed of the random scene (0 to 2^64 - 1; default 1)\n"
    "  --input FILE   triangles as little-endian f32, 9 per triangle (instead of --triangles)\n"
    "  --output FILE  the BVH: u32 magic 0x4856424C, u32 N, u32 root, 2N - 1 nodes of 32 bytes\n"
    "  --image FILE   trace one ray per pixel through the BVH and write a PNG\n"
    "  --width W, --height H  image size (1 to 4000; default 1280 x 720)\n"
    "  --repeat R     build R times after a warm-up build, report the best and the median\n"
    "                 (1 to 1000; default 1)\n"
    "  --async-compute  sort on a queue of a compute-only family (async compute), with the\n"
    "                 queue-family ownership transfers and semaphores that takes; without such\n"
    "                 a family, the same three submissions on the one queue\n";

// A whole decimal number in [lo, hi]; anything else (signs, spaces, trailing text) is an error.
bool parse_u64(const char* s, uint64_t lo, uint64_t hi, uint64_t& out) {
  if (!s || !*s) return false;
  for (const char* p = s; *p; p++) {
    if (*p < '0' || *p > '9') return false;
  }
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  out = v;
  return true;
}

bool parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    auto bad = [&](const char* want) {
      std::fprintf(stderr, "lbvh: error: %s needs %s, got %s%s%s\n%s", arg.c_str(), want, value ? "\"" : "",
                   value ? value : "nothing", value ? "\"" : "", kUsage);
      return false;
    };
    uint64_t v = 0;
    if (arg == "--triangles") {
      if (!parse_u64(value, 1, lbvh::kMaxTriangles, v)) return bad("a count from 1 to 33554432");
      o.triangles = uint32_t(v);
      o.triangles_set = true;
    } else if (arg == "--seed") {
      if (!parse_u64(value, 0, UINT64_MAX, v)) return bad("a number from 0 to 18446744073709551615");
      o.seed = v;
    } else if (arg == "--width" || arg == "--height") {
      if (!parse_u64(value, 1, 4000, v)) return bad("a size from 1 to 4000");
      (arg == "--width" ? o.width : o.height) = uint32_t(v);
    } else if (arg == "--async-compute") {
      o.async_compute = true;
      continue;
    } else if (arg == "--repeat") {
      if (!parse_u64(value, 1, 1000, v)) return bad("a count from 1 to 1000");
      o.repeat = uint32_t(v);
    } else if (arg == "--input" || arg == "--output" || arg == "--image") {
      if (!value || !*value) return bad("a file name");
      (arg == "--input" ? o.input : arg == "--output" ? o.output : o.image) = value;
    } else {
      std::fprintf(stderr, "lbvh: error: unknown argument \"%s\"\n%s", arg.c_str(), kUsage);
      return false;
    }
    i++;
  }
  if (!o.input.empty() && o.triangles_set) {
    std::fprintf(stderr, "lbvh: error: --input and --triangles exclude each other\n%s", kUsage);
    return false;
  }
  return true;
}

// Reads --input: its size must be a positive multiple of 36 bytes, at most kMaxTriangles
// triangles, every coordinate finite.
bool load_triangles(const std::string& path, std::vector<float>& tris) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return fail("cannot open --input " + path + ": " + std::strerror(errno));
  std::vector<unsigned char> bytes;
  unsigned char buf[1 << 16];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) {
    bytes.insert(bytes.end(), buf, buf + got);
    if (bytes.size() > uint64_t(lbvh::kMaxTriangles) * 36) break;
  }
  const bool read_error = std::ferror(f) != 0;
  std::fclose(f);
  if (read_error) return fail("cannot read --input " + path);
  if (bytes.empty()) return fail("--input " + path + " is empty: no triangles (N = 0)");
  if (bytes.size() % 36 != 0) {
    return fail("--input " + path + " has " + std::to_string(bytes.size()) +
                " bytes, not a multiple of 36 (9 little-endian f32 per triangle)");
  }
  if (bytes.size() / 36 > lbvh::kMaxTriangles) {
    return fail("--input " + path + " has more than " + std::to_string(lbvh::kMaxTriangles) + " triangles");
  }
  tris.resize(bytes.size() / 4);
  for (size_t i = 0; i < tris.size(); i++) {
    const uint32_t u = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16 |
                       uint32_t(bytes[4 * i + 3]) << 24;
    std::memcpy(&tris[i], &u, 4);
    if (!std::isfinite(tris[i])) {
      return fail("--input " + path + ": triangle " + std::to_string(i / 9) + " has a coordinate that is not finite");
    }
  }
  return true;
}

bool write_file(const std::string& path, const void* data, size_t bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return fail("cannot create " + path + ": " + std::strerror(errno));
  const bool ok = std::fwrite(data, 1, bytes, f) == bytes;
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed) {
    std::remove(path.c_str());
    return fail("cannot write " + path);
  }
  return true;
}

// An RGBA8 picture (row 0 at the top) as an 8-bit RGB PNG.
bool write_png(const std::string& path, const uint32_t* rgba, uint32_t w, uint32_t h) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return fail("cannot create " + path + ": " + std::strerror(errno));
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  std::vector<png_byte> row(size_t(w) * 3);
  bool ok = false;
  if (png && info && setjmp(png_jmpbuf(png)) == 0) {
    png_init_io(png, f);
    png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < h; y++) {
      for (uint32_t x = 0; x < w; x++) {
        const uint32_t p = rgba[size_t(y) * w + x];
        row[3 * x] = png_byte(p);
        row[3 * x + 1] = png_byte(p >> 8);
        row[3 * x + 2] = png_byte(p >> 16);
      }
      png_write_row(png, row.data());
    }
    png_write_end(png, nullptr);
    ok = true;
  }
  png_destroy_write_struct(png ? &png : nullptr, info ? &info : nullptr);
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed) {
    std::remove(path.c_str());
    return fail("libpng could not write " + path);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Vulkan

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  VkDeviceAddress address = 0;
  void* mapped = nullptr;
};

// Timestamps of one build: before morton, after morton, sort, hierarchy, refit.
constexpr uint32_t kStamps = 5;
const char* const kPhases[4] = {"morton", "sort", "hierarchy", "refit"};

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  // The messenger only receives warnings and errors: each one fails the run.
  g_validation_messages++;
  std::fprintf(stderr, "lbvh: validation: %s\n", data && data->pMessage ? data->pMessage : "(no message)");
  return VK_FALSE;
}

bool has_layer(const char* name) {
  uint32_t n = 0;
  if (vkEnumerateInstanceLayerProperties(&n, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> props(n);
  if (n == 0 || vkEnumerateInstanceLayerProperties(&n, props.data()) != VK_SUCCESS) return false;
  for (const auto& p : props) {
    if (std::strcmp(p.layerName, name) == 0) return true;
  }
  return false;
}

bool has_instance_extension(const char* layer, const char* name) {
  uint32_t n = 0;
  if (vkEnumerateInstanceExtensionProperties(layer, &n, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> props(n);
  if (n == 0 || vkEnumerateInstanceExtensionProperties(layer, &n, props.data()) != VK_SUCCESS) return false;
  for (const auto& p : props) {
    if (std::strcmp(p.extensionName, name) == 0) return true;
  }
  return false;
}

bool has_device_extension(VkPhysicalDevice pd, const char* name) {
  uint32_t n = 0;
  if (vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> props(n);
  if (n == 0 || vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, props.data()) != VK_SUCCESS) return false;
  for (const auto& p : props) {
    if (std::strcmp(p.extensionName, name) == 0) return true;
  }
  return false;
}

// The queue family: compute, preferably with timestamps. UINT32_MAX: none.
uint32_t pick_queue_family(VkPhysicalDevice pd, uint32_t& timestamp_bits) {
  uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
  uint32_t best = UINT32_MAX;
  timestamp_bits = 0;
  for (uint32_t f = 0; f < n; f++) {
    if ((families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
        (best == UINT32_MAX || (timestamp_bits == 0 && families[f].timestampValidBits > 0))) {
      best = f;
      timestamp_bits = families[f].timestampValidBits;
    }
  }
  return best;
}

struct PushMorton {
  uint64_t tris, keys, values;
  float lo[3], inv[3];
  uint32_t n;
};
struct PushHierarchy {
  uint64_t keys, nodes, parents;
  uint32_t n;
};
struct PushRefit {
  uint64_t tris, values, nodes, parents, flags;
  uint32_t n;
};
struct PushTrace {
  uint64_t tris, nodes, image, failures;
  float eye[3], corner[3], right[3], down[3];
  uint32_t width, height;
};

class App {
 public:
  explicit App(bool async_compute) : async_(async_compute) {}
  ~App() { destroy(); }
  bool run(const Options& o, const std::vector<float>& tris);

 private:
  bool create_instance();
  bool pick_physical_device();
  bool create_device();
  bool create_pipelines();
  bool buffer_create(VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible, const char* name, Buffer& b);
  void buffer_destroy(Buffer& b);
  bool submit_and_wait(VkCommandBuffer cmd);
  bool submit_build();
  bool wait_for_fence();
  void label_begin(VkCommandBuffer cmd, const char* name);
  void label_end(VkCommandBuffer cmd);
  void destroy();

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger_ = nullptr;
  PFN_vkCmdBeginDebugUtilsLabelEXT begin_label_ = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT end_label_ = nullptr;
  bool debug_utils_ = false;
  bool int64_atomics_ = false;
  bool full_subgroups_ = false;
  bool lavapipe_ = false;  // refit.comp without memory barriers (see there)
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties props_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  uint32_t queue_family_ = 0;
  uint32_t timestamp_bits_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer upload_cmd_ = VK_NULL_HANDLE, build_cmd_ = VK_NULL_HANDLE, trace_cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  // --async-compute: the sort goes to compute_queue_ (of a compute-only family when the device
  // has one), between two semaphores; the build is then three command buffers.
  bool async_ = false;
  uint32_t compute_family_ = 0;
  VkQueue compute_queue_ = VK_NULL_HANDLE;
  VkCommandPool compute_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer sort_cmd_ = VK_NULL_HANDLE, finish_cmd_ = VK_NULL_HANDLE;
  VkSemaphore morton_done_ = VK_NULL_HANDLE, sort_done_ = VK_NULL_HANDLE;
  VkQueryPool timestamps_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline morton_ = VK_NULL_HANDLE, hierarchy_ = VK_NULL_HANDLE, refit_ = VK_NULL_HANDLE,
             trace_ = VK_NULL_HANDLE;
  VkalgoContext* ctx_ = nullptr;
  VkalgoSortPlan* plan_ = nullptr;
  Buffer tris_, keys_, values_, keys_alt_, values_alt_, scratch_, nodes_, parents_, flags_, image_, failures_,
      staging_;
  bool gpu_may_be_busy_ = false;
};

// The instance, with the Khronos validation layer and synchronization validation when
// VKALGO_VALIDATION=1; debug utils (object names, pass labels) whenever the loader has them.
bool App::create_instance() {
  const char* env = std::getenv("VKALGO_VALIDATION");
  const char* layer = "VK_LAYER_KHRONOS_validation";
  bool validation = env && std::strcmp(env, "1") == 0;
  const bool debug_utils = has_instance_extension(nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (validation && !(has_layer(layer) && debug_utils)) {
    std::printf("note: VKALGO_VALIDATION=1 but %s or %s is missing: running without validation\n", layer,
                VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    validation = false;
  }
  const bool sync_validation = validation && has_instance_extension(layer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
  debug_utils_ = debug_utils;
  std::vector<const char*> extensions;
  if (debug_utils) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (sync_validation) extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{};
  messenger_info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  messenger_info.pfnUserCallback = on_validation_message;
  const VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{};
  features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
  features.pNext = &messenger_info;  // also catches messages of vkCreateInstance itself
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "vkalgo lbvh";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pNext = !validation ? nullptr : sync_validation ? static_cast<const void*>(&features) : &messenger_info;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = validation ? 1u : 0u;
  info.ppEnabledLayerNames = &layer;
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  if (!VK_CHECK(vkCreateInstance(&info, nullptr, &instance_))) return false;
  if (debug_utils) {
    begin_label_ = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdBeginDebugUtilsLabelEXT"));
    end_label_ =
        reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(vkGetInstanceProcAddr(instance_, "vkCmdEndDebugUtilsLabelEXT"));
  }
  if (validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
    destroy_messenger_ = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (!create || !destroy_messenger_) return fail("vkCreateDebugUtilsMessengerEXT is missing");
    if (!VK_CHECK(create(instance_, &messenger_info, nullptr, &messenger_))) return false;
  }
  std::printf("validation: %s\n", !validation ? "off" : sync_validation ? "on (with synchronization validation)" : "on");
  return true;
}

// Vulkan 1.2+, bufferDeviceAddress, shaderInt64, a compute queue; a discrete GPU first, then
// integrated, virtual, CPU.
bool App::pick_physical_device() {
  uint32_t n = 0;
  if (!VK_CHECK(vkEnumeratePhysicalDevices(instance_, &n, nullptr))) return false;
  std::vector<VkPhysicalDevice> devices(n);
  if (n > 0 && !VK_CHECK(vkEnumeratePhysicalDevices(instance_, &n, devices.data()))) return false;
  int best_score = -1;
  for (VkPhysicalDevice pd : devices) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    if (props.apiVersion < VK_API_VERSION_1_2) continue;
    VkPhysicalDeviceVulkan12Features f12{};
    f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    VkPhysicalDeviceFeatures2 f{};
    f.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    f.pNext = &f12;
    vkGetPhysicalDeviceFeatures2(pd, &f);
    uint32_t bits;
    if (!f12.bufferDeviceAddress || !f.features.shaderInt64 || pick_queue_family(pd, bits) == UINT32_MAX) continue;
    const int score = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU     ? 4
                      : props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 3
                      : props.deviceType == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU    ? 2
                                                                                   : 1;
    if (score > best_score) {
      best_score = score;
      physical_device_ = pd;
    }
  }
  if (best_score < 0) return fail("no Vulkan 1.2+ device with bufferDeviceAddress, shaderInt64 and a compute queue");
  vkGetPhysicalDeviceProperties(physical_device_, &props_);
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_);
  VkPhysicalDeviceDriverProperties driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  VkPhysicalDeviceProperties2 props2{};
  props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  props2.pNext = &driver;
  vkGetPhysicalDeviceProperties2(physical_device_, &props2);
  lavapipe_ = driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;
  queue_family_ = pick_queue_family(physical_device_, timestamp_bits_);
  return true;
}

// The device with what vkalgo needs (bufferDeviceAddress, shaderInt64) and the optional
// features it uses when they are enabled and declared in the context flags:
// shaderBufferInt64Atomics (its single-pass look-back paths) and subgroupSizeControl +
// computeFullSubgroups (core in 1.3; VK_EXT_subgroup_size_control on 1.2).
bool App::create_device() {
  const bool core13 = props_.apiVersion >= VK_API_VERSION_1_3;
  const bool size_control_ext = !core13 && has_device_extension(physical_device_, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  VkPhysicalDeviceSubgroupSizeControlFeatures q_size{};
  q_size.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
  VkPhysicalDeviceVulkan12Features q12{};
  q12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  q12.pNext = core13 || size_control_ext ? &q_size : nullptr;
  VkPhysicalDeviceFeatures2 q{};
  q.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  q.pNext = &q12;
  vkGetPhysicalDeviceFeatures2(physical_device_, &q);
  const bool full_subgroups = q_size.computeFullSubgroups == VK_TRUE;

  VkPhysicalDeviceSubgroupSizeControlFeatures e_size{};
  e_size.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
  e_size.subgroupSizeControl = q_size.subgroupSizeControl;
  e_size.computeFullSubgroups = q_size.computeFullSubgroups;
  VkPhysicalDeviceVulkan12Features e12{};
  e12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  e12.pNext = full_subgroups ? &e_size : nullptr;
  e12.bufferDeviceAddress = VK_TRUE;
  e12.shaderBufferInt64Atomics = q12.shaderBufferInt64Atomics;
  VkPhysicalDeviceFeatures2 enabled{};
  enabled.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  enabled.pNext = &e12;
  enabled.features.shaderInt64 = VK_TRUE;
  const char* extensions[] = {VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME};
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_infos[2]{};
  queue_infos[0].sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_infos[0].queueFamilyIndex = queue_family_;
  queue_infos[0].queueCount = 1;
  queue_infos[0].pQueuePriorities = &priority;
  // --async-compute: a queue of a compute-only family (the async-compute queue), if any.
  compute_family_ = queue_family_;
  if (async_) {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &n, families.data());
    for (uint32_t f = 0; f < n && compute_family_ == queue_family_; f++) {
      if ((families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) && !(families[f].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
          f != queue_family_) {
        compute_family_ = f;
      }
    }
    queue_infos[1] = queue_infos[0];
    queue_infos[1].queueFamilyIndex = compute_family_;
  }
  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.pNext = &enabled;
  info.queueCreateInfoCount = compute_family_ != queue_family_ ? 2u : 1u;
  info.pQueueCreateInfos = queue_infos;
  info.enabledExtensionCount = full_subgroups && size_control_ext ? 1u : 0u;
  info.ppEnabledExtensionNames = extensions;
  if (!VK_CHECK(vkCreateDevice(physical_device_, &info, nullptr, &device_))) return false;
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
  vkGetDeviceQueue(device_, compute_family_, 0, &compute_queue_);
  int64_atomics_ = q12.shaderBufferInt64Atomics == VK_TRUE;
  full_subgroups_ = full_subgroups;
  std::printf("device: %s (Vulkan %u.%u), queue family %u, shaderBufferInt64Atomics %s, computeFullSubgroups %s\n",
              props_.deviceName, VK_API_VERSION_MAJOR(props_.apiVersion), VK_API_VERSION_MINOR(props_.apiVersion),
              queue_family_, int64_atomics_ ? "on" : "unsupported", full_subgroups ? "on" : "unsupported");

  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.queueFamilyIndex = queue_family_;
  if (!VK_CHECK(vkCreateCommandPool(device_, &pool_info, nullptr, &pool_))) return false;
  VkCommandBufferAllocateInfo cmd_info{};
  cmd_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  cmd_info.commandPool = pool_;
  cmd_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cmd_info.commandBufferCount = 3;
  VkCommandBuffer cmds[3];
  if (!VK_CHECK(vkAllocateCommandBuffers(device_, &cmd_info, cmds))) return false;
  upload_cmd_ = cmds[0];
  build_cmd_ = cmds[1];
  trace_cmd_ = cmds[2];
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  if (!VK_CHECK(vkCreateFence(device_, &fence_info, nullptr, &fence_))) return false;
  if (async_) {
    if (compute_family_ != queue_family_) {
      pool_info.queueFamilyIndex = compute_family_;
      if (!VK_CHECK(vkCreateCommandPool(device_, &pool_info, nullptr, &compute_pool_))) return false;
    }
    cmd_info.commandPool = compute_pool_ ? compute_pool_ : pool_;
    cmd_info.commandBufferCount = 1;
    if (!VK_CHECK(vkAllocateCommandBuffers(device_, &cmd_info, &sort_cmd_))) return false;
    cmd_info.commandPool = pool_;
    if (!VK_CHECK(vkAllocateCommandBuffers(device_, &cmd_info, &finish_cmd_))) return false;
    VkSemaphoreCreateInfo sem_info{};
    sem_info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    if (!VK_CHECK(vkCreateSemaphore(device_, &sem_info, nullptr, &morton_done_)) ||
        !VK_CHECK(vkCreateSemaphore(device_, &sem_info, nullptr, &sort_done_))) {
      return false;
    }
    std::printf("async compute: the sort runs on queue family %u%s\n", compute_family_,
                compute_family_ != queue_family_ ? " (compute-only), with queue-family ownership transfers"
                                                 : " (no compute-only family: the same queue, three submissions)");
  }
  if (timestamp_bits_ > 0) {
    VkQueryPoolCreateInfo query_info{};
    query_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = kStamps;
    if (!VK_CHECK(vkCreateQueryPool(device_, &query_info, nullptr, &timestamps_))) return false;
  }
  return true;
}

// The four compute pipelines: one layout, push constants only (no descriptor sets).
bool App::create_pipelines() {
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
  static_assert(sizeof(PushTrace) <= 128 && sizeof(PushMorton) <= 128 && sizeof(PushRefit) <= 128, "push size");
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &range;
  if (!VK_CHECK(vkCreatePipelineLayout(device_, &layout_info, nullptr, &layout_))) return false;
  // refit.comp's FENCES (constant 0): off on lavapipe only.
  const VkBool32 fences = lavapipe_ ? VK_FALSE : VK_TRUE;
  const VkSpecializationMapEntry entry{0, 0, sizeof(VkBool32)};
  const VkSpecializationInfo refit_spec{1, &entry, sizeof fences, &fences};
  struct {
    const uint32_t* code;
    size_t bytes;
    VkPipeline* out;
    const VkSpecializationInfo* spec;
  } shaders[] = {{kMortonSpv, sizeof kMortonSpv, &morton_, nullptr},
                 {kHierarchySpv, sizeof kHierarchySpv, &hierarchy_, nullptr},
                 {kRefitSpv, sizeof kRefitSpv, &refit_, &refit_spec},
                 {kTraceSpv, sizeof kTraceSpv, &trace_, nullptr}};
  for (const auto& s : shaders) {
    VkShaderModuleCreateInfo module_info{};
    module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    module_info.codeSize = s.bytes;
    module_info.pCode = s.code;
    VkShaderModule module;
    if (!VK_CHECK(vkCreateShaderModule(device_, &module_info, nullptr, &module))) return false;
    VkComputePipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = s.spec;
    info.layout = layout_;
    const VkResult r = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, s.out);
    vkDestroyShaderModule(device_, module, nullptr);
    if (!vk_check(r, "vkCreateComputePipelines")) return false;
  }
  return true;
}

// A buffer with its own memory (an engine would sub-allocate). Device-local for the work,
// host-visible + coherent for staging.
bool App::buffer_create(VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible, const char* name, Buffer& b) {
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size > 0 ? size : 16;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (!VK_CHECK(vkCreateBuffer(device_, &info, nullptr, &b.buffer))) {
    std::fprintf(stderr, "  (buffer %s, %" PRIu64 " bytes)\n", name, uint64_t(info.size));
    return false;
  }
  b.size = info.size;
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, b.buffer, &req);
  const VkMemoryPropertyFlags required =
      host_visible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT : 0;
  const VkMemoryPropertyFlags preferred =
      host_visible ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  uint32_t type = UINT32_MAX;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; i++) {
    const VkMemoryPropertyFlags flags = memory_.memoryTypes[i].propertyFlags;
    if (!(req.memoryTypeBits & (1u << i)) || (flags & required) != required) continue;
    if ((flags & preferred) == preferred) {
      type = i;
      break;
    }
    if (type == UINT32_MAX) type = i;
  }
  if (type == UINT32_MAX) return fail(std::string("no suitable memory type for buffer ") + name);
  VkMemoryAllocateFlagsInfo flags{};
  flags.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO;
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.pNext = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) ? &flags : nullptr;
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  if (!VK_CHECK(vkAllocateMemory(device_, &alloc, nullptr, &b.memory)) ||
      !VK_CHECK(vkBindBufferMemory(device_, b.buffer, b.memory, 0))) {
    std::fprintf(stderr, "  (buffer %s, %" PRIu64 " bytes)\n", name, uint64_t(req.size));
    return false;
  }
  if (host_visible && !VK_CHECK(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped))) return false;
  if (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) {
    VkBufferDeviceAddressInfo addr{};
    addr.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO;
    addr.buffer = b.buffer;
    b.address = vkGetBufferDeviceAddress(device_, &addr);
  }
  return true;
}

void App::buffer_destroy(Buffer& b) {
  if (b.buffer) vkDestroyBuffer(device_, b.buffer, nullptr);
  if (b.memory) vkFreeMemory(device_, b.memory, nullptr);
  b = Buffer{};
}

bool App::submit_and_wait(VkCommandBuffer cmd) {
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  if (!VK_CHECK(vkResetFences(device_, 1, &fence_)) || !VK_CHECK(vkQueueSubmit(queue_, 1, &submit, fence_))) {
    return false;
  }
  return wait_for_fence();
}

// A bounded wait for fence_: a hang is reported, not waited out forever.
bool App::wait_for_fence() {
  const VkResult wait = vkWaitForFences(device_, 1, &fence_, VK_TRUE, 600ull * 1000 * 1000 * 1000);
  if (wait == VK_TIMEOUT) {
    gpu_may_be_busy_ = true;
    return fail("the GPU did not finish within 600 s");
  }
  return vk_check(wait, "vkWaitForFences");
}

// One build: one submission, or with --async-compute three: Morton codes on the main queue
// (signals morton_done_), the sort on the compute queue (waits for it, signals sort_done_),
// hierarchy, refit and download on the main queue (waits for that; the fence).
bool App::submit_build() {
  if (!async_) return submit_and_wait(build_cmd_);
  const VkPipelineStageFlags sort_waits = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  const VkPipelineStageFlags finish_waits = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  VkSubmitInfo a{}, b{}, c{};
  a.sType = b.sType = c.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  a.commandBufferCount = b.commandBufferCount = c.commandBufferCount = 1;
  a.pCommandBuffers = &build_cmd_;
  a.signalSemaphoreCount = 1;
  a.pSignalSemaphores = &morton_done_;
  b.pCommandBuffers = &sort_cmd_;
  b.waitSemaphoreCount = 1;
  b.pWaitSemaphores = &morton_done_;
  b.pWaitDstStageMask = &sort_waits;
  b.signalSemaphoreCount = 1;
  b.pSignalSemaphores = &sort_done_;
  c.pCommandBuffers = &finish_cmd_;
  c.waitSemaphoreCount = 1;
  c.pWaitSemaphores = &sort_done_;
  c.pWaitDstStageMask = &finish_waits;
  if (!VK_CHECK(vkResetFences(device_, 1, &fence_)) || !VK_CHECK(vkQueueSubmit(queue_, 1, &a, VK_NULL_HANDLE)) ||
      !VK_CHECK(vkQueueSubmit(compute_queue_, 1, &b, VK_NULL_HANDLE)) ||
      !VK_CHECK(vkQueueSubmit(queue_, 1, &c, fence_))) {
    return false;
  }
  return wait_for_fence();
}

// A queue-family ownership transfer of whole buffers: the release half (recorded on the
// source family's queue after its last use) or the acquire half (on the destination's, before
// its first use). Only for buffers whose contents the other family needs; the others (a
// buffer the next user overwrites) change family without one, as the spec allows.
void ownership_transfer(VkCommandBuffer cmd, std::initializer_list<VkBuffer> buffers, uint32_t from, uint32_t to,
                        bool release, VkPipelineStageFlags stages, VkAccessFlags access) {
  std::vector<VkBufferMemoryBarrier> barriers;
  for (VkBuffer buffer : buffers) {
    VkBufferMemoryBarrier b{};
    b.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
    b.srcAccessMask = release ? access : 0;
    b.dstAccessMask = release ? 0 : access;
    b.srcQueueFamilyIndex = from;
    b.dstQueueFamilyIndex = to;
    b.buffer = buffer;
    b.offset = 0;
    b.size = VK_WHOLE_SIZE;
    barriers.push_back(b);
  }
  const VkPipelineStageFlags top = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, bottom = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
  vkCmdPipelineBarrier(cmd, release ? stages : top, release ? bottom : stages, 0, 0, nullptr, uint32_t(barriers.size()),
                       barriers.data(), 0, nullptr);
}

// Debug labels (RenderDoc, Nsight, validation messages name the pass).
void App::label_begin(VkCommandBuffer cmd, const char* name) {
  if (!begin_label_) return;
  VkDebugUtilsLabelEXT label{};
  label.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT;
  label.pLabelName = name;
  begin_label_(cmd, &label);
}
void App::label_end(VkCommandBuffer cmd) {
  if (end_label_) end_label_(cmd);
}

void App::destroy() {
  if (gpu_may_be_busy_) {
    std::fprintf(stderr, "lbvh: the GPU did not finish: leaking its objects rather than freeing them under it\n");
    return;
  }
  if (device_) vkDeviceWaitIdle(device_);
  vkalgo_sort_plan_destroy(plan_);
  plan_ = nullptr;
  vkalgo_context_destroy(ctx_);
  ctx_ = nullptr;
  if (device_) {
    for (Buffer* b : {&tris_, &keys_, &values_, &keys_alt_, &values_alt_, &scratch_, &nodes_, &parents_, &flags_,
                      &image_, &failures_, &staging_}) {
      buffer_destroy(*b);
    }
    for (VkPipeline* p : {&morton_, &hierarchy_, &refit_, &trace_}) {
      if (*p) vkDestroyPipeline(device_, *p, nullptr);
      *p = VK_NULL_HANDLE;
    }
    if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
    if (timestamps_) vkDestroyQueryPool(device_, timestamps_, nullptr);
    if (fence_) vkDestroyFence(device_, fence_, nullptr);
    for (VkSemaphore* sem : {&morton_done_, &sort_done_}) {
      if (*sem) vkDestroySemaphore(device_, *sem, nullptr);
    }
    if (compute_pool_) vkDestroyCommandPool(device_, compute_pool_, nullptr);
    if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (messenger_) destroy_messenger_(instance_, messenger_, nullptr);
  messenger_ = VK_NULL_HANDLE;
  if (instance_) vkDestroyInstance(instance_, nullptr);
  instance_ = VK_NULL_HANDLE;
}

// One global memory barrier (buffers of one queue: a per-buffer barrier would add nothing).
void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stages, VkAccessFlags src_access,
             VkPipelineStageFlags dst_stages, VkAccessFlags dst_access) {
  VkMemoryBarrier b{};
  b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  b.srcAccessMask = src_access;
  b.dstAccessMask = dst_access;
  vkCmdPipelineBarrier(cmd, src_stages, dst_stages, 0, 1, &b, 0, nullptr, 0, nullptr);
}

constexpr VkPipelineStageFlags kCompute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
constexpr VkPipelineStageFlags kTransfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kShaderRW = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

uint32_t groups_for(uint64_t items) { return uint32_t(std::min<uint64_t>((items + 255) / 256, 65535)); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

bool App::run(const Options& o, const std::vector<float>& tris) {
  const uint32_t n = uint32_t(tris.size() / 9);
  const uint64_t node_count = 2ull * n - 1;
  const VkDeviceSize tri_bytes = VkDeviceSize(n) * 36, node_bytes = node_count * 32, u32s = VkDeviceSize(n) * 4;
  const lbvh::CentroidBounds bounds = lbvh::centroid_bounds(tris);

  if (!create_instance() || !pick_physical_device() || !create_device() || !create_pipelines()) return false;

  VkalgoExternalContextDesc ctx_desc{};
  ctx_desc.instance = instance_;
  ctx_desc.physical_device = physical_device_;
  ctx_desc.device = device_;
  // The family vkalgo's passes are recorded for (the compute queue's with --async-compute).
  ctx_desc.queue_family_index = compute_family_;
  ctx_desc.queue = VK_NULL_HANDLE;  // record layer only: vkalgo never submits here
  ctx_desc.get_instance_proc_addr = vkGetInstanceProcAddr;
  ctx_desc.pipeline_cache = VK_NULL_HANDLE;
  ctx_desc.flags = (debug_utils_ ? VKALGO_CONTEXT_DEBUG_UTILS : 0u) |
                   (int64_atomics_ ? VKALGO_CONTEXT_INT64_ATOMICS_ENABLED : 0u) |
                   (full_subgroups_ ? VKALGO_CONTEXT_FULL_SUBGROUPS_ENABLED : 0u);
  if (!VKALGO_CHECK(vkalgo_context_create_external(&ctx_desc, &ctx_))) return false;

  // The sort: u32 codes with u32 triangle indices on bits [0, 30), stable, so equal codes keep
  // their triangles in index order (the tree does not need it; it makes builds repeatable).
  VkalgoSortDesc sort_desc{};
  sort_desc.key_type = VKALGO_KEY_U32;
  sort_desc.value_type = VKALGO_VALUE_U32;
  sort_desc.begin_bit = 0;
  sort_desc.end_bit = 30;
  sort_desc.path = VKALGO_SORT_PATH_AUTO;
  sort_desc.max_count = n;
  VkalgoMemoryRequirements req{};  // an output struct: zeroed, its `next` NULL
  if (!VKALGO_CHECK(vkalgo_sort_plan_create(ctx_, &sort_desc, &plan_)) ||
      !VKALGO_CHECK(vkalgo_sort_plan_memory_requirements(plan_, &req))) {
    return false;
  }

  const VkBufferUsageFlags usage = req.scratch.usage | req.keys_alt.usage | req.values_alt.usage |
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  const uint64_t pixels = o.image.empty() ? 0 : uint64_t(o.width) * o.height;
  // Staging: the triangles up, then the nodes down, then the picture and the failure count down.
  const VkDeviceSize staging_bytes = std::max({tri_bytes, node_bytes, VkDeviceSize(pixels * 4 + 4)});
  if (!buffer_create(tri_bytes, usage, false, "triangles", tris_) || !buffer_create(u32s, usage, false, "keys", keys_) ||
      !buffer_create(u32s, usage, false, "values", values_) ||
      !buffer_create(req.keys_alt.size, usage, false, "keys_alt", keys_alt_) ||
      !buffer_create(req.values_alt.size, usage, false, "values_alt", values_alt_) ||
      !buffer_create(req.scratch.size, usage, false, "scratch", scratch_) ||
      !buffer_create(node_bytes, usage, false, "nodes", nodes_) ||
      !buffer_create(node_count * 4, usage, false, "parents", parents_) ||
      !buffer_create(VkDeviceSize(std::max(n - 1, 1u)) * 4, usage, false, "flags", flags_) ||
      !buffer_create(std::max<VkDeviceSize>(pixels * 4, 4), usage, false, "image", image_) ||
      !buffer_create(4, usage, false, "failures", failures_) ||
      !buffer_create(staging_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true,
                     "staging", staging_)) {
    return false;
  }

  // Upload (its own submission, once: the triangles are the scene, not part of the build).
  std::memcpy(staging_.mapped, tris.data(), size_t(tri_bytes));
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  if (!VK_CHECK(vkBeginCommandBuffer(upload_cmd_, &begin))) return false;
  VkBufferCopy up{0, 0, tri_bytes};
  vkCmdCopyBuffer(upload_cmd_, staging_.buffer, tris_.buffer, 1, &up);
  if (!VK_CHECK(vkEndCommandBuffer(upload_cmd_)) || !submit_and_wait(upload_cmd_)) return false;

  // The build: recorded once, submitted --repeat times.
  VkCommandBuffer cmd = build_cmd_;
  if (!VK_CHECK(vkBeginCommandBuffer(cmd, &begin))) return false;
  if (timestamps_) vkCmdResetQueryPool(cmd, timestamps_, 0, kStamps);
  // Everything earlier (the upload, the previous build and its download) before this build:
  // its writes visible to the shaders and transfers here, its reads done before they write.
  barrier(cmd, kCompute | kTransfer, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, kCompute | kTransfer,
          kShaderRW | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  if (timestamps_) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 0);

  label_begin(cmd, "lbvh: morton");
  PushMorton pm{tris_.address, keys_.address, values_.address, {}, {}, n};
  std::memcpy(pm.lo, bounds.lo, sizeof pm.lo);
  std::memcpy(pm.inv, bounds.inv_extent, sizeof pm.inv);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, morton_);
  vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pm, &pm);
  vkCmdDispatch(cmd, groups_for(n), 1, 1);
  label_end(cmd);
  // vkalgo's contract before the sort: writes to keys and values visible to COMPUTE_SHADER
  // reads and writes; earlier uses of the alternates and scratch complete before
  // COMPUTE_SHADER and TRANSFER (the first barrier above already ordered the previous build).
  barrier(cmd, kCompute, VK_ACCESS_SHADER_WRITE_BIT, kCompute | kTransfer, kShaderRW | VK_ACCESS_TRANSFER_WRITE_BIT);
  if (timestamps_) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 1);

  // --async-compute: the sort goes into its own command buffer for the compute queue. The
  // codes and indices change queue family with an ownership transfer (release here, acquire
  // there); the alternates and scratch need none (the sort overwrites them). The semaphore
  // between the two submissions orders them; the acquire makes the writes visible.
  const bool transfer = async_ && compute_family_ != queue_family_;
  if (async_) {
    if (transfer) {
      ownership_transfer(cmd, {keys_.buffer, values_.buffer}, queue_family_, compute_family_, true, kCompute,
                         VK_ACCESS_SHADER_WRITE_BIT);
    }
    if (!VK_CHECK(vkEndCommandBuffer(cmd))) return false;
    cmd = sort_cmd_;
    if (!VK_CHECK(vkBeginCommandBuffer(cmd, &begin))) return false;
    if (transfer) {
      ownership_transfer(cmd, {keys_.buffer, values_.buffer}, queue_family_, compute_family_, false,
                         kCompute | kTransfer, kShaderRW | VK_ACCESS_TRANSFER_WRITE_BIT);
    }
  }

  VkalgoSortArgs args{};
  args.keys = {keys_.buffer, 0, u32s};
  args.values = {values_.buffer, 0, u32s};
  args.keys_alt = {keys_alt_.buffer, 0, req.keys_alt.size};
  args.values_alt = {values_alt_.buffer, 0, req.values_alt.size};
  args.scratch = {scratch_.buffer, 0, req.scratch.size};
  args.count = n;
  uint32_t in_alternate = 0;
  args.result_in_alternate = &in_alternate;  // which pair holds the sorted codes and indices
  if (!VKALGO_CHECK(vkalgo_sort_record(plan_, cmd, &args))) return false;
  const Buffer& sorted_keys = in_alternate ? keys_alt_ : keys_;
  const Buffer& sorted_values = in_alternate ? values_alt_ : values_;
  if (async_) {
    // Back to the main queue: the sorted codes and indices change family again (the other
    // pair's contents are not needed there; the next build's Morton pass overwrites them).
    if (transfer) {
      ownership_transfer(cmd, {sorted_keys.buffer, sorted_values.buffer}, compute_family_, queue_family_, true,
                         kCompute, VK_ACCESS_SHADER_WRITE_BIT);
    }
    if (!VK_CHECK(vkEndCommandBuffer(cmd))) return false;
    cmd = finish_cmd_;
    if (!VK_CHECK(vkBeginCommandBuffer(cmd, &begin))) return false;
    if (transfer) {
      ownership_transfer(cmd, {sorted_keys.buffer, sorted_values.buffer}, compute_family_, queue_family_, false,
                         kCompute, kShaderRW);
    }
  }
  // The sort's result is written by COMPUTE_SHADER: visible to the hierarchy's and refit's reads.
  barrier(cmd, kCompute, VK_ACCESS_SHADER_WRITE_BIT, kCompute, kShaderRW);
  if (timestamps_) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 2);

  label_begin(cmd, "lbvh: hierarchy");
  PushHierarchy ph{sorted_keys.address, nodes_.address, parents_.address, n};
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, hierarchy_);
  vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof ph, &ph);
  if (n > 1) vkCmdDispatch(cmd, groups_for(n - 1), 1, 1);
  label_end(cmd);
  barrier(cmd, kCompute, VK_ACCESS_SHADER_WRITE_BIT, kCompute, kShaderRW);
  if (timestamps_) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 3);

  label_begin(cmd, "lbvh: refit");
  // The counters start at 0 (the fill is part of the refit's time).
  vkCmdFillBuffer(cmd, flags_.buffer, 0, VK_WHOLE_SIZE, 0);
  barrier(cmd, kTransfer, VK_ACCESS_TRANSFER_WRITE_BIT, kCompute, kShaderRW);
  PushRefit pr{tris_.address, sorted_values.address, nodes_.address, parents_.address, flags_.address, n};
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, refit_);
  vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pr, &pr);
  vkCmdDispatch(cmd, groups_for(n), 1, 1);
  label_end(cmd);
  if (timestamps_) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 4);

  // Download the tree for the check (after the last timestamp: not part of the build).
  barrier(cmd, kCompute, VK_ACCESS_SHADER_WRITE_BIT, kTransfer, VK_ACCESS_TRANSFER_READ_BIT);
  VkBufferCopy down{0, 0, node_bytes};
  vkCmdCopyBuffer(cmd, nodes_.buffer, staging_.buffer, 1, &down);
  barrier(cmd, kTransfer, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  if (!VK_CHECK(vkEndCommandBuffer(cmd))) return false;

  // One warm-up build (not counted: first dispatches include driver work, such as lavapipe's
  // shader compiles or a GPU's clocks coming up), then the timed ones.
  if (!submit_build()) return false;
  std::vector<double> phase_ms[4], total_ms, wall_ms;
  for (uint32_t r = 0; r < o.repeat; r++) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!submit_build()) return false;
    wall_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (timestamps_) {
      uint64_t ticks[kStamps];
      if (!VK_CHECK(vkGetQueryPoolResults(device_, timestamps_, 0, kStamps, sizeof ticks, ticks, sizeof ticks[0],
                                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT))) {
        return false;
      }
      const uint64_t mask = timestamp_bits_ >= 64 ? UINT64_MAX : (uint64_t(1) << timestamp_bits_) - 1;
      const double period = double(props_.limits.timestampPeriod) * 1e-6;
      for (uint32_t p = 0; p < 4; p++) phase_ms[p].push_back(double((ticks[p + 1] - ticks[p]) & mask) * period);
      total_ms.push_back(double((ticks[4] - ticks[0]) & mask) * period);
    }
  }

  // The CPU check of the last build (host-coherent staging: no invalidate needed).
  std::vector<lbvh::Node> nodes(node_count);
  std::memcpy(nodes.data(), staging_.mapped, size_t(node_bytes));
  const std::string err = lbvh::check_tree(tris.data(), n, 0, nodes.data());
  if (!err.empty()) {
    if (std::getenv("LBVH_DEBUG")) {
      for (uint64_t i = 0; i < std::min<uint64_t>(node_count, 64); i++) {
        const lbvh::Node& d = nodes[i];
        std::fprintf(stderr, "node %llu: lo %g %g %g hi %g %g %g a %u b %u\n", (unsigned long long)i, d.lo[0], d.lo[1],
                     d.lo[2], d.hi[0], d.hi[1], d.hi[2], d.a, d.b);
      }
    }
    return fail("the tree is wrong: " + err);
  }
  std::printf("check: OK (%" PRIu64 " nodes reachable once from the root, %u leaves holding every triangle once, "
              "exact leaf boxes, inner boxes the exact union of their children)\n",
              node_count, n);

  // Phase times: best and median over the repeats.
  if (timestamps_) {
    for (uint32_t p = 0; p < 4; p++) {
      std::printf("phase %-9s best %9.3f ms  median %9.3f ms\n", kPhases[p],
                  *std::min_element(phase_ms[p].begin(), phase_ms[p].end()), median(phase_ms[p]));
    }
    const double best = *std::min_element(total_ms.begin(), total_ms.end()), med = median(total_ms);
    std::printf("phase %-9s best %9.3f ms  median %9.3f ms\n", "total", best, med);
    std::printf("build rate: %.1f M triangles/s (best), %.1f M triangles/s (median); %u build%s\n",
                best > 0 ? n / (best * 1e3) : 0.0, med > 0 ? n / (med * 1e3) : 0.0, o.repeat, o.repeat > 1 ? "s" : "");
    // One machine-readable line per phase (median), as bench/cuda/lbvh_cuda.cu prints.
    for (uint32_t p = 0; p < 4; p++) {
      std::printf("RESULT\tvkalgo\tlbvh\t%s\t%u\t%.4f\t%.4f\n", kPhases[p], n, median(phase_ms[p]),
                  *std::min_element(phase_ms[p].begin(), phase_ms[p].end()));
    }
    std::printf("RESULT\tvkalgo\tlbvh\ttotal\t%u\t%.4f\t%.4f\n", n, med, best);
  } else {
    std::printf("GPU time: no timestamps on this queue; submit to fence: best %.3f ms, median %.3f ms\n",
                *std::min_element(wall_ms.begin(), wall_ms.end()), median(wall_ms));
  }

  // The picture: one primary ray per pixel, framed from the scene's box.
  std::vector<uint32_t> picture;
  if (!o.image.empty()) {
    const lbvh::Node& root = nodes[0];
    const float c[3] = {0.5f * (root.lo[0] + root.hi[0]), 0.5f * (root.lo[1] + root.hi[1]),
                        0.5f * (root.lo[2] + root.hi[2])};
    float r2 = 0.0f;
    for (int a = 0; a < 3; a++) r2 += 0.25f * (root.hi[a] - root.lo[a]) * (root.hi[a] - root.lo[a]);
    const float radius = std::max(std::sqrt(r2), 1e-6f);  // the box's half diagonal
    // The camera looks at the box's centre from above and to the side, 50 degrees vertical
    // field, far enough back that the box's bounding sphere nearly fills the height.
    const lbvh::V3 view_dir = lbvh::normalize({-0.6f, -0.38f, -0.7f});
    const float fov_tan = 0.4663077f;  // tan(25 degrees)
    const float dist = radius / fov_tan * 0.9f;
    const lbvh::V3 eye = {c[0] - view_dir.x * dist, c[1] - view_dir.y * dist, c[2] - view_dir.z * dist};
    const lbvh::V3 right = lbvh::normalize(lbvh::cross(view_dir, {0.0f, 1.0f, 0.0f}));
    const lbvh::V3 up = lbvh::cross(right, view_dir);
    const float aspect = float(o.width) / float(o.height);
    const float half_h = fov_tan, half_w = fov_tan * aspect;
    const float px = 2.0f * half_w / float(o.width), py = 2.0f * half_h / float(o.height);
    PushTrace pt{};
    pt.tris = tris_.address;
    pt.nodes = nodes_.address;
    pt.image = image_.address;
    pt.failures = failures_.address;
    const float eye_v[3] = {eye.x, eye.y, eye.z};
    const float corner[3] = {view_dir.x - half_w * right.x + half_h * up.x, view_dir.y - half_w * right.y + half_h * up.y,
                             view_dir.z - half_w * right.z + half_h * up.z};
    const float rv[3] = {px * right.x, px * right.y, px * right.z};
    const float dv[3] = {-py * up.x, -py * up.y, -py * up.z};
    std::memcpy(pt.eye, eye_v, sizeof pt.eye);
    std::memcpy(pt.corner, corner, sizeof pt.corner);
    std::memcpy(pt.right, rv, sizeof pt.right);
    std::memcpy(pt.down, dv, sizeof pt.down);
    pt.width = o.width;
    pt.height = o.height;

    VkCommandBuffer tc = trace_cmd_;
    if (!VK_CHECK(vkBeginCommandBuffer(tc, &begin))) return false;
    // The build's writes (and the download's read of the nodes) before the trace.
    barrier(tc, kCompute | kTransfer, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, kCompute | kTransfer,
            kShaderRW | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    vkCmdFillBuffer(tc, failures_.buffer, 0, VK_WHOLE_SIZE, 0);
    barrier(tc, kTransfer, VK_ACCESS_TRANSFER_WRITE_BIT, kCompute, kShaderRW);
    label_begin(tc, "lbvh: trace");
    vkCmdBindPipeline(tc, VK_PIPELINE_BIND_POINT_COMPUTE, trace_);
    vkCmdPushConstants(tc, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pt, &pt);
    vkCmdDispatch(tc, uint32_t((pixels + 255) / 256), 1, 1);
    label_end(tc);
    barrier(tc, kCompute, VK_ACCESS_SHADER_WRITE_BIT, kTransfer, VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferCopy img{0, 0, pixels * 4};
    vkCmdCopyBuffer(tc, image_.buffer, staging_.buffer, 1, &img);
    VkBufferCopy cnt{0, pixels * 4, 4};
    vkCmdCopyBuffer(tc, failures_.buffer, staging_.buffer, 1, &cnt);
    barrier(tc, kTransfer, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    if (!VK_CHECK(vkEndCommandBuffer(tc))) return false;
    const auto t0 = std::chrono::steady_clock::now();
    if (!submit_and_wait(tc)) return false;
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    picture.resize(pixels);
    std::memcpy(picture.data(), staging_.mapped, size_t(pixels * 4));
    uint32_t failures = 0;
    std::memcpy(&failures, static_cast<const char*>(staging_.mapped) + pixels * 4, 4);
    std::printf("image: %u x %u, %.1f ms submit to fence, %u rays cut short\n", o.width, o.height, ms, failures);
    if (failures > 0) return fail(std::to_string(failures) + " rays overflowed the traversal stack or step bound");
  }

  if (g_validation_messages > 0) return fail(std::to_string(g_validation_messages) + " validation messages");

  // Files last, once everything is checked.
  if (!o.output.empty()) {
    std::vector<unsigned char> out(12 + size_t(node_bytes));
    const uint32_t header[3] = {lbvh::kMagic, n, 0};
    std::memcpy(out.data(), header, 12);  // x86 and ARM hosts are little-endian
    std::memcpy(out.data() + 12, nodes.data(), size_t(node_bytes));
    if (!write_file(o.output, out.data(), out.size())) return false;
    std::printf("output: %s (%zu bytes)\n", o.output.c_str(), out.size());
  }
  if (!o.image.empty()) {
    if (!write_png(o.image, picture.data(), o.width, o.height)) return false;
    std::printf("image: %s\n", o.image.c_str());
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse_options(argc, argv, o)) return 2;
  std::vector<float> tris;
  if (!o.input.empty()) {
    if (!load_triangles(o.input, tris)) return 2;
    std::printf("scene: %zu triangles from %s\n", tris.size() / 9, o.input.c_str());
  } else {
    tris = lbvh::generate_scene(o.triangles, o.seed);
    std::printf("scene: %u random triangles, seed %" PRIu64 ", checksum %016" PRIx64 "\n", o.triangles, o.seed,
                lbvh::checksum(tris));
  }
  if (const char* dump = std::getenv("LBVH_WRITE_TRIANGLES")) {
    if (*dump && !write_file(dump, tris.data(), tris.size() * sizeof(float))) return 1;
  }
  bool ok;
  {
    App app(o.async_compute);
    ok = app.run(o, tris);
  }
  if (ok && g_validation_messages > 0) {
    std::fprintf(stderr, "lbvh: error: %u validation messages during cleanup\n", g_validation_messages);
    ok = false;
  }
  std::printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
