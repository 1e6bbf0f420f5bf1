package dev.tally.demo.bench.replay;

import org.lwjgl.system.libffi.FFIType;

import static org.lwjgl.system.libffi.LibFFI.ffi_type_pointer;
import static org.lwjgl.system.libffi.LibFFI.ffi_type_uint32;
import static org.lwjgl.system.libffi.LibFFI.ffi_type_uint64;

/**
 * The command-buffer calls a captured frame may hold, each with its C signature (after the command buffer,
 * which every one takes first; after the device for {@link #HOST_RESET_QUERY_POOL}, the one host call): what the
 * capture intercepts, copies and the replay issues again. Any other vkCmd* function met during a capture is
 * refused (the replay could not issue it).
 */
public enum StreamOp {
    PIPELINE_BARRIER_2("vkCmdPipelineBarrier2", false, ffi_type_pointer),
    BIND_PIPELINE("vkCmdBindPipeline", false, ffi_type_uint32, ffi_type_uint64),
    BIND_DESCRIPTOR_SETS("vkCmdBindDescriptorSets", false, ffi_type_uint32, ffi_type_uint64, ffi_type_uint32, ffi_type_uint32,
            ffi_type_pointer, ffi_type_uint32, ffi_type_pointer),
    PUSH_CONSTANTS("vkCmdPushConstants", false, ffi_type_uint64, ffi_type_uint32, ffi_type_uint32, ffi_type_uint32, ffi_type_pointer),
    DISPATCH("vkCmdDispatch", false, ffi_type_uint32, ffi_type_uint32, ffi_type_uint32),
    DRAW("vkCmdDraw", false, ffi_type_uint32, ffi_type_uint32, ffi_type_uint32, ffi_type_uint32),
    SET_VIEWPORT("vkCmdSetViewport", false, ffi_type_uint32, ffi_type_uint32, ffi_type_pointer),
    SET_SCISSOR("vkCmdSetScissor", false, ffi_type_uint32, ffi_type_uint32, ffi_type_pointer),
    BEGIN_RENDERING("vkCmdBeginRendering", false, ffi_type_pointer),
    END_RENDERING("vkCmdEndRendering", false),
    COPY_BUFFER("vkCmdCopyBuffer", false, ffi_type_uint64, ffi_type_uint64, ffi_type_uint32, ffi_type_pointer),
    COPY_IMAGE_TO_BUFFER("vkCmdCopyImageToBuffer", false, ffi_type_uint64, ffi_type_uint32, ffi_type_uint64, ffi_type_uint32, ffi_type_pointer),
    COPY_BUFFER_TO_IMAGE("vkCmdCopyBufferToImage", false, ffi_type_uint64, ffi_type_uint64, ffi_type_uint32, ffi_type_uint32, ffi_type_pointer),
    FILL_BUFFER("vkCmdFillBuffer", false, ffi_type_uint64, ffi_type_uint64, ffi_type_uint64, ffi_type_uint32),
    UPDATE_BUFFER("vkCmdUpdateBuffer", false, ffi_type_uint64, ffi_type_uint64, ffi_type_uint64, ffi_type_pointer),
    RESET_QUERY_POOL("vkCmdResetQueryPool", false, ffi_type_uint64, ffi_type_uint32, ffi_type_uint32),
    /** vkResetQueryPool: a host call made while the frame records (its first argument is the VkDevice, not a command buffer). */
    HOST_RESET_QUERY_POOL("vkResetQueryPool", false, ffi_type_uint64, ffi_type_uint32, ffi_type_uint32),
    WRITE_TIMESTAMP_2("vkCmdWriteTimestamp2", false, ffi_type_uint64, ffi_type_uint64, ffi_type_uint32),
    COPY_QUERY_POOL_RESULTS("vkCmdCopyQueryPoolResults", false, ffi_type_uint64, ffi_type_uint32, ffi_type_uint32, ffi_type_uint64, ffi_type_uint64,
            ffi_type_uint64, ffi_type_uint32),
    CLEAR_COLOR_IMAGE("vkCmdClearColorImage", false, ffi_type_uint64, ffi_type_uint32, ffi_type_pointer, ffi_type_uint32, ffi_type_pointer),
    BEGIN_LABEL("vkCmdBeginDebugUtilsLabelEXT", true, ffi_type_pointer),
    END_LABEL("vkCmdEndDebugUtilsLabelEXT", true);

    /** The most arguments after the command buffer any op takes. */
    static final int MAX_ARGS = 7;

    /** The Vulkan function's name, which is also the name of its field in LWJGL's capabilities. */
    public final String function;
    /** Whether LWJGL dispatches it through the instance's capabilities (an instance extension) rather than the device's. */
    final boolean instanceLevel;
    /** The argument types after the command buffer. */
    final FFIType[] args;

    /** True for a host call made during recording: its first argument is the VkDevice. */
    boolean host() {
        return this == HOST_RESET_QUERY_POOL;
    }

    /** The index in {@link #args} of the query pool this op names, or -1 when it names none. */
    int queryPoolArg() {
        return switch (this) {
            case RESET_QUERY_POOL, HOST_RESET_QUERY_POOL, COPY_QUERY_POOL_RESULTS -> 0;
            case WRITE_TIMESTAMP_2 -> 1;
            default -> -1;
        };
    }

    StreamOp(String function, boolean instanceLevel, FFIType... args) {
        this.function = function;
        this.instanceLevel = instanceLevel;
        this.args = args;
    }
}
