package dev.tally.internal.readback;

import dev.tally.readback.ReadbackRing;

import dev.tally.readback.ReadbackRequest;

import dev.tally.internal.engine.Engine;

import dev.tally.readback.Sample;

import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferImageCopy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/** Staleness, one-shot requests, the stale-data guard and texture regions, on lavapipe with synchronization validation. */
class ReadbackDeliveryTest {

    @Test
    void samplesOlderThanMaxAgeAreFlaggedAndCounted() {
        try (RingHarness h = new RingHarness("frames.inFlight=2", "readback.slots=3")) {
            ReadbackRingNode strict = new ReadbackRingNode(Engine.of(h.tally).graphs(), "strict", 3, 16, ReadbackRing.Mode.FIXED, 2);
            ReadbackRingNode lenient = new ReadbackRingNode(Engine.of(h.tally).graphs(), "lenient", 3, 16, ReadbackRing.Mode.FIXED, 3);
            int[] staleSeen = {0};
            strict.onSample(d -> {
                assertEquals(3, d.lag());
                staleSeen[0] += d.stale() ? 1 : 0;
            });
            for (int f = 0; f < 20; f++) {
                h.frame((frame, g) -> {
                    BufferHandle s = h.stats(g, 0, 0);
                    strict.capture(g, s);
                    lenient.capture(g, s);
                });
            }
            assertEquals(17, strict.stats().samples());
            assertEquals(17, strict.stats().stale(), "lag 3 > maxAgeFrames 2: every sample is stale");
            assertEquals(17, staleSeen[0], "the callback sees the flag");
            assertTrue(strict.latest().orElseThrow().stale());
            assertEquals(0, lenient.stats().stale(), "lag 3 <= maxAgeFrames 3");
            assertFalse(lenient.latest().orElseThrow().stale());
            strict.close();
            lenient.close();
            assertEquals(0, h.validationMessages(), h::validationText);
        }
    }

    @ParameterizedTest(name = "mode {0}")
    @ValueSource(strings = {"fixed", "freshest"})
    void oneShotRequestsAreDeliveredExactlyOnce(String mode) {
        try (RingHarness h = new RingHarness("frames.inFlight=2", "readback.slots=3", "readback.mode=" + mode)) {
            ReadbackRing ring = h.tally.readback("probe", 16);
            Map<Long, Integer> calls = new HashMap<>();
            Map<Long, Integer> payload = new HashMap<>();
            List<CompletableFuture<Sample>> futures = new ArrayList<>();
            List<ReadbackRequest> requests = new ArrayList<>();
            long thread = Thread.currentThread().getId();
            for (int f = 0; f < 16; f++) {
                int frameNo = f;
                h.frame((frame, g) -> {
                    BufferHandle s = h.stats(g, 1, 2);
                    ring.capture(g, s);
                    // One request at frames 2 and 5, two in frame 6 (a key pressed twice), none elsewhere.
                    int count = frameNo == 2 || frameNo == 5 ? 1 : frameNo == 6 ? 2 : 0;
                    for (int i = 0; i < count; i++) {
                        ReadbackRequest r = ring.requestOnce(g, List.of(ReadbackRing.Region.of(s, 16)), d -> {
                            assertTrue(d.oneShot());
                            assertEquals(thread, Thread.currentThread().getId());
                            assertTrue(d.lag() >= 1);
                            calls.merge(d.frame(), 1, Integer::sum);
                            payload.put(d.frame(), d.intAt(0));
                        });
                        assertFalse(r.isDone(), "never delivered before its frame was submitted");
                        requests.add(r);
                        futures.add(r.future());
                    }
                });
            }
            assertEquals(Map.of(2L, 1, 5L, 1, 6L, 2), calls, "each request's listener called once");
            assertEquals(Map.of(2L, 2, 5L, 5, 6L, 6), payload, "each holds its own frame's data");
            for (ReadbackRequest r : requests) {
                assertTrue(r.isDone());
                assertEquals(r.frame(), r.future().join().frame());
                assertEquals((int) r.frame(), r.sample().orElseThrow().intAt(0));
            }
            assertEquals(4, ring.stats().oneShots());
            assertEquals(4, futures.stream().filter(CompletableFuture::isDone).count());
            ring.close();
            assertEquals(0, h.validationMessages(), h::validationText);
        }
    }

