package dev.tally.internal.graph;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.internal.engine.Engine;

import dev.tally.graph.Access;

import dev.tally.graph.PassKind;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.readback.ReadbackRing;
import dev.tally.readback.Sample;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.vk.MemoryKind;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkClearColorValue;
import org.lwjgl.vulkan.VkImageSubresourceRange;

import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.vulkan.VK10.*;

/**
 * An imported image cleared once and left out of the graph for 200 frames (other frames keep running)
 * is imported again by a pass that reads it: the graph must transition it from the layout it was left
 * in, not from UNDEFINED (which lets the driver discard its contents), and the texel read back through
 * the readback ring must be the cleared value.
 */
class ImportedImageStateTest {
    private static final int AWAY = 200;
    private static final float[] CLEARED = {0.25f, 0.5f, 0.75f, 1f};   // exact in half floats

    @Test
    void anImageImportedAgainAfter200FramesKeepsItsLayoutAndContents() {
        try (Tally tally = Tally.open(Config.load(null, List.of("validation.enabled=true", "frames.inFlight=2", "readback.slots=3")));
             FrameCommands commands = tally.frameCommands();
             TrackedImage lut = TrackedImage.create(Engine.of(tally).context(), "lut", 4, 4, VK_FORMAT_R16G16B16A16_SFLOAT,
                     VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
             TrackedBuffer other = new TrackedBuffer(Engine.of(tally).context(), "other", 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE);
             ReadbackRing ring = tally.readback("texel", 64)) {
            // Frame 0: the image is cleared to a known value by a transfer pass.
            run(tally, commands, g -> {
                ImageHandle img = g.importImage("lut", lut, null);
                g.addPass("clear", PassKind.TRANSFER, s -> s.write(img, Access.TRANSFER_DST), (h, c) -> {
                    try (MemoryStack stack = MemoryStack.stackPush()) {
                        VkClearColorValue color = VkClearColorValue.calloc(stack).float32(0, CLEARED[0]).float32(1, CLEARED[1])
                                .float32(2, CLEARED[2]).float32(3, CLEARED[3]);
                        VkImageSubresourceRange range = VkImageSubresourceRange.calloc(stack).aspectMask(VK_IMAGE_ASPECT_COLOR_BIT)
                                .levelCount(1).layerCount(1);
                        vkCmdClearColorImage(c.cmd(), c.image(h).handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, color, range);
                    }
                });
            });
            // 200 frames without the image: another imported buffer is filled each frame.
            for (int f = 0; f < AWAY; f++) {
                run(tally, commands, g -> {
                    BufferHandle buf = g.importBuffer("other", other, null);
                    g.addPass("fill", PassKind.TRANSFER, s -> s.write(buf, Access.TRANSFER_DST),
                            (h, c) -> vkCmdFillBuffer(c.cmd(), c.buffer(h).handle(), 0, VK_WHOLE_SIZE, 7));
                });
            }
            // Imported again, read by the ring's copy pass.
            int[] entryLayout = new int[1];
            long[] readFrame = new long[1];
            run(tally, commands, g -> {
                ImageHandle img = g.importImage("lut", lut, null);
                ring.capture(g, List.of(ReadbackRing.ImageRegion.texel(img, 1, 2)));
                readFrame[0] = g.frame();
                entryLayout[0] = img.resource();
            }, g -> entryLayout[0] = g.resources.get(entryLayout[0]).entry.layout());
            assertEquals(VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, entryLayout[0],
                    "the barrier's old layout is where frame 0 left the image (TRANSFER_DST_OPTIMAL=7), not UNDEFINED (0)");

            Sample sample = null;
            for (int f = 0; f < 8 && sample == null; f++) {
                run(tally, commands, g -> {
                });
                sample = ring.latest().filter(s -> s.frame() == readFrame[0]).orElse(null);
            }
            assertNotNull(sample, "the texel read in frame " + readFrame[0] + " is delivered");
            for (int i = 0; i < 4; i++) {
                assertEquals(CLEARED[i], sample.value(i), "channel " + i + " of the texel cleared in frame 0");
            }
            Engine.of(tally).context().waitIdle();
            assertEquals(0, Engine.of(tally).context().validationLog().total(), () -> Engine.of(tally).context().validationLog().messages().toString());
        }
    }

    private static void run(Tally tally, FrameCommands commands, Consumer<GraphDeclaration> declare) {
        run(tally, commands, declare, g -> {
        });
    }

    /** Declares, records and submits one frame; {@code recorded} sees the graph after recording. */
    private static void run(Tally tally, FrameCommands commands, Consumer<GraphDeclaration> declare, Consumer<GraphDeclaration> recorded) {
        Frame frame = tally.beginFrame();
        var cmd = commands.begin(frame);
        declare.accept(GraphDeclaration.of(frame.graph()));
        frame.record(cmd);
        recorded.accept(GraphDeclaration.of(frame.graph()));
        commands.end(cmd);
        frame.submit(cmd);
    }
}
