package dev.tally.internal.hud;

import dev.tally.internal.guard.ConstructionGuard;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/**
 * The HUD's host-visible slots, one more than the frames in flight: each holds a scene header, written by the frame whose
 * slot it is, then glyph instances, written when the text changes into the slot {@link HudTextSlots} picks, with that
 * slot's scene and text layout. Reused frame after frame.
 */
final class HudUploadRing implements AutoCloseable {
    static final int MAX_GLYPHS = 8192;

    private final TrackedBuffer[] text;
    private final HudScene[] scenes;
    private final TextLayout[] layouts;
    /** Each text slot's mapped memory as a buffer, and its glyph instances as ints, made once per slot. */
    private final ByteBuffer[] mappedSlots;
    private final IntBuffer[] glyphSlots;

    HudUploadRing(VulkanContext ctx) {
        try (ConstructionGuard guard = new ConstructionGuard()) {
            text = new TrackedBuffer[ctx.options().framesInFlight() + 1];
            scenes = new HudScene[text.length];
            layouts = new TextLayout[text.length];
            mappedSlots = new ByteBuffer[text.length];
            glyphSlots = new IntBuffer[text.length];
            for (int i = 0; i < text.length; i++) {
                scenes[i] = new HudScene();
                text[i] = guard.add(new TrackedBuffer(ctx, "hud.text" + i, HudScene.GLYPH_OFFSET + (long) MAX_GLYPHS * TextLayout.GLYPH_BYTES,
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind.UPLOAD));
            }
            guard.done();
        }
    }

    int slots() {
        return text.length;
    }

    /** The frame's own slot (for its scene header): one ring deeper than the frames in flight. */
    int slotFor(dev.tally.graph.FrameGraph g) {
        return (int) (g.frame() % text.length);   // the ticket's slotIn, without making the frame's ticket
    }

    TrackedBuffer buffer(int slot) {
        return text[slot];
    }

    HudScene scene(int slot) {
        return scenes[slot];
    }

    /** The slot's text layout for {@code font} (made again when the font changed). */
    TextLayout layout(int slot, FontAtlas font) {
        TextLayout glyphs = layouts[slot];
        if (glyphs == null || glyphs.font() != font) {
            glyphs = layouts[slot] = new TextLayout(font);
        }
        return glyphs;
    }

    /** The slot's mapped memory, little-endian as the shaders read it. */
    ByteBuffer mapped(int slot) {
        ByteBuffer mapped = mappedSlots[slot];
        if (mapped == null) {
            mapped = mappedSlots[slot] = MemoryUtil.memByteBuffer(text[slot].mappedAddress(), (int) text[slot].size()).order(ByteOrder.LITTLE_ENDIAN);
        }
        return mapped;
    }

    /** Writes {@code glyphs} after the slot's header (at most MAX_GLYPHS); the number written. */
    int writeGlyphs(int slot, TextLayout glyphs) {
        IntBuffer instances = glyphSlots[slot];
        if (instances == null) {
            ByteBuffer mapped = mapped(slot);
            instances = glyphSlots[slot] = mapped.slice(HudScene.GLYPH_OFFSET, mapped.capacity() - HudScene.GLYPH_OFFSET).order(ByteOrder.LITTLE_ENDIAN)
                    .asIntBuffer();
        }
        return glyphs.write(instances, MAX_GLYPHS);
    }

    @Override
    public void close() {
        for (TrackedBuffer b : text) {
            b.close();
        }
    }
}
