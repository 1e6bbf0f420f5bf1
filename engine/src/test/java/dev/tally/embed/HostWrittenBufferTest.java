package dev.tally.embed;

import dev.tally.Frame;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * A buffer the host writes in its own command buffer before the frame's passes (a vkCmdFillBuffer each frame), imported
 * with that write as its entry access: the graph orders the reduction after it and hands the buffer back for the next
 * frame's fill, so every frame's sum is of that frame's values and synchronization validation stays silent.
 */
class HostWrittenBufferTest {
    private static final int N = 4099;
    private static final int FRAMES = 8;

    @Test
    void aBufferTheHostFillsEachFrameIsReducedAfterItsFill() {
        Config config = Config.load(null, List.of("frames.inFlight=2", "readback.slots=3"));
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(config, host.host());
             TrackedBuffer data = new TrackedBuffer(host.device, "data", 4L * N, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     MemoryKind.DEVICE);
             ReduceNode sum = tally.reduceNode("sum", ReduceOp.SUM, N);
             ReadbackRing ring = tally.readback("sum/readback", 4)) {
            Map<Long, Float> totals = new HashMap<>();
            for (long f = 0; f < FRAMES; f++) {
                VkCommandBuffer cmd = host.begin(f);
                Frame frame = tally.beginFrame();
                ring.latest().ifPresent((Sample s) -> totals.put(s.frame(), s.floatAt(0)));
                vkCmdFillBuffer(cmd, data.handle(), 0, 4L * N, Float.floatToRawIntBits(f + 1));
                BufferHandle input = frame.graph().importBuffer("data", data, Access.TRANSFER_DST, Access.TRANSFER_DST);
                ring.capture(frame.graph(), List.of(ReadbackRing.Region.of(sum.add(frame.graph(), input, N), 4)));
                frame.record(cmd);
                host.submit(f, cmd, frame::signal);
            }
            host.idle();
            assertTrue(totals.size() >= FRAMES - 4, "samples arrived: " + totals);
            totals.forEach((frame, total) -> assertEquals((float) N * (frame + 1), total, "frame " + frame + " sums that frame's fill"));
            assertEquals(0, host.device.validationLog().total(), () -> host.device.validationLog().messages().toString());
        }
    }

    @Test
    void aNullEntryAccessIsRefusedNamingTheBuffer() {
        try (HostRenderer host = new HostRenderer(2); Tally tally = Tally.wrap(Config.load(null, List.of()), host.host());
             TrackedBuffer data = new TrackedBuffer(host.device, "data", 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.DEVICE)) {
            Frame frame = tally.beginFrame();
            dev.tally.graph.GraphException e = assertThrows(dev.tally.graph.GraphException.class, () -> frame.graph().importBuffer("data", data, null, null));
            assertTrue(e.getMessage().startsWith("importBuffer 'data': entry access is null"), e.getMessage());
            frame.abandon();
        }
    }
}
