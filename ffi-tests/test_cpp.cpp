// C++17 tests of vkalgo's C ABI, linked against the static library (libvkalgo.a). A shorter
// port of test_c.c: host calls on the default context, the record layer on a VkDevice created
// here (both scan paths, non-zero offsets, indirect count, in place), exact comparison with a
// CPU scan, and argument errors. The own instance runs the Khronos validation layer when it is
// installed (unless VKALGO_TEST_NO_VALIDATION=1); any validation warning or error fails.
#include <vkalgo.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

unsigned g_checks = 0;
unsigned g_failures = 0;
unsigned g_validation_messages = 0;

bool check(bool ok, const std::string &what) {
    ++g_checks;
    if (!ok) {
        ++g_failures;
    }
    std::printf("  %s  %s\n", ok ? "ok  " : "FAIL", what.c_str());
    std::fflush(stdout);
    return ok;
}

std::string name_of(VkalgoResult r) {
    const char *s = vkalgo_result_string(r);
    return s ? s : "(NULL)";
}

// Checks a result; an error result must come with a non-empty message, a success with "".
bool expect(VkalgoResult got, VkalgoResult want, const std::string &what) {
    const char *raw = vkalgo_last_error_message();
    std::string msg = raw ? raw : "(NULL)";
    if (got != want) {
        return check(false, what + " -> " + name_of(got) + ", want " + name_of(want) + " (message: \"" + msg + "\")");
    }
    if (want == VKALGO_SUCCESS) {
        return check(raw && msg.empty(), what + " -> " + name_of(got));
    }
    return check(raw && !msg.empty(), what + " -> " + name_of(got) + " (message: \"" + msg + "\")");
}

// SplitMix64.
struct Rng {
    uint64_t state;
    uint32_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return static_cast<uint32_t>((z ^ (z >> 31)) >> 32);
    }
    void fill(uint32_t *p, size_t n) {
        for (size_t i = 0; i < n; ++i) {
            p[i] = next();
        }
    }
};
Rng g_rng{0xC0DEC0DE2024ull};

void cpu_scan(const uint32_t *in, uint32_t *out, size_t n, bool inclusive) {
    uint32_t sum = 0;
    for (size_t i = 0; i < n; ++i) {
        uint32_t x = in[i];
        out[i] = inclusive ? sum + x : sum;
        sum += x;
    }
}

bool check_equal(const uint32_t *got, const uint32_t *want, size_t n, const std::string &what) {
    auto mismatch = std::mismatch(got, got + n, want);
    if (mismatch.first == got + n) {
        return check(true, what);
    }
    char detail[128];
    std::snprintf(detail, sizeof detail, ": first difference at word %zu: got 0x%08" PRIx32 ", want 0x%08" PRIx32,
                  static_cast<size_t>(mismatch.first - got), *mismatch.first, *mismatch.second);
    return check(false, what + detail);
}

// --- host calls -----------------------------------------------------------------------------

