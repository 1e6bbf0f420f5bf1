package dev.tally.internal.vk;

import org.lwjgl.system.JNI;
import org.lwjgl.vulkan.VkQueue;

/**
 * vkQueueSubmit2 called through the queue's function address, without the walk LWJGL's {@code nvkQueueSubmit2} makes over
 * the submit structs in Java first (its debug checks: each count against its pointer). The structs handed here are built
 * by their caller in place, and the validation layer checks them where it runs. The walk was work of every frame's
 * submission; it was also where the frame thread allocated: a JIT deoptimization in that walk, after another caller's
 * submissions changed its profile, rematerialized 216 B of scalar-replaced objects in one frame of a lavapipe bench run
 * (JFR, every allocation recorded with thread-local allocation buffers off).
 */
public final class QueueSubmit2 {
    private QueueSubmit2() {
    }

    /** {@code vkQueueSubmit2(queue, count, pSubmits, fence)}; the VkResult. */
    public static int call(VkQueue queue, int count, long pSubmits, long fence) {
        return JNI.callPPJI(queue.address(), count, pSubmits, fence, queue.getCapabilities().vkQueueSubmit2);
    }
}
