package dev.tally.demo.app;

/**
 * Every {@code k} frames the output changes size: a window goes full, half, 1x1 (the smallest a
 * swapchain can have), full again... and is minimized for a few frames once; an offscreen image
 * alternates full and half. Soak runs use it to show that resizing leaks nothing.
 */
public record ResizeEveryPolicy(long k) implements FramePolicy {
    public ResizeEveryPolicy {
        if (k < 1) {
            throw new IllegalArgumentException("resize interval must be at least 1 frame, got " + k);
        }
    }

    /** The size at frame {@code frame}: the requested size, half of it, or (a window) 1x1, changing every k frames. */
    public int[] sizeAt(long frame, int width, int height, boolean windowed) {
        long step = frame / k;
        return switch ((int) (step % (windowed ? 3 : 2))) {
            case 1 -> new int[]{Math.max(1, width / 2), Math.max(1, height / 2)};
            case 2 -> new int[]{1, 1};
            default -> new int[]{width, height};
        };
    }

    @Override
    public void beforeFrame(long frame, Output output) {
        if (frame > 0 && frame % k == 0) {
            int[] size = sizeAt(frame, output.requestedWidth(), output.requestedHeight(), output.windowed());
            output.resize(size[0], size[1]);
        }
        if (!output.windowed()) {
            return;
        }
        if (frame == k + k / 2) {
            output.iconify();
        }
        if (frame == k + k / 2 + 3) {
            output.restore();
        }
    }
}
