package dev.tally.internal.readback;

import dev.tally.readback.ReadbackRing;

import dev.tally.readback.ReadbackRequest;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryUtil;

import java.nio.FloatBuffer;

import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_DST_BIT;

/**
 * One host-visible slot of a {@link ReadbackRing}: its buffer, its timestamp query, what the last capture
 * into it laid out, and whether a sample is pending in it. Every-frame slots and one-shot slots alike.
 */
final class ReadbackSlot {
    final TrackedBuffer buffer;
    /** The slot's mapped memory as 32-bit words (made once: a delivery copies buffer regions out of it in bulk). */
    final FloatBuffer words;
    final int query;
    final SlotLayout layout = new SlotLayout();
    long frame = -1;          // -1: empty, delivered or superseded
    long timelineValue;
    /** Latest CPU time at which the slot was known to be pending (its capture, or a frame beginning). */
    long pendingSeenNanos;
    OneShotRequest request;  // one-shot slots only
    /** Whether the capture's completion timestamp was copied to host memory at its frame's end (else it is read through the driver). */
    boolean timestampCopied;
    /** The slot buffer's name in a frame graph (made once: capturing builds no string). */
    final String targetName;
    /** The capture into this slot, refilled each time. */
    final CaptureCopy copy = new CaptureCopy(this);

    ReadbackSlot(TrackedBuffer buffer, int query, String targetName) {
        this.buffer = buffer;
        this.words = MemoryUtil.memFloatBuffer(buffer.mappedAddress(), (int) (buffer.size() / 4));
        this.query = query;
        this.targetName = targetName;
    }

    /** A slot buffer of {@code bytes} (header, payload, alignment room) whose header no frame writes. */
    static TrackedBuffer newBuffer(VulkanContext ctx, String bufferName, long bytes) {
        TrackedBuffer b = new TrackedBuffer(ctx, bufferName, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                MemoryKind.READBACK);   // written by copies or by ReadbackGather's dispatches
        // A sequence no frame writes (frame 2^32 - 1 is years away), so that a slot the GPU never wrote is rejected
        // even when fresh memory happens to read as frame 0's number.
        MemoryUtil.memPutInt(b.mappedAddress(), -1);
        b.flush(0, 4);
        return b;
    }
}
