package dev.tally;

import dev.tally.config.Config;
import dev.tally.exposure.ExposureSettings;
import dev.tally.graph.AsyncLane;
import dev.tally.graph.PassStats;
import dev.tally.shader.BindingType;
import dev.tally.shader.ComputeKernel;
import dev.tally.vk.Device;
import dev.tally.internal.engine.Engine;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.Tonemapper;
import dev.tally.hud.ExposurePlot;
import dev.tally.hud.HudOverlay;
import dev.tally.readback.ReadbackRing;
import dev.tally.reduce.NormalizeNode;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.StatsNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;
import dev.tally.vk.HostFeatures;
import dev.tally.vk.MemoryKind;
import dev.tally.vk.Requirements;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkQueue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;

/**
 * Tally's one entry point. {@link #open} creates its own Vulkan device; {@link #wrap} runs on a
 * renderer's instance, device, queue and VMA allocator. Nodes, readback rings and the buffers and images
 * Tally tracks are made here.
 * <p>
 * Each frame: {@link #beginFrame()} gives a {@link Frame} (its number, its graph, the readback
 * deliveries that are due); passes are declared on {@link Frame#graph()}; {@link Frame#record}
 * records them into the caller's command buffer; {@link Frame#signal(org.lwjgl.vulkan.VkSubmitInfo2,
 * org.lwjgl.system.MemoryStack)} adds Tally's timeline signal to the caller's own {@code VkSubmitInfo2}
 * (or {@link Frame#submit(org.lwjgl.vulkan.VkCommandBuffer)} lets Tally submit). The frame's number is the
 * only frame counter: rings, histories and timings follow it. Frame numbers and timeline values only
 * grow; an abandoned frame's are never reused.
 * <p>
 * Threads: frames are begun, recorded and submitted from one thread at a time, the thread that began
 * the frame. Another thread may begin the next frame once the previous one is submitted or abandoned.
 * A frame operation from another thread than the frame's, or a {@link #beginFrame()} while another
 * thread's frame is open, throws IllegalStateException saying so.
 */
public interface Tally extends AutoCloseable {
    /**
     * A renderer's Vulkan objects for {@link #wrap}. The device must be Vulkan 1.3 and have enabled what
     * {@link #requirements()} lists for the parts the renderer uses; the queue must support graphics and compute.
     *
     * @param instance       the renderer's instance
     * @param physicalDevice the physical device of {@code device}
     * @param device         the renderer's device
     * @param queue          the queue Tally submits to (its own submits and one-time work)
     * @param queueFamily    the family of {@code queue}
     * @param vmaAllocator   the renderer's VMA allocator, or 0: Tally then makes its own on the device (and destroys it at close)
     * @param queueLock      the lock the renderer holds around its own submits and presents on {@code queue}
     *                       when other threads use it; Tally takes it around each of its own. Null if the
     *                       queue is used from one thread only.
     * @param debugUtils     the instance enabled VK_EXT_debug_utils (Tally then labels passes and objects)
     * @param enabled        what the device was created with ({@link HostFeatures#of(org.lwjgl.vulkan.VkDeviceCreateInfo)}):
     *                       Vulkan cannot be asked, and {@link #wrap} refuses a device that lacks what Tally needs
     */
    record Host(VkInstance instance, VkPhysicalDevice physicalDevice, VkDevice device, VkQueue queue, int queueFamily,
                long vmaAllocator, Lock queueLock, boolean debugUtils, HostFeatures enabled) {
    }

    /**
     * {@return what a host enables for Tally: the Vulkan version, the features per part (and the struct of
     * each), the extensions}
     */
    static Requirements requirements() {
        return Requirements.get();
    }

    /**
     * Tally on a device of its own, headless.
     *
     * @param config the settings (see {@link Config#load})
     * @return the running Tally; close it last
     */
    static Tally open(Config config) {
        return Engine.open(config, List.of());
    }

    /**
     * Tally on a device of its own that can present to a window.
     *
     * @param config            the settings
     * @param surfaceExtensions the instance extensions the window system needs (GLFW's
     *                          {@code glfwGetRequiredInstanceExtensions}); non-empty enables presentation
     * @return the running Tally; close it last
     */
    static Tally open(Config config, List<String> surfaceExtensions) {
        return Engine.open(config, surfaceExtensions);
    }