    /**
     * The guard: a slot whose GPU-written frame number is not its frame's is rejected and counted, never handed
     * out. A missing barrier does not corrupt data on lavapipe (one CPU thread runs the commands in order), so the
     * fault is injected: frame 5's capture records no commands, and the host sees what the slot held before, as
     * it may on a GPU whose writes are not made visible to the host. With debug.skipBarriers the graph records no
     * barriers at all (validation off: it would report the hazards).
     */
    @ParameterizedTest(name = "skipBarriers {0}")
    @ValueSource(booleans = {false, true})
    void aSlotWhoseSequenceIsNotItsFrameIsRejected(boolean skipBarriers) {
        try (RingHarness h = new RingHarness("frames.inFlight=2", "readback.slots=3", "debug.skipBarriers=" + skipBarriers,
                "validation.enabled=" + !skipBarriers)) {
            ReadbackRing ring = h.tally.readback("guarded", 16);
            List<Long> delivered = new ArrayList<>();
            ring.onSample(d -> {
                assertEquals((int) d.frame(), d.intAt(0), "a delivered sample holds its own frame's data");
                delivered.add(d.frame());
            });
            ReadbackRingNode.of(ring).injectInvisibleWrite(5);   // slot 2 still holds frame 2's payload and sequence
            ReadbackRingNode.of(ring).injectInvisibleWrite(1);   // (overrides 5) slot 1 was never written: header -1
            ReadbackRingNode.of(ring).injectInvisibleWrite(5);
            for (int f = 0; f < 12; f++) {
                h.frame((frame, g) -> ring.capture(g, h.stats(g, 0, 0)));
            }
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 6L, 7L, 8L), delivered, "frame 5 is rejected, the others delivered");
            assertEquals(1, ring.stats().rejected());
            assertEquals(8, ring.stats().samples());
            ring.close();
            if (!skipBarriers) {
                assertEquals(0, h.validationMessages(), h::validationText);
            }
        }
    }

    @Test
    void aSlotTheGpuNeverWroteIsRejected() {
        try (RingHarness h = new RingHarness("frames.inFlight=1", "readback.slots=2")) {
            ReadbackRing ring = h.tally.readback("guarded", 16);
            ReadbackRingNode.of(ring).injectInvisibleWrite(0);   // frame 0's slot keeps its initial header, which no frame writes
            for (int f = 0; f < 4; f++) {
                h.frame((frame, g) -> ring.capture(g, h.stats(g, 0, 0)));
            }
            assertEquals(1, ring.stats().rejected());
            assertEquals(1, ring.latest().orElseThrow().frame());
            ring.close();
            assertEquals(0, h.validationMessages(), h::validationText);
        }
    }

    /** Half-float bit patterns and their values, from the IEEE 754 binary16 definition. */
    private static final short[] HALVES = {0x3C00, 0x3800, (short) 0xC000, 0x7BFF, 0x0001, 0x3555, 0x0000, (short) 0x8000, 0x7C00, 0x4248};
    private static final float[] HALF_VALUES = {1f, 0.5f, -2f, 65504f, 0x1p-24f, 0.333251953125f, 0f, -0f, Float.POSITIVE_INFINITY, 3.140625f};

    private static int halfIndex(int x, int y, int c) {
        return (x + 3 * y + c) % HALVES.length;
    }

    private static int unorm(int x, int y, int c) {
        return (x * 16 + y * 64 + c * 3 + 1) & 0xFF;
    }

    @Test
    void imageRegionsAreReadAndConvertedToFloat() {
        int w = 8, ht = 4;
        try (RingHarness h = new RingHarness("frames.inFlight=2", "readback.slots=3")) {
            var ctx = Engine.of(h.tally).context();
            TrackedBuffer upload = new TrackedBuffer(ctx, "upload", (long) w * ht * 12, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind.READBACK);
            long a = upload.mappedAddress();
            for (int y = 0; y < ht; y++) {
                for (int x = 0; x < w; x++) {
                    for (int c = 0; c < 4; c++) {
                        MemoryUtil.memPutShort(a + 8L * (y * w + x) + 2L * c, HALVES[halfIndex(x, y, c)]);
                        MemoryUtil.memPutByte(a + 8L * w * ht + 4L * (y * w + x) + c, (byte) unorm(x, y, c));
                    }
                }
            }
            upload.flush(0, upload.size());
            ReadbackRing ring = h.tally.readback("texels", 256);
            float[] floats = new float[64];
            int[] got = {0};
            ring.onSample(floats, d -> {
                assertEquals(4 + 4 * 4 + 4 * 3, d.floatCount());
                got[0]++;
                // Buffer region first (4 words), then the 2x2 RGBA16F block, then the 3x1 RGBA8 row.
                assertEquals((int) d.frame(), Float.floatToRawIntBits(floats[0]));
                int i = 4;
                for (int y = 1; y <= 2; y++) {
                    for (int x = 3; x <= 4; x++) {
                        for (int c = 0; c < 4; c++) {
                            assertEquals(HALF_VALUES[halfIndex(x, y, c)], floats[i++], "RGBA16F texel (" + x + ", " + y + ") channel " + c);
                        }
                    }
                }
                for (int x = 5; x <= 7; x++) {
                    for (int c = 0; c < 4; c++) {
                        assertEquals(unorm(x, 2, c) / 255f, floats[i++], 1e-7f, "RGBA8 texel (" + x + ", 2) channel " + c);
                    }
                }
            });
            for (int f = 0; f < 6; f++) {
                h.frame((frame, g) -> {
                    ImageHandle hdr = g.createImage("hdr", ImageDesc.of(w, ht, VK_FORMAT_R16G16B16A16_SFLOAT));
                    ImageHandle ldr = g.createImage("ldr", ImageDesc.of(w, ht, VK_FORMAT_R8G8B8A8_UNORM));
                    BufferHandle src = g.importBuffer("upload", upload, null);
                    record Up(BufferHandle src, ImageHandle hdr, ImageHandle ldr) {
                    }
                    Up up = g.addPass("upload", PassKind.TRANSFER, b -> new Up(b.read(src, Access.TRANSFER_SRC),
                            b.write(hdr, Access.TRANSFER_DST), b.write(ldr, Access.TRANSFER_DST)), (u, c) -> {
                        try (MemoryStack stack = MemoryStack.stackPush()) {
                            for (int k = 0; k < 2; k++) {
                                VkBufferImageCopy.Buffer copy = VkBufferImageCopy.calloc(1, stack).bufferOffset(k == 0 ? 0 : 8L * w * ht);
                                copy.imageSubresource().aspectMask(VK_IMAGE_ASPECT_COLOR_BIT).layerCount(1);
                                copy.imageExtent().set(w, ht, 1);
                                vkCmdCopyBufferToImage(c.cmd(), c.buffer(u.src()).handle(), c.image(k == 0 ? u.hdr() : u.ldr()).handle(),
                                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, copy);
                            }
                        }
                    });
                    ring.capture(g, List.of(ReadbackRing.Region.of(h.stats(g, 0, 0), 16),
                            new ReadbackRing.ImageRegion(up.hdr(), 3, 1, 2, 2), new ReadbackRing.ImageRegion(up.ldr(), 5, 2, 3, 1)));
                });
            }
            assertEquals(3, got[0]);
            Sample s = ring.latest().orElseThrow();
            assertEquals(HALF_VALUES[halfIndex(3, 1, 0)], s.value(4), "the polled sample carries the converted floats too");
            ring.close();
            upload.close();
            assertEquals(0, h.validationMessages(), h::validationText);
        }
    }

    @Test
    void aRegionOutsideTheImageOrWithoutTransferUsageIsRefused() {
        try (RingHarness h = new RingHarness("frames.inFlight=1", "readback.slots=2")) {
            ReadbackRing ring = h.tally.readback("texels", 64);
            var frame = h.tally.beginFrame();
            var g = frame.graph();
            ImageHandle img = g.createImage("img", ImageDesc.of(4, 4, VK_FORMAT_R16G16B16A16_SFLOAT));
            ImageHandle storageOnly = g.createImage("storageOnly", new ImageDesc(4, 4, VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT));
            var outside = assertThrows(IllegalArgumentException.class, () -> ring.capture(g, List.of(new ReadbackRing.ImageRegion(img, 3, 0, 2, 1))));
            assertTrue(outside.getMessage().contains("not inside its 4x4 extent"), outside.getMessage());
            var usage = assertThrows(IllegalArgumentException.class, () -> ring.capture(g, List.of(ReadbackRing.ImageRegion.texel(storageOnly, 0, 0))));
            assertTrue(usage.getMessage().contains("TRANSFER_SRC"), usage.getMessage());
            frame.abandon();
            ring.close();
        }
    }
}