void test_host() {
    std::printf("== static and host calls (default context)\n");
    check(vkalgo_version() == ((VKALGO_VERSION_MAJOR << 22) | (VKALGO_VERSION_MINOR << 12) | VKALGO_VERSION_PATCH),
          "vkalgo_version() matches the header");
    for (int code = -9; code <= 0; ++code) {
        const char *s = vkalgo_result_string(static_cast<VkalgoResult>(code));
        check(s && *s, "vkalgo_result_string(" + std::to_string(code) + ") = " + (s ? s : "(NULL)"));
    }
    for (int32_t code : {1, 100, -10, INT32_MIN}) {
        const char *s = vkalgo_result_string(code);
        check(s && std::string(s) == "VKALGO_RESULT_UNKNOWN", "vkalgo_result_string(" + std::to_string(code) + ")");
    }
    vkalgo_context_destroy(nullptr);
    vkalgo_scan_plan_destroy(nullptr);
    check(true, "vkalgo_context_destroy(NULL), vkalgo_scan_plan_destroy(NULL)");

    VkalgoContext *ctx = nullptr;
    if (!expect(vkalgo_context_create_default(&ctx), VKALGO_SUCCESS, "vkalgo_context_create_default") || !ctx) {
        return;
    }
    const char *device = vkalgo_context_device_name(ctx);
    check(device && *device, std::string("device name \"") + (device ? device : "") + "\"");

    struct Op {
        VkalgoScanOp op;
        bool inclusive;
        const char *name;
        // vkalgo_scan_host with a desc of this op (zero-initialized: path AUTO).
        VkalgoResult scan(VkalgoContext *c, const uint32_t *in, uint32_t *out, size_t n) const {
            VkalgoScanDesc desc{};
            desc.op = op;
            return vkalgo_scan_host(c, &desc, in, out, n);
        }
    };
    const Op ops[] = {{VKALGO_SCAN_EXCLUSIVE, false, "scan_host exclusive"},
                      {VKALGO_SCAN_INCLUSIVE, true, "scan_host inclusive"}};
    for (size_t n : {size_t{0}, size_t{1}, size_t{4095}, size_t{4096}, size_t{4097}, size_t{100003}, size_t{1} << 20}) {
        for (const Op &op : ops) {
            std::vector<uint32_t> in(n), out(n + 1, 0xDEADBEEFu), want(n + 1);
            g_rng.fill(in.data(), n);
            cpu_scan(in.data(), want.data(), n, op.inclusive);
            want[n] = out[n];
            std::string what = std::string(op.name) + " n=" + std::to_string(n);
            if (expect(op.scan(ctx, in.data(), out.data(), n), VKALGO_SUCCESS, what)) {
                check_equal(out.data(), want.data(), n + 1, what);
            }
        }
    }
    for (const Op &op : ops) {
        const size_t n = 65537;
        std::vector<uint32_t> data(n), want(n);
        g_rng.fill(data.data(), n);
        cpu_scan(data.data(), want.data(), n, op.inclusive);
        std::string what = std::string(op.name) + " in place n=65537";
        if (expect(op.scan(ctx, data.data(), data.data(), n), VKALGO_SUCCESS, what)) {
            check_equal(data.data(), want.data(), n, what);
        }
    }

    std::vector<uint32_t> in(777), out(777, 0x12345678u);
    const std::vector<uint32_t> before = out;
    g_rng.fill(in.data(), in.size());
    for (const Op &op : ops) {
        std::string name = op.name;
        expect(op.scan(nullptr, in.data(), out.data(), in.size()), VKALGO_ERROR_INVALID_ARGUMENT, name + "(NULL ctx)");
        expect(op.scan(ctx, nullptr, out.data(), in.size()), VKALGO_ERROR_INVALID_ARGUMENT, name + "(NULL input)");
        expect(op.scan(ctx, in.data(), nullptr, in.size()), VKALGO_ERROR_INVALID_ARGUMENT, name + "(NULL output)");
        check_equal(out.data(), before.data(), out.size(), "  output untouched");
    }
    {
        // The desc itself: NULL, or with a `next` (no extension structure is defined yet).
        static int extension;
        VkalgoScanDesc desc{};
        desc.next = &extension;
        expect(vkalgo_scan_host(ctx, &desc, in.data(), out.data(), in.size()), VKALGO_ERROR_INVALID_ARGUMENT,
               "scan_host(desc next != NULL)");
        expect(vkalgo_scan_host(ctx, nullptr, in.data(), out.data(), in.size()), VKALGO_ERROR_INVALID_ARGUMENT,
               "scan_host(NULL desc)");
        check_equal(out.data(), before.data(), out.size(), "  output untouched");
    }
    uint64_t messages = vkalgo_context_validation_message_count(ctx);
    check(messages == 0, "validation messages of the default context: " + std::to_string(messages));
    vkalgo_context_destroy(ctx);
}

// --- record layer on an own device ----------------------------------------------------------

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT types,
                                          const VkDebugUtilsMessengerCallbackDataEXT *data, void *) {
    const char *text = data && data->pMessage ? data->pMessage : "(no message)";
    if ((types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) &&
        (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT))) {
        ++g_validation_messages;
        ++g_failures;
        std::printf("  FAIL  validation: %s\n", text);
    } else {
        std::printf("  info  vulkan: %s\n", text);
    }
    return VK_FALSE;
}

constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                      VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    uint32_t *words = nullptr;
};

class Device {
  public:
    bool ok = false;
    bool int64_atomics = false;
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;

