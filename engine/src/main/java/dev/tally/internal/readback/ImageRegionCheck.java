package dev.tally.internal.readback;

import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_USAGE_TRANSFER_SRC_BIT;

/** Whether an image region can be captured: a readable format, TRANSFER_SRC usage, inside the image. */
final class ImageRegionCheck {
    private ImageRegionCheck() {
    }

    /** Throws naming ring {@code ringName}, the image and what is wrong with the region of {@code image} in {@code g}. */
    static void check(String ringName, GraphDeclaration g, ImageHandle image, int x, int y, int width, int height) {
        ImageDesc d = g.desc(image);
        if (TexelFormats.bytesPerTexel(d.format()) == 0) {
            throw new IllegalArgumentException(what(ringName, g, image) + " has format " + d.format() + "; expected " + TexelFormats.supported());
        }
        if ((d.usage() & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) == 0) {
            throw new IllegalArgumentException(what(ringName, g, image) + " lacks VK_IMAGE_USAGE_TRANSFER_SRC_BIT, which a readback copy needs");
        }
        if (width <= 0 || height <= 0 || x < 0 || y < 0 || x + width > d.width() || y + height > d.height()) {
            throw new IllegalArgumentException(what(ringName, g, image) + ": region " + width + "x" + height + " at (" + x + ", " + y
                    + ") is not inside its " + d.width() + "x" + d.height() + " extent");
        }
    }

    /** The start of a message about {@code image} (built only when there is something to report). */
    private static String what(String ringName, GraphDeclaration g, ImageHandle image) {
        return "readback ring '" + ringName + "': image '" + g.name(image) + "'";
    }
}
