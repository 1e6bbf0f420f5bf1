package dev.tally.vk;

/**
 * A 2D color image with one mip level and a view that Tally knows: one it made ({@code Tally.createImage})
 * or one of the caller's it wraps ({@code Tally.wrapImage}: a swapchain image, a renderer's target). It keeps
 * the image's last layout and access for its whole life, so a frame graph that imports it in a later frame
 * starts from where the previous work left it.
 */
public interface GpuImage extends AutoCloseable {
    /** {@return the name given at creation, used in errors, labels and timings} */
    String name();

    /** {@return the VkImage handle} */
    long handle();

    /** {@return the VkImageView Tally made for it} */
    long view();

    /** {@return the VkFormat} */
    int format();

    /** {@return the width in texels} */
    int width();

    /** {@return the height in texels} */
    int height();

    /** {@return the VkImageUsageFlags it was created with} */
    int usage();

    /** Destroys what Tally owns (the view, and the image if Tally made it) once the GPU is done with it. */
    @Override
    void close();
}