    Device() { ok = create(); }
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;
    ~Device() {
        if (device) {
            vkDeviceWaitIdle(device);
            if (fence) vkDestroyFence(device, fence, nullptr);
            if (pool) vkDestroyCommandPool(device, pool, nullptr);
            vkDestroyDevice(device, nullptr);
        }
        if (messenger_) destroy_messenger_(instance, messenger_, nullptr);
        if (instance) vkDestroyInstance(instance, nullptr);
    }

    bool make_buffer(VkDeviceSize size, Buffer &b) {
        VkBufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = size;
        info.usage = kUsage;
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        if (vkCreateBuffer(device, &info, nullptr, &b.buffer) != VK_SUCCESS) return false;
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device, b.buffer, &req);
        const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        uint32_t type = UINT32_MAX;
        for (uint32_t i = 0; i < memory_.memoryTypeCount && type == UINT32_MAX; ++i) {
            if ((req.memoryTypeBits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) type = i;
        }
        if (type == UINT32_MAX) return false;
        VkMemoryAllocateFlagsInfo flags{};
        flags.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO;
        flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
        VkMemoryAllocateInfo alloc{};
        alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
        alloc.pNext = &flags;
        alloc.allocationSize = req.size;
        alloc.memoryTypeIndex = type;
        void *map = nullptr;
        if (vkAllocateMemory(device, &alloc, nullptr, &b.memory) != VK_SUCCESS ||
            vkBindBufferMemory(device, b.buffer, b.memory, 0) != VK_SUCCESS ||
            vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &map) != VK_SUCCESS) {
            return false;
        }
        b.size = size;
        b.words = static_cast<uint32_t *>(map);
        return true;
    }

    void free_buffer(Buffer &b) {
        if (b.memory) vkFreeMemory(device, b.memory, nullptr);
        if (b.buffer) vkDestroyBuffer(device, b.buffer, nullptr);
        b = Buffer{};
    }

    bool begin() {
        VkCommandBufferBeginInfo info{};
        info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        return vkBeginCommandBuffer(cmd, &info) == VK_SUCCESS;
    }

    void barrier(VkPipelineStageFlags src_stage, VkAccessFlags src, VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
        VkMemoryBarrier b{};
        b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
        b.srcAccessMask = src;
        b.dstAccessMask = dst;
        vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, nullptr, 0, nullptr);
    }

    // Host writes and earlier submissions -> vkalgo's compute and transfer commands.
    void barrier_before() {
        barrier(VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    }
    // The scan's output -> host reads.
    void barrier_after() {
        barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
    }

    // End, submit, wait at most 60 s (a timeout is a failure and ends the test).
    bool submit_wait(const std::string &what) {
        if (vkEndCommandBuffer(cmd) != VK_SUCCESS) return check(false, what + ": vkEndCommandBuffer");
        VkSubmitInfo submit{};
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        if (vkQueueSubmit(queue, 1, &submit, fence) != VK_SUCCESS) return check(false, what + ": vkQueueSubmit");
        VkResult r = vkWaitForFences(device, 1, &fence, VK_TRUE, 60ull * 1000 * 1000 * 1000);
        if (r == VK_TIMEOUT) {
            check(false, what + ": fence wait timed out after 60 s");
            std::exit(1);
        }
        if (r != VK_SUCCESS) return check(false, what + ": vkWaitForFences");
        vkResetFences(device, 1, &fence);
        return true;
    }

  private:
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger_ = nullptr;
    VkPhysicalDeviceMemoryProperties memory_{};

    static bool has_layer(const char *name) {
        uint32_t n = 0;
        vkEnumerateInstanceLayerProperties(&n, nullptr);
        std::vector<VkLayerProperties> layers(n);
        vkEnumerateInstanceLayerProperties(&n, layers.data());
        return std::any_of(layers.begin(), layers.end(),
                           [&](const VkLayerProperties &l) { return std::strcmp(l.layerName, name) == 0; });
    }

    bool create() {
        const char *layer = "VK_LAYER_KHRONOS_validation";
        const char *skip = std::getenv("VKALGO_TEST_NO_VALIDATION");
        const bool validation = !(skip && std::strcmp(skip, "1") == 0) && has_layer(layer);
        std::printf("  info  own instance: validation layer %s\n", validation ? "on" : "off");
        const char *extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        VkApplicationInfo app{};
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
        app.pApplicationName = "vkalgo test_cpp";
        app.apiVersion = VK_API_VERSION_1_3;
        VkDebugUtilsMessengerCreateInfoEXT messenger_info{};
        messenger_info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
        messenger_info.messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
        messenger_info.pfnUserCallback = on_message;
        VkInstanceCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
        info.pNext = validation ? &messenger_info : nullptr;
        info.pApplicationInfo = &app;
        info.enabledLayerCount = validation ? 1 : 0;
        info.ppEnabledLayerNames = &layer;
        info.enabledExtensionCount = validation ? 1 : 0;
        info.ppEnabledExtensionNames = &extension;
        if (!check(vkCreateInstance(&info, nullptr, &instance) == VK_SUCCESS, "vkCreateInstance (apiVersion 1.3)")) {
            return false;
        }
        if (validation) {
            auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
            destroy_messenger_ = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
            if (!create || !destroy_messenger_ || create(instance, &messenger_info, nullptr, &messenger_) != VK_SUCCESS) {
                return check(false, "vkCreateDebugUtilsMessengerEXT");
            }
        }
        uint32_t count = 0;
        vkEnumeratePhysicalDevices(instance, &count, nullptr);
        std::vector<VkPhysicalDevice> devices(count);
        vkEnumeratePhysicalDevices(instance, &count, devices.data());
        VkPhysicalDeviceProperties props{};
        for (VkPhysicalDevice pd : devices) {
            vkGetPhysicalDeviceProperties(pd, &props);
            if (props.apiVersion < VK_API_VERSION_1_2) continue;
            uint32_t nf = 0;
            vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, nullptr);
            std::vector<VkQueueFamilyProperties> families(nf);
            vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, families.data());
            for (uint32_t f = 0; f < nf && !physical; ++f) {
                if (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                    physical = pd;
                    family = f;
                }
            }
            if (physical) break;
        }
        if (!check(physical != VK_NULL_HANDLE, "a Vulkan 1.2+ device with a compute queue")) return false;
        vkGetPhysicalDeviceProperties(physical, &props);
        vkGetPhysicalDeviceMemoryProperties(physical, &memory_);
        const bool core13 = props.apiVersion >= VK_API_VERSION_1_3;

        VkPhysicalDeviceVulkan13Features q13{};
        q13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
        VkPhysicalDeviceVulkan12Features q12{};
        q12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
        q12.pNext = core13 ? &q13 : nullptr;
        VkPhysicalDeviceFeatures2 q{};
        q.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
        q.pNext = &q12;
        vkGetPhysicalDeviceFeatures2(physical, &q);
        if (!check(q12.bufferDeviceAddress && q.features.shaderInt64, std::string("device ") + props.deviceName +
                                                                         " has bufferDeviceAddress and shaderInt64")) {
            return false;
        }
        int64_atomics = q12.shaderBufferInt64Atomics == VK_TRUE;
        const bool full_subgroups = core13 && q13.subgroupSizeControl && q13.computeFullSubgroups;

        VkPhysicalDeviceVulkan13Features e13{};
        e13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
        e13.subgroupSizeControl = full_subgroups ? VK_TRUE : VK_FALSE;
        e13.computeFullSubgroups = full_subgroups ? VK_TRUE : VK_FALSE;
        VkPhysicalDeviceVulkan12Features e12{};
        e12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
        e12.pNext = full_subgroups ? &e13 : nullptr;
        e12.bufferDeviceAddress = VK_TRUE;
        e12.shaderBufferInt64Atomics = int64_atomics ? VK_TRUE : VK_FALSE;
        VkPhysicalDeviceFeatures2 enabled{};
        enabled.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
        enabled.pNext = &e12;
        enabled.features.shaderInt64 = VK_TRUE;
        const float priority = 1.0f;
        VkDeviceQueueCreateInfo queue_info{};
        queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
        queue_info.queueFamilyIndex = family;
        queue_info.queueCount = 1;
        queue_info.pQueuePriorities = &priority;
        VkDeviceCreateInfo device_info{};
        device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
        device_info.pNext = &enabled;
        device_info.queueCreateInfoCount = 1;
        device_info.pQueueCreateInfos = &queue_info;
        if (!check(vkCreateDevice(physical, &device_info, nullptr, &device) == VK_SUCCESS, "vkCreateDevice")) return false;
        vkGetDeviceQueue(device, family, 0, &queue);
        VkCommandPoolCreateInfo pool_info{};
        pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
        pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        pool_info.queueFamilyIndex = family;
        VkCommandBufferAllocateInfo cmd_info{};
        cmd_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        cmd_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cmd_info.commandBufferCount = 1;
        VkFenceCreateInfo fence_info{};
        fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
        if (vkCreateCommandPool(device, &pool_info, nullptr, &pool) != VK_SUCCESS) return false;
        cmd_info.commandPool = pool;
        return vkAllocateCommandBuffers(device, &cmd_info, &cmd) == VK_SUCCESS &&
               vkCreateFence(device, &fence_info, nullptr, &fence) == VK_SUCCESS;
    }
};

