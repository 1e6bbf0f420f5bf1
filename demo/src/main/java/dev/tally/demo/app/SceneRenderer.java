package dev.tally.demo.app;

import dev.tally.graph.Access;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.ImageDesc;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.graph.PassBuilder;
import dev.tally.graph.PassContext;
import dev.tally.shader.BindingType;
import dev.tally.Tally;
import dev.tally.shader.BindingType;
import dev.tally.shader.ComputeKernel;
import dev.tally.shader.KernelBindings;
import dev.tally.vk.Device;
import org.lwjgl.system.MemoryStack;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.List;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.*;

/**
 * The demo's HDR scene as a compute pass writing a transient RGBA16F storage image (see
 * shaders/scene.comp); the camera follows {@link ScenePath}. Compute, not a fullscreen triangle:
 * on GPUs with few graphics units the fragment path is many times slower for the same work.
 */
final class SceneRenderer implements AutoCloseable {
    private static final int PUSH_BYTES = 64;
    /**
     * The workgroup's side in pixels, passed to the shader as GROUP_SIZE so that its local size and this dispatch
     * cannot disagree. 16 x 16, not 8 x 8: with 8 x 8 groups the pass at 4K took nearly as long storing a constant
     * as tracing the scene (83.8 against 86.7 us on the H200), so its time is not in the per-pixel work; a quarter
     * as many workgroups is the lever left.
     */
    static final int GROUP = 16;
    /** Vertical field of view: 70 degrees. */
    private static final float TAN_HALF_FOV = (float) Math.tan(Math.toRadians(35));
    private final int hdrFormat;
    private final ComputeKernel kernel;
    private final KernelBindings bindings;

    /** The scene in {@code hdrFormat}: one of {@link #HDR_FORMATS}. */
    SceneRenderer(Tally tally, int hdrFormat) {
        if (qualifier(hdrFormat) == null) {
            throw new IllegalArgumentException("scene: HDR format " + hdrFormat + " is not one the scene writes");
        }
        this.hdrFormat = hdrFormat;
        this.kernel = tally.computeKernel("scene.comp", Map.of("HDR_FORMAT", qualifier(hdrFormat), "GROUP_SIZE", Integer.toString(GROUP)),
                List.of(BindingType.STORAGE_IMAGE), PUSH_BYTES);
        this.bindings = kernel.bindings();
    }

    /** The HDR formats the scene can write, by their command-line names. */
    static final Map<String, Integer> HDR_FORMATS = Map.of("rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT, "b10g11r11", VK_FORMAT_B10G11R11_UFLOAT_PACK32);

    private static String qualifier(int format) {
        return switch (format) {
            case VK_FORMAT_R16G16B16A16_SFLOAT -> "rgba16f";
            case VK_FORMAT_B10G11R11_UFLOAT_PACK32 -> "r11f_g11f_b10f";
            default -> null;
        };
    }

    /**
     * The demo's HDR format on this device: B10G11R11 (4 bytes a pixel, the range of a half, 6/6/5 mantissa bits)
     * where it can be a storage image, else RGBA16F (8 bytes). Every pass after the scene reads the image, so half
     * the bytes is less time in the scene, the histogram and the tonemap alike.
     */
    static int preferredHdrFormat(Device gpu) {
        return gpu.formatSupports(VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)
                ? VK_FORMAT_B10G11R11_UFLOAT_PACK32 : VK_FORMAT_R16G16B16A16_SFLOAT;
    }

    int hdrFormat() {
        return hdrFormat;
    }

    /** Rebuilds from current sources; throws (keeping the old pipeline) on a compile error. */
    void reload() {
        kernel.reload();
    }

    ImageHandle add(FrameGraph g, int width, int height, float time) {
        if (desc == null || desc.width() != width || desc.height() != height) {
            // TRANSFER_SRC: the HUD's luminance probe reads a texel back.
            desc = new ImageDesc(width, height, hdrFormat, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        }
        // The frame's values, read by the pass's callbacks (made once): one scene pass per frame, recorded before the next is declared.
        ScenePath.at(time, camera);
        frameWidth = width;
        frameHeight = height;
        frameTime = time;
        return g.addPass("scene", PassKind.COMPUTE, setup, record);
    }

    private ImageDesc desc;
    private final double[] camera = new double[4];
    private int frameWidth, frameHeight;
    private float frameTime;
    private final ByteBuffer push = ByteBuffer.allocateDirect(PUSH_BYTES).order(ByteOrder.nativeOrder());
    private final Function<PassBuilder, ImageHandle> setup = b -> b.write(b.create("hdr", desc), Access.COMPUTE_WRITE);
    private final BiConsumer<ImageHandle, PassContext> record = this::record;

    private void record(ImageHandle h, PassContext c) {
        putRays(push, camera[0], camera[1], camera[2], camera[3], frameWidth, frameHeight, frameTime);
        kernel.dispatch(c.cmd(), bindings.clear().storageImage(c.image(h)), push.rewind(), (frameWidth + GROUP - 1) / GROUP,
                (frameHeight + GROUP - 1) / GROUP);
    }

    /**
     * The push constants: the camera's position and time, then its rays as an affine function of the pixel.
     * In the camera's frame the ray through image point (px, py) (pixels, y down) is
     * (ndc.x * aspect * tan, -ndc.y * tan, 1) with ndc = 2 p / size - 1; turned by the heading about y,
     * (x, y, z) -> (c x + s z, y, -s x + c z).
     */
    static void putRays(ByteBuffer push, ScenePath.Camera cam, int width, int height, float time) {
        putRays(push, cam.x(), cam.y(), cam.z(), cam.heading(), width, height, time);
    }

    private static void putRays(ByteBuffer push, double camX, double camY, double camZ, double heading, int width, int height, float time) {
        double tan = TAN_HALF_FOV, aspect = (double) width / height;
        double s = Math.sin(heading), c = Math.cos(heading);
        double lx = -aspect * tan, ly = tan, kx = 2 * aspect * tan / width, ky = -2 * tan / height;
        push.putFloat(0, (float) camX).putFloat(4, (float) camY).putFloat(8, (float) camZ).putFloat(12, time)
                .putFloat(16, (float) (c * lx + s)).putFloat(20, (float) ly).putFloat(24, (float) (-s * lx + c)).putFloat(28, width)
                .putFloat(32, (float) (c * kx)).putFloat(36, 0f).putFloat(40, (float) (-s * kx)).putFloat(44, height)
                .putFloat(48, 0f).putFloat(52, (float) ky).putFloat(56, 0f).putFloat(60, 0f);
    }

    @Override
    public void close() {
        kernel.close();
    }
}