    /**
     * Tally on a renderer's own Vulkan objects, which it never destroys. Validation messages go to the
     * renderer's messenger. Frames in flight and the other settings come from {@code config}.
     *
     * @param config the settings
     * @param host   the renderer's objects
     * @return the running Tally; close it before the device
     * @throws IllegalArgumentException naming what the device lacks, when it lacks a feature Tally needs
     */
    static Tally wrap(Config config, Host host) {
        return Engine.wrap(config, host);
    }

    /**
     * Begins the next frame: retires what the GPU is done with, delivers readback samples that are due
     * and returns the frame with its graph. Never waits for the GPU. The previous frame must have been
     * handed to a submission or abandoned, and frame {@code n - frames.inFlight - 1} must have finished on
     * the GPU (abandoned frames not counted; checked by a poll; a host that runs further ahead is told so in
     * one line). The calling thread owns the frame until then.
     *
     * @return the frame
     */
    Frame beginFrame();

    /**
     * {@return an auto-exposure with the configured settings}
     *
     * @param scope names its passes and resources ({@code scope/histogram}, ...)
     */
    AutoExposure autoExposure(String scope);

    /**
     * {@return an auto-exposure}
     *
     * @param scope    names its passes and resources
     * @param settings its settings
     */
    AutoExposure autoExposure(String scope, ExposureSettings settings);

    /**
     * {@return a reduction node whose result stays on the GPU}
     *
     * @param name     labels its passes (e.g. "hud/count")
     * @param op       the operator
     * @param maxCount the most floats one use reduces
     */
    ReduceNode reduceNode(String name, ReduceOp op, long maxCount);

    /**
     * {@return a statistics node (count, sum, min, max, mean and variance in one read) whose record stays on the GPU}
     *
     * @param name     labels its passes (e.g. "hud/stats")
     * @param maxCount the most floats one use reads
     */
    StatsNode statsNode(String name, long maxCount);

    /** {@return a node that divides a buffer by a total that stays on the GPU} */
    NormalizeNode normalizeNode();

    /**
     * {@return a readback ring of {@code readback.slots} slots, in the configured {@code readback.mode}}
     *
     * @param name          labels its passes and buffers
     * @param capacityBytes the most bytes one frame captures, a positive multiple of 4
     */
    ReadbackRing readback(String name, long capacityBytes);

    /**
     * {@return a readback ring of {@code readback.slots} slots; samples older than {@code readback.maxAgeFrames}
     * (0: the slot count) are flagged stale}
     *
     * @param name          labels its passes and buffers
     * @param capacityBytes the most bytes one frame captures, a positive multiple of 4
     * @param mode          how samples are delivered
     */
    ReadbackRing readback(String name, long capacityBytes, ReadbackRing.Mode mode);

    /**
     * {@return the tonemap pass (HDR times exposure, to a display format)}
     *
     * @throws IllegalArgumentException when the device lacks the graphics part's features
     */
    Tonemapper tonemapper();

    /**
     * {@return the HUD overlay pass (text, the histogram, the exposure plot), text at {@code hud.scale} of the output height}
     *
     * @throws IllegalArgumentException when the device lacks the graphics part's features
     */
    HudOverlay hud();

    /**
     * {@return the exposure plot's history (a small GPU ring of applied and target EV appended each frame), to hand to
     * {@link HudOverlay#add}}
     */
    ExposurePlot exposurePlot();

    /** {@return command buffers for callers that let Tally submit: one per frame in flight, reused} */
    FrameCommands frameCommands();

    /** {@return command buffers per queue lane for frames recorded in batches ({@link Frame#recordBatches})} */
    LaneCommands laneCommands();

    /**
     * A new buffer (a VMA allocation) whose synchronization state Tally tracks for its whole life.
     *
     * @param name  for errors, labels and timings
     * @param size  bytes, positive
     * @param usage VkBufferUsageFlags
     * @param kind  where its memory lives
     * @return the buffer; close it when done (destruction waits for the GPU by timeline value, never here)
     */
    GpuBuffer createBuffer(String name, long size, int usage, MemoryKind kind);