VkalgoBufferRange range(const Buffer &b, VkDeviceSize offset, VkDeviceSize size) { return {b.buffer, offset, size}; }

void sentinel(Buffer &b, uint32_t salt) {
    for (size_t i = 0; i < b.size / 4; ++i) b.words[i] = salt ^ static_cast<uint32_t>(i * 2654435761u);
}

constexpr uint64_t kMaxN = 1 << 20;

struct Fixture {
    Device &dev;
    VkalgoContext *ctx;
    Buffer in, out, scratch, count;
    std::vector<uint32_t> want_in, want_out;
};

struct Plan {
    VkalgoScanPlan *plan = nullptr;
    VkalgoScanOp op = VKALGO_SCAN_EXCLUSIVE;
    uint64_t max_count = 0;
    VkalgoMemoryRequirements req{};
    std::string name;
};

enum class Mode { Direct, Indirect, InPlace };

void scan_case(Fixture &f, const Plan &p, Mode mode, uint64_t n, VkDeviceSize in_off, VkDeviceSize out_off,
               uint32_t count_value = 0) {
    const uint64_t elems = mode == Mode::Indirect ? p.max_count : n;
    const uint64_t scanned = mode == Mode::Indirect ? std::min<uint64_t>(count_value, p.max_count) : n;
    std::string what = p.name + (mode == Mode::Indirect ? " indirect count " + std::to_string(count_value)
                                                        : " n=" + std::to_string(n)) +
                       (mode == Mode::InPlace ? " in place at " + std::to_string(out_off)
                                              : " in@" + std::to_string(in_off) + " out@" + std::to_string(out_off));
    sentinel(f.in, 0x11110000u);
    sentinel(f.out, 0x22220000u);
    sentinel(f.scratch, 0x33330000u);
    Buffer &src = mode == Mode::InPlace ? f.out : f.in;
    const VkDeviceSize src_off = mode == Mode::InPlace ? out_off : in_off;
    g_rng.fill(src.words + src_off / 4, elems);
    std::memcpy(f.want_in.data(), f.in.words, f.in.size);
    std::memcpy(f.want_out.data(), f.out.words, f.out.size);
    cpu_scan(src.words + src_off / 4, f.want_out.data() + out_off / 4, scanned, p.op == VKALGO_SCAN_INCLUSIVE);
    f.count.words[2] = count_value;

    VkalgoScanArgs args{};
    args.input = range(src, src_off, elems * 4);
    args.output = range(f.out, out_off, elems * 4);
    args.scratch = range(f.scratch, 512, p.req.scratch.size);
    args.count = n;
    if (mode == Mode::Indirect) args.count_buffer = range(f.count, 8, 4);
    if (!f.dev.begin()) {
        check(false, what + ": vkBeginCommandBuffer");
        return;
    }
    f.dev.barrier_before();
    VkalgoResult r = vkalgo_scan_record(p.plan, f.dev.cmd, &args);
    f.dev.barrier_after();
    if (!f.dev.submit_wait(what) || !expect(r, VKALGO_SUCCESS, what)) return;
    check_equal(f.out.words, f.want_out.data(), f.out.size / 4, "  output buffer (scanned range, untouched rest)");
    if (mode != Mode::InPlace) check_equal(f.in.words, f.want_in.data(), f.in.size / 4, "  input buffer unchanged");
}

