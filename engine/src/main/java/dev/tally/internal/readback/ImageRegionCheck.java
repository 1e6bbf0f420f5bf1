package dev.tally.internal.readback;

import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.graph.ImageDesc;
import dev.tally.readback.ReadbackRing.ImageRegion;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_USAGE_TRANSFER_SRC_BIT;

/** Whether an image region can be captured: a readable format, TRANSFER_SRC usage, inside the image. */
final class ImageRegionCheck {
    private ImageRegionCheck() {
    }

    /** Throws naming ring {@code ringName}, the image and what is wrong with {@code r} in {@code g}. */
    static void check(String ringName, GraphDeclaration g, ImageRegion r) {
        ImageDesc d = g.desc(r.image());
        if (TexelFormats.bytesPerTexel(d.format()) == 0) {
            throw new IllegalArgumentException(what(ringName, g, r) + " has format " + d.format() + "; expected " + TexelFormats.supported());
        }
        if ((d.usage() & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) == 0) {
            throw new IllegalArgumentException(what(ringName, g, r) + " lacks VK_IMAGE_USAGE_TRANSFER_SRC_BIT, which a readback copy needs");
        }
        if (r.width() <= 0 || r.height() <= 0 || r.x() < 0 || r.y() < 0 || r.x() + r.width() > d.width() || r.y() + r.height() > d.height()) {
            throw new IllegalArgumentException(what(ringName, g, r) + ": region " + r.width() + "x" + r.height() + " at (" + r.x() + ", " + r.y()
                    + ") is not inside its " + d.width() + "x" + d.height() + " extent");
        }
    }

    /** The start of a message about {@code r} (built only when there is something to report). */
    private static String what(String ringName, GraphDeclaration g, ImageRegion r) {
        return "readback ring '" + ringName + "': image '" + g.name(r.image()) + "'";
    }
}
