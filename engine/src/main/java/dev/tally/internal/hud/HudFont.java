package dev.tally.internal.hud;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryUtil;

import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/**
 * The HUD's font for the current output height and its atlas in a storage buffer the passes read; baked
 * again, and the old atlas retired, when the height changes.
 */
final class HudFont implements AutoCloseable {
    private final VulkanContext ctx;
    private final double textFraction;
    private FontAtlas font;
    private TrackedBuffer atlas;

    HudFont(VulkanContext ctx, double textFraction) {
        this.ctx = ctx;
        this.textFraction = textFraction;
    }

    /** The font baked for an output {@code outputHeight} pixels tall (baked again when the height changes). */
    FontAtlas font(int outputHeight) {
        int px = FontAtlas.pixelHeightFor(outputHeight, textFraction);
        if (font == null || font.pixelHeight() != px) {
            FontAtlas next = FontAtlas.bake(px);
            TrackedBuffer buffer = new TrackedBuffer(ctx, "hud.atlas", (long) next.width() * next.height(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    MemoryKind.UPLOAD);
            MemoryUtil.memByteBuffer(buffer.mappedAddress(), (int) buffer.size()).put(0, next.coverage());
            buffer.flush(0, buffer.size());
            if (atlas != null) {
                atlas.close();   // destruction waits for the frames still reading it
            }
            atlas = buffer;
            font = next;
        }
        return font;
    }

    /** The atlas of the font {@link #font} returned last. */
    TrackedBuffer atlas() {
        return atlas;
    }

    @Override
    public void close() {
        if (atlas != null) {
            atlas.close();
        }
    }
}