void bad_input(Fixture &f, const Plan &p) {
    std::printf("-- record-layer argument errors (%s)\n", p.name.c_str());
    const uint64_t n = 5000;
    sentinel(f.out, 0x44440000u);
    std::memcpy(f.want_out.data(), f.out.words, f.out.size);
    VkalgoScanArgs good{};
    good.input = range(f.in, 64, n * 4);
    good.output = range(f.out, 4, n * 4);
    good.scratch = range(f.scratch, 512, p.req.scratch.size);
    good.count = n;
    struct Case {
        const char *name;
        void (*mutate)(VkalgoScanArgs &, const Fixture &, const Plan &);
    };
    const Case cases[] = {
        {"input offset 2", [](VkalgoScanArgs &a, const Fixture &, const Plan &) { a.input.offset = 2; }},
        {"output offset 6", [](VkalgoScanArgs &a, const Fixture &, const Plan &) { a.output.offset = 6; }},
        {"count = max_count + 1", [](VkalgoScanArgs &a, const Fixture &, const Plan &q) { a.count = q.max_count + 1; }},
        {"output overlapping the input partially",
         [](VkalgoScanArgs &a, const Fixture &fx, const Plan &) { a.output = range(fx.in, 64 + 8, a.input.size); }},
        {"input range too small", [](VkalgoScanArgs &a, const Fixture &, const Plan &) { a.input.size -= 4; }},
        {"scratch too small", [](VkalgoScanArgs &a, const Fixture &, const Plan &) { a.scratch.size -= 4; }},
        {"scratch VK_NULL_HANDLE", [](VkalgoScanArgs &a, const Fixture &, const Plan &) { a.scratch.buffer = VK_NULL_HANDLE; }},
        {"count buffer offset 2",
         [](VkalgoScanArgs &a, const Fixture &fx, const Plan &) { a.count_buffer = range(fx.count, 2, 4); }},
        // Record calls take no context (the plan's is used); the args' `next` must be NULL.
        {"args next != NULL",
         [](VkalgoScanArgs &a, const Fixture &, const Plan &) {
             static int extension;
             a.next = &extension;
         }},
    };
    if (!f.dev.begin()) return;
    f.dev.barrier_before();
    for (const Case &c : cases) {
        VkalgoScanArgs a = good;
        c.mutate(a, f, p);
        expect(vkalgo_scan_record(p.plan, f.dev.cmd, &a), VKALGO_ERROR_INVALID_ARGUMENT, std::string("  ") + c.name);
    }
    expect(vkalgo_scan_record(nullptr, f.dev.cmd, &good), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL plan");
    expect(vkalgo_scan_record(p.plan, VK_NULL_HANDLE, &good), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL command buffer");
    expect(vkalgo_scan_record(p.plan, f.dev.cmd, nullptr), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL args");
    {
        // The plan's requirements into a struct with a `next`: refused, nothing written.
        static int extension;
        VkalgoMemoryRequirements req{};
        req.next = &extension;
        expect(vkalgo_scan_plan_memory_requirements(p.plan, &req), VKALGO_ERROR_INVALID_ARGUMENT,
               "  memory requirements into a struct with next != NULL");
        check(req.next == &extension && req.scratch.size == 0 && req.scratch.alignment == 0, "  nothing written");
    }
    VkalgoScanDesc desc{};
    desc.op = static_cast<VkalgoScanOp>(3);
    desc.path = VKALGO_SCAN_PATH_AUTO;
    desc.max_count = 100;
    VkalgoScanPlan *plan = nullptr;
    expect(vkalgo_scan_plan_create(f.ctx, &desc, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  unknown op 3 in VkalgoScanDesc");
    check(plan == nullptr, "  no plan returned");
    f.dev.barrier_after();
    if (f.dev.submit_wait("refused calls")) {
        check(true, "  the command buffer with only refused calls ended and ran");
        check_equal(f.out.words, f.want_out.data(), f.out.size / 4, "  output untouched");
    }
}

void test_record() {
    std::printf("== record layer on the test's own VkDevice\n");
    Device dev;
    if (!dev.ok) {
        check(false, "Vulkan setup");
        return;
    }
    VkalgoExternalContextDesc desc{};
    desc.instance = dev.instance;
    desc.physical_device = dev.physical;
    desc.device = dev.device;
    desc.queue_family_index = dev.family;
    desc.queue = dev.queue;
    desc.get_instance_proc_addr = vkGetInstanceProcAddr;
    // Declare the optional features the device was created with (full subgroups are left
    // undeclared: vkalgo then never requires them).
    desc.flags = dev.int64_atomics ? VKALGO_CONTEXT_INT64_ATOMICS_ENABLED : 0u;
    Fixture f{dev, nullptr, {}, {}, {}, {}, {}, {}};
    if (!expect(vkalgo_context_create_external(&desc, &f.ctx), VKALGO_SUCCESS, "vkalgo_context_create_external")) return;
    const VkDeviceSize bytes = (kMaxN + 1024) * 4;
    if (!check(dev.make_buffer(bytes, f.in) && dev.make_buffer(bytes, f.out) &&
                   dev.make_buffer(kMaxN * 8 + 4096, f.scratch) && dev.make_buffer(64, f.count),
               "host-visible buffers with device addresses")) {
        vkalgo_context_destroy(f.ctx);
        return;
    }
    f.want_in.resize(bytes / 4);
    f.want_out.resize(bytes / 4);

    std::vector<Plan> plans;
    for (VkalgoScanPath path : {VKALGO_SCAN_PATH_REDUCE_THEN_SCAN, VKALGO_SCAN_PATH_LOOKBACK}) {
        for (VkalgoScanOp op : {VKALGO_SCAN_EXCLUSIVE, VKALGO_SCAN_INCLUSIVE}) {
            Plan p;
            p.op = op;
            p.max_count = kMaxN;
            p.name = std::string(path == VKALGO_SCAN_PATH_LOOKBACK ? "look-back" : "reduce-then-scan") +
                     (op == VKALGO_SCAN_INCLUSIVE ? " inclusive" : " exclusive");
            VkalgoScanDesc d{};
            d.op = op;
            d.path = path;
            d.max_count = kMaxN;
            VkalgoResult r = vkalgo_scan_plan_create(f.ctx, &d, &p.plan);
            if (path == VKALGO_SCAN_PATH_LOOKBACK && r == VKALGO_ERROR_UNSUPPORTED && !dev.int64_atomics) {
                std::printf("  skip  %s: no shaderBufferInt64Atomics\n", p.name.c_str());
                continue;
            }
            if (!expect(r, VKALGO_SUCCESS, "plan " + p.name)) continue;
            expect(vkalgo_scan_plan_memory_requirements(p.plan, &p.req), VKALGO_SUCCESS, "  memory requirements");
            check(p.req.scratch.size <= kMaxN * 8 + 4096 - 512 && 512 % p.req.scratch.alignment == 0,
                  "  scratch " + std::to_string(p.req.scratch.size) + " bytes at offset 512 (alignment " +
                      std::to_string(p.req.scratch.alignment) + ")");
            plans.push_back(p);
        }
    }
    for (const Plan &p : plans) {
        const uint64_t tile = vkalgo_scan_plan_tile_size(p.plan);
        std::printf("-- %s (tile %" PRIu64 ")\n", p.name.c_str(), tile);
        for (uint64_t n : {uint64_t{1}, uint64_t{7}, tile - 1, tile, tile + 1, uint64_t{100003}, kMaxN}) {
            scan_case(f, p, Mode::Direct, n, 64, 4);
        }
        scan_case(f, p, Mode::Direct, 100003, 64, 16);
        scan_case(f, p, Mode::InPlace, 100003, 0, 4);
        scan_case(f, p, Mode::Indirect, 0, 64, 4, 77777);
        scan_case(f, p, Mode::Indirect, 0, 64, 16, static_cast<uint32_t>(kMaxN + 5));
    }
    if (!plans.empty()) {
        bad_input(f, plans.front());
        bad_input(f, plans.back());
    }
    for (Plan &p : plans) vkalgo_scan_plan_destroy(p.plan);
    vkalgo_context_destroy(f.ctx);  // before the device
    dev.free_buffer(f.in);
    dev.free_buffer(f.out);
    dev.free_buffer(f.scratch);
    dev.free_buffer(f.count);
}

}  // namespace

int main() {
    const auto t0 = std::chrono::steady_clock::now();
    test_host();
    test_record();
    check(g_validation_messages == 0,
          "validation messages on the test's own instance: " + std::to_string(g_validation_messages));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("== %u checks, %u failures, %.1f s\n", g_checks, g_failures, s);
    return g_failures == 0 ? 0 : 1;
}
