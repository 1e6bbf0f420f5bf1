package dev.tally.internal.vk;

import org.lwjgl.system.JNI;
import org.lwjgl.vulkan.VkQueue;

/**
 * vkQueueSubmit2 called through the queue's function address, without the walk LWJGL's {@code nvkQueueSubmit2} makes over
 * the submit structs in Java first (its debug checks: each count against its pointer). The structs handed here are built
 * by their caller in place, and the validation layer checks them where it runs. The walk was work of every frame's
 * submission, and the one place the frame thread still allocated: in the quick frame bench on lavapipe, one frame of the
 * run after a replay's submissions took 216 B (three strings and their arrays, recorded by JFR with thread-local
 * allocation buffers off, every allocation an event) in the walk's loop, which allocates nothing as written: objects a
 * deoptimization of the compiled walk rebuilt on the heap.
 */
public final class QueueSubmit2 {
    private QueueSubmit2() {
    }

    /** {@code vkQueueSubmit2(queue, count, pSubmits, fence)}; the VkResult. */
    public static int call(VkQueue queue, int count, long pSubmits, long fence) {
        return JNI.callPPJI(queue.address(), count, pSubmits, fence, queue.getCapabilities().vkQueueSubmit2);
    }
}
