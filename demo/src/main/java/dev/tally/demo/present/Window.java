package dev.tally.demo.present;

import org.lwjgl.PointerBuffer;
import org.lwjgl.glfw.GLFWErrorCallback;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkInstance;

import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;

import static dev.tally.vk.VulkanException.check;
import static org.lwjgl.glfw.GLFW.*;
import static org.lwjgl.glfw.GLFWVulkan.glfwCreateWindowSurface;
import static org.lwjgl.glfw.GLFWVulkan.glfwGetRequiredInstanceExtensions;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.KHRSurface.vkDestroySurfaceKHR;

/** A GLFW window for Vulkan (no client API). X11 is preferred when both X11 and Wayland could serve. */
public final class Window implements AutoCloseable {
    private final long handle;
    private final GLFWErrorCallback errors;
    private long surface;
    private VkInstance instance;

    private Window(long handle, GLFWErrorCallback errors) {
        this.handle = handle;
        this.errors = errors;
    }

    /** True when a display is reachable: without one, the demo renders headless. */
    public static boolean displayAvailable() {
        String x = System.getenv("DISPLAY");
        String wl = System.getenv("WAYLAND_DISPLAY");
        return (x != null && !x.isBlank()) || (wl != null && !wl.isBlank());
    }

    public static Window open(String title, int width, int height) {
        GLFWErrorCallback errors = GLFWErrorCallback.create((code, description) ->
                System.err.println("glfw: " + GLFWErrorCallback.getDescription(description)));
        glfwSetErrorCallback(errors);
        String x = System.getenv("DISPLAY");
        String wl = System.getenv("WAYLAND_DISPLAY");
        if (x != null && !x.isBlank() && (wl == null || wl.isBlank())) {
            // GLFW tries Wayland first and complains about XDG_RUNTIME_DIR under plain X11.
            glfwInitHint(GLFW_PLATFORM, GLFW_PLATFORM_X11);
        }
        if (!glfwInit()) {
            glfwSetErrorCallback(null);
            errors.free();
            throw new IllegalStateException("cannot open a window: GLFW found no display (use --headless)");
        }
        glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
        glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
        long window = glfwCreateWindow(width, height, title, 0, 0);
        if (window == 0) {
            glfwTerminate();
            glfwSetErrorCallback(null);
            errors.free();
            throw new IllegalStateException("glfwCreateWindow failed");
        }
        return new Window(window, errors);
    }

    /** The instance extensions the surface needs. */
    public static List<String> requiredExtensions() {
        PointerBuffer names = glfwGetRequiredInstanceExtensions();
        List<String> out = new ArrayList<>();
        if (names != null) {
            for (int i = 0; i < names.capacity(); i++) {
                out.add(names.getStringUTF8(i));
            }
        }
        return out;
    }

    public long createSurface(VkInstance instance) {
        try (MemoryStack stack = stackPush()) {
            LongBuffer p = stack.mallocLong(1);
            check(glfwCreateWindowSurface(instance, handle, null, p), "glfwCreateWindowSurface");
            this.surface = p.get(0);
            this.instance = instance;
            return surface;
        }
    }

    /** Framebuffer size in pixels; zero while minimized. */
    public int[] framebufferSize() {
        try (MemoryStack stack = stackPush()) {
            IntBuffer w = stack.mallocInt(1);
            IntBuffer h = stack.mallocInt(1);
            glfwGetFramebufferSize(handle, w, h);
            return new int[]{w.get(0), h.get(0)};
        }
    }

    public boolean shouldClose() {
        return glfwWindowShouldClose(handle);
    }

    public void poll() {
        glfwPollEvents();
    }

    public long handle() {
        return handle;
    }

    public void setSize(int w, int h) {
        glfwSetWindowSize(handle, w, h);
    }

    /** Asks the window to close, as its close button does. */
    public void requestClose() {
        org.lwjgl.glfw.GLFW.glfwSetWindowShouldClose(handle(), true);
    }

    public void iconify() {
        glfwIconifyWindow(handle);
    }

    public void restore() {
        glfwRestoreWindow(handle);
    }

    /** Destroys the surface (before the instance goes) and the window. */
    public void destroySurface() {
        if (surface != 0) {
            vkDestroySurfaceKHR(instance, surface, null);
            surface = 0;
        }
    }

    @Override
    public void close() {
        destroySurface();
        glfwDestroyWindow(handle);
        glfwTerminate();
        glfwSetErrorCallback(null);
        errors.free();
    }
}
