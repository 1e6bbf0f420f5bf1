package dev.tally.readback;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageHandle;
import dev.tally.vk.GpuBuffer;
import org.junit.jupiter.api.Test;
import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * A capture's source list, refilled by the caller each frame: the capture reads it when called and keeps nothing of it;
 * a list refuses a null source and a seventeenth in one line where they are handed; its regions are checked like a list
 * of records'. Lavapipe, validation on. (Its values and both pass kinds: ReadbackGatherTest; that refilling it allocates
 * nothing: EmbeddedFrameGarbageTest.)
 */
class SourceListTest {
    /** Floats 1..16 in a 64-byte buffer. */
    private static GpuBuffer values(Tally tally) {
        return CountingFloats.create(tally, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    }

    private static Tally open() {
        return Tally.open(Config.load(null, List.of("validation.enabled=true")), List.of());
    }

    @Test
    void aCaptureKeepsNothingOfTheListItWasHanded() {
        try (Tally tally = open();
             GpuBuffer values = values(tally);
             ReadbackRing ring = tally.readback("ring", 16);
             FrameCommands commands = tally.frameCommands()) {
            ReadbackRing.SourceList sources = ring.sourceList();
            int frames = 5;
            for (int f = 0; f < frames; f++) {
                Frame frame = tally.beginFrame();
                FrameGraph g = frame.graph();
                BufferHandle buffer = g.importBuffer("values", values, null);
                ring.capture(g, sources.clear().buffer(buffer, 4 * f, 8));   // floats f+1, f+2
                sources.clear().buffer(buffer, 48, 8);   // refilled before the frame is recorded: not this frame's capture
                VkCommandBuffer cmd = commands.begin(frame);
                frame.record(cmd);
                commands.end(cmd);
                frame.submit(cmd);
            }
            tally.device().waitIdle();
            Sample s = ring.latest().orElseThrow(() -> new AssertionError("no sample after " + frames + " frames"));
            assertEquals(s.frame() + 1, s.floatAt(0), "the first float of frame " + s.frame() + "'s capture");
            assertEquals(s.frame() + 2, s.floatAt(1), "the second float of frame " + s.frame() + "'s capture");
            assertEquals(0, tally.diagnostics().validationMessages());
        }
    }

    @Test
    void aNullSourceAndASeventeenthAreRefusedWhereTheyAreHanded() {
        try (Tally tally = open();
             ReadbackRing ring = tally.readback("hud/ring", 64)) {
            ReadbackRing.SourceList sources = ring.sourceList();
            IllegalArgumentException nullBuffer = assertThrows(IllegalArgumentException.class, () -> sources.buffer(null, 4));
            assertEquals("readback ring 'hud/ring': source list's buffer 0 is null", nullBuffer.getMessage());
            IllegalArgumentException nullImage = assertThrows(IllegalArgumentException.class, () -> sources.image(null, 0, 0, 1, 1));
            assertEquals("readback ring 'hud/ring': source list's image 0 is null", nullImage.getMessage());
            assertEquals(0, sources.size(), "a refused source is not added");
            Frame first = tally.beginFrame();
            IllegalArgumentException nullRecord = assertThrows(IllegalArgumentException.class,
                    () -> ring.capture(first.graph(), List.of(new ReadbackRing.Region(null, 0, 4))));
            assertEquals("readback ring 'hud/ring': a region's source buffer is null (source 0 of the capture)", nullRecord.getMessage());
            first.abandon();

            Frame frame = tally.beginFrame();
            BufferHandle buffer = frame.graph().createBuffer("b", dev.tally.graph.BufferDesc.of(64));
            for (int i = 0; i < 16; i++) {
                sources.buffer(buffer, 4);
            }
            IllegalArgumentException seventeenth = assertThrows(IllegalArgumentException.class, () -> sources.buffer(buffer, 4));
            assertEquals("readback ring 'hud/ring': more than 16 regions in one capture's source list", seventeenth.getMessage());
            assertEquals(16, sources.size());
            assertEquals(0, sources.clear().size());
            frame.abandon();
        }
    }

    @Test
    void itsRegionsAreCheckedAsRecordsAreAndAForeignListIsRefused() {
        try (Tally tally = open();
             GpuBuffer values = values(tally);
             ReadbackRing ring = tally.readback("ring", 64)) {
            Frame frame = tally.beginFrame();
            FrameGraph g = frame.graph();
            BufferHandle buffer = g.importBuffer("values", values, null);
            ReadbackRing.SourceList sources = ring.sourceList();
            IllegalArgumentException outside = assertThrows(IllegalArgumentException.class, () -> ring.capture(g, sources.clear().buffer(buffer, 60, 8)));
            assertEquals(outside.getMessage(), assertThrows(IllegalArgumentException.class,
                    () -> ring.capture(g, List.of(new ReadbackRing.Region(buffer, 60, 8)))).getMessage(), "the same check on both paths");
            assertTrue(outside.getMessage().startsWith("readback ring 'ring': region of 8 bytes at offset 60 of buffer 'values' (64 bytes)"),
                    outside.getMessage());

            ImageHandle image = g.createImage("picture", new dev.tally.graph.ImageDesc(4, 4, VK_FORMAT_R16G16B16A16_SFLOAT,
                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT));
            IllegalArgumentException offImage = assertThrows(IllegalArgumentException.class, () -> ring.capture(g, sources.clear().image(image, 3, 3, 2, 1)));
            assertEquals("readback ring 'ring': image 'picture': region 2x1 at (3, 3) is not inside its 4x4 extent", offImage.getMessage());

            ReadbackRing.SourceList foreign = new ReadbackRing.SourceList() {
                @Override public ReadbackRing.SourceList clear() { return this; }
                @Override public ReadbackRing.SourceList buffer(BufferHandle source, long offset, long bytes) { return this; }
                @Override public ReadbackRing.SourceList buffer(BufferHandle source, long bytes) { return this; }
                @Override public ReadbackRing.SourceList image(ImageHandle image, int x, int y, int width, int height) { return this; }
                @Override public int size() { return 0; }
            };
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ring.capture(g, foreign));
            assertTrue(refused.getMessage().startsWith("readback ring 'ring': capture of a source list of class ")
                    && refused.getMessage().endsWith("; make one with ring.sourceList()"), refused.getMessage());
            frame.abandon();
            assertEquals(0, tally.diagnostics().validationMessages());
        }
    }
}
