package dev.tally.internal.vk;

import org.lwjgl.system.APIUtil;
import org.lwjgl.system.Callback;
import org.lwjgl.system.CallbackI;
import org.lwjgl.system.libffi.LibFFI;
import org.lwjgl.vulkan.VK10;
import org.lwjgl.vulkan.VkDevice;

import java.lang.invoke.MethodHandles;

import static org.lwjgl.system.MemoryUtil.NULL;
import static org.lwjgl.system.MemoryUtil.memGetAddress;
import static org.lwjgl.system.Pointer.POINTER_SIZE;
import static org.lwjgl.vulkan.VK10.VK_ERROR_DEVICE_LOST;
import static org.lwjgl.vulkan.VK10.VK_ERROR_OUT_OF_DEVICE_MEMORY;
import static org.lwjgl.vulkan.VK10.VK_SUCCESS;

/**
 * Test hook owned by one {@link VulkanContext}: fails a chosen queue submission or buffer allocation
 * the way a broken driver or a full GPU would, so the error paths above can be exercised on any device.
 * Nothing is static: each context counts its own submissions and allocations.
 *
 * <ul>
 *   <li>{@code device-lost@N}: submission N (and every later one) fails with VK_ERROR_DEVICE_LOST instead
 *   of reaching vkQueueSubmit2. From then on vkDeviceWaitIdle is still called (work submitted before
 *   really runs to completion, so nothing is destroyed under the GPU) but its result is reported as
 *   VK_ERROR_DEVICE_LOST, as on a really lost device.</li>
 *   <li>{@code oom@N}: the N-th buffer VMA creates fails with VK_ERROR_OUT_OF_DEVICE_MEMORY. The context
 *   interposes on VMA's vkCreateBuffer, so the failure travels through vmaCreateBuffer and
 *   {@link TrackedBuffer}'s own out-of-memory report (the size asked for and the budget).</li>
 * </ul>
 */
final class FaultInjector {
    private final FaultPlan plan;
    private long bufferCreations;
    private boolean lossInjected;
    private VkDevice device;
    private Callback createBuffer;

    FaultInjector(FaultPlan plan) {
        this.plan = plan == null ? FaultPlan.NONE : plan;
    }

    FaultPlan plan() {
        return plan;
    }

    /** True once a device loss has been injected. */
    synchronized boolean lossInjected() {
        return lossInjected;
    }

    /** Buffers created through the context's VMA allocator so far (counted only when an oom fault is planned). */
    synchronized long bufferCreations() {
        return bufferCreations;
    }

    /**
     * Called before submission {@code number} (1-based): VK_SUCCESS to submit for real, or the VkResult
     * vkQueueSubmit2 is to be taken to have returned.
     */
    synchronized int beforeSubmit(long number) {
        if (plan.kind() == FaultPlan.Kind.DEVICE_LOST && (lossInjected || number >= plan.at())) {
            lossInjected = true;
            return VK_ERROR_DEVICE_LOST;
        }
        return VK_SUCCESS;
    }

    /** A wait's real result, or VK_ERROR_DEVICE_LOST once a loss was injected (what a lost device reports). */
    synchronized int afterLoss(int realResult) {
        return lossInjected && realResult >= 0 ? VK_ERROR_DEVICE_LOST : realResult;
    }

    private long acquires;
    private long presents;

    /** Called before each swapchain acquire: true when this one is to report VK_ERROR_OUT_OF_DATE_KHR. */
    synchronized boolean acquireOutOfDate() {
        acquires++;
        return plan.kind() == FaultPlan.Kind.OUT_OF_DATE && acquires % plan.at() == 0;
    }

    /** Called after each successful present: true when it is to be taken as VK_SUBOPTIMAL_KHR. */
    synchronized boolean presentSuboptimal() {
        presents++;
        return plan.kind() == FaultPlan.Kind.SUBOPTIMAL && presents % plan.at() == 0;
    }

    private synchronized boolean failThisBufferCreation() {
        bufferCreations++;
        return plan.kind() == FaultPlan.Kind.OOM && bufferCreations == plan.at();
    }

    /**
     * The vkCreateBuffer VMA is to call for {@code device}: an interposed function when an oom fault is
     * planned, else NULL (keep the driver's own).
     */
    long createBufferFunction(VkDevice device) {
        if (plan.kind() != FaultPlan.Kind.OOM) {
            return NULL;
        }
        this.device = device;
        if (createBuffer == null) {
            createBuffer = new CreateBufferCallback();
        }
        return createBuffer.address();
    }

    /** Frees the interposed function; only after the allocator that calls it is destroyed. */
    void close() {
        if (createBuffer != null) {
            createBuffer.free();
            createBuffer = null;
        }
    }

    /** vkCreateBuffer's C signature: VkResult (VkDevice, const VkBufferCreateInfo*, const VkAllocationCallbacks*, VkBuffer*). */
    @FunctionalInterface   // LWJGL's FFM backend (JDK 22+) requires it for upcalls
    interface CreateBufferI extends CallbackI {
        Callback.Descriptor DESCRIPTOR = new Callback.Descriptor(CreateBufferI.class, MethodHandles.lookup(),
                APIUtil.apiCreateCIF(APIUtil.apiStdcall(), LibFFI.ffi_type_sint32,
                        LibFFI.ffi_type_pointer, LibFFI.ffi_type_pointer, LibFFI.ffi_type_pointer, LibFFI.ffi_type_pointer));

        @Override
        default Callback.Descriptor getDescriptor() {
            return DESCRIPTOR;
        }

        @Override
        default void callback(long ret, long args) {
            int result = invoke(memGetAddress(memGetAddress(args)), memGetAddress(memGetAddress(args + POINTER_SIZE)),
                    memGetAddress(memGetAddress(args + 2L * POINTER_SIZE)), memGetAddress(memGetAddress(args + 3L * POINTER_SIZE)));
            APIUtil.apiClosureRet(ret, result);
        }

        int invoke(long device, long pCreateInfo, long pAllocator, long pBuffer);
    }

    private final class CreateBufferCallback extends Callback implements CreateBufferI {
        CreateBufferCallback() {
            super(DESCRIPTOR);
        }

        @Override
        public int invoke(long deviceHandle, long pCreateInfo, long pAllocator, long pBuffer) {
            // Never throw across the native boundary: count, then fail or forward to the driver.
            if (failThisBufferCreation()) {
                return VK_ERROR_OUT_OF_DEVICE_MEMORY;
            }
            return VK10.nvkCreateBuffer(device, pCreateInfo, pAllocator, pBuffer);
        }
    }
}
