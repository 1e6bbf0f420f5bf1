package dev.tally.internal.shader;

import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkPipelineCacheCreateInfo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static dev.tally.internal.vk.VkCheck.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

/** A VkPipelineCache loaded from and saved to disk; the driver validates the header, so a stale file is harmless. */
public final class PipelineCache implements AutoCloseable {
    private final VulkanContext ctx;
    private final Path file;
    private final long handle;

    public PipelineCache(VulkanContext ctx, Path file) {
        this.ctx = ctx;
        this.file = file;
        byte[] initial = new byte[0];
        if (file != null && Files.isRegularFile(file)) {
            try {
                initial = Files.readAllBytes(file);
            } catch (IOException ignored) {
                initial = new byte[0];
            }
        }
        ByteBuffer data = initial.length > 0 ? MemoryUtil.memAlloc(initial.length).put(initial).flip() : null;
        try (MemoryStack stack = stackPush()) {
            VkPipelineCacheCreateInfo info = VkPipelineCacheCreateInfo.calloc(stack).sType$Default();
            if (data != null) {
                info.pInitialData(data);
            }
            LongBuffer p = stack.mallocLong(1);
            check(vkCreatePipelineCache(ctx.device(), info, null, p), "vkCreatePipelineCache");
            handle = p.get(0);
        } finally {
            if (data != null) {
                MemoryUtil.memFree(data);
            }
        }
    }

    public long handle() {
        return handle;
    }

    /** Writes the cache to disk (temporary file, then rename). */
    public void save() {
        if (file == null) {
            return;
        }
        try (MemoryStack stack = stackPush()) {
            PointerBuffer size = stack.mallocPointer(1);
            check(vkGetPipelineCacheData(ctx.device(), handle, size, null), "vkGetPipelineCacheData");
            ByteBuffer data = MemoryUtil.memAlloc((int) size.get(0));
            try {
                check(vkGetPipelineCacheData(ctx.device(), handle, size, data), "vkGetPipelineCacheData");
                byte[] bytes = new byte[(int) size.get(0)];
                data.get(bytes);
                Files.createDirectories(file.getParent());
                Path tmp = Files.createTempFile(file.getParent(), "pcache", ".tmp");
                Files.write(tmp, bytes);
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException ignored) {
                // The cache only saves start-up time; failing to write it is not an error.
            } finally {
                MemoryUtil.memFree(data);
            }
        }
    }

    @Override
    public void close() {
        save();
        long h = handle;
        ctx.defer(() -> vkDestroyPipelineCache(ctx.device(), h, null));
    }
}