    /**
     * Wraps one of the caller's buffers, which Tally never destroys.
     *
     * @param name   for errors, labels and timings
     * @param buffer the VkBuffer
     * @param size   its size in bytes
     * @return the wrapper to import into frame graphs
     */
    GpuBuffer wrapBuffer(String name, long buffer, long size);

    /**
     * A new device-local 2D image with one mip level and a view.
     *
     * @param name   for errors, labels and timings
     * @param width  texels, positive
     * @param height texels, positive
     * @param format VkFormat
     * @param usage  VkImageUsageFlags
     * @return the image; close it when done
     */
    GpuImage createImage(String name, int width, int height, int format, int usage);

    /**
     * Wraps one of the caller's images (a render target, a swapchain image); Tally makes only a view.
     *
     * @param name   for errors, labels and timings
     * @param image  the VkImage
     * @param width  texels
     * @param height texels
     * @param format VkFormat it was created with
     * @param usage  VkImageUsageFlags it was created with (checked against each use: a histogram needs storage or sampled)
     * @return the wrapper to import into frame graphs; close it before destroying the image
     */
    GpuImage wrapImage(String name, long image, int width, int height, int format, int usage);

    /** {@return the GPU times of the passes and of the frame's span, recent and median, read without waiting} */
    PassStats passStats();

    /**
     * A compute kernel of the host's own for its passes: {@code shader} (a {@code .comp} file) with {@code defines},
     * from the same place as Tally's shaders (the SPIR-V built into the jars on the class path, or compiled from
     * {@code shaders.dir} when {@code shaders.live} is true).
     *
     * @param shader    the file name, e.g. {@code "scene.comp"}; not the name of one of Tally's own shaders, which is refused
     *                  (exposure.comp, histogram.comp, hud.comp, hud_plot.comp, normalize.comp, readback_gather.comp, reduce.comp,
     *                  reduce_stats.comp, tonemap.comp; and hud.vert, hud.frag, tonemap.vert, tonemap.frag)
     * @param defines   preprocessor definitions
     * @param bindings  set 0's bindings, in binding order
     * @param pushBytes the push-constant block's size: a multiple of 4 from 0 to 128
     * @return the kernel; close it before Tally
     * @throws dev.tally.shader.ShaderCompileException when a live shader does not compile or a built one is missing
     * @throws IllegalArgumentException a shader named like one of Tally's own, or a push size out of range
     */
    ComputeKernel computeKernel(String shader, Map<String, String> defines, List<BindingType> bindings, int pushBytes);

    /**
     * Hot reload, between frames: rebuilds the pipelines Tally shares between its nodes (the reduction kernels
     * {@link ReduceNode} and {@link AutoExposure} use) from the current sources. Each node and kernel reloads its
     * own ({@code reload()}).
     *
     * @throws dev.tally.shader.ShaderCompileException on a compile error; the running pipelines stay
     */
    void reloadShaders();

    /** {@return the directory whose edited shaders are compiled ({@code shaders.live}), to watch for reload; null when none} */
    Path liveShaderDirectory();

    /** {@return the Vulkan objects Tally runs on, for a host that opened Tally and makes its swapchain and pipelines there} */
    Device device();

    /** {@return validation, memory, object and wait counters, read in place} */
    Diagnostics diagnostics();

    /** {@return where the graph placed work on the async compute lane} */
    AsyncLane asyncLane();

    /**
     * {@return the frame recorded last as Graphviz DOT (passes, resources, culled passes, barriers), for a picture;
     * an empty graph before the first}
     */
    String lastGraphDot();

    /** {@return the settings Tally was opened with} */
    Config config();

    /** {@return the frame begun last, or null before the first} */
    Frame currentFrame();

    /** {@return frames in flight ({@code frames.inFlight}): the one size of every per-frame-in-flight ring} */
    int framesInFlight();

    /**
     * Releases everything, also after a failure (a lost device, say): each step runs even when an earlier
     * one threw, and the first failure is rethrown at the end. Close nodes, rings and buffers first.
     */
    @Override
    void close();
}
