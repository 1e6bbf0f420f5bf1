package dev.tally.demo.app;

import dev.tally.demo.present.Window;

import static org.lwjgl.glfw.GLFW.*;

/** The window's keys: H toggles the HUD, R resets exposure (a camera cut), F12 takes a screenshot, Esc quits. */
final class DemoKeys {
    private boolean hudVisible;
    private boolean resetRequested;
    private boolean screenshotRequested;

    DemoKeys(Window window, boolean hudVisible) {
        this.hudVisible = hudVisible;
        if (window != null) {
            glfwSetKeyCallback(window.handle(), (w, key, scancode, action, mods) -> {
                if (action != GLFW_PRESS) {
                    return;
                }
                switch (key) {
                    case GLFW_KEY_H -> this.hudVisible = !this.hudVisible;
                    case GLFW_KEY_R -> resetRequested = true;
                    case GLFW_KEY_F12 -> screenshotRequested = true;
                    case GLFW_KEY_ESCAPE -> glfwSetWindowShouldClose(w, true);
                    default -> {
                    }
                }
            });
        }
    }

    boolean hudVisible() {
        return hudVisible;
    }

    /** True once after F12 was pressed. */
    boolean takeScreenshot() {
        boolean r = screenshotRequested;
        screenshotRequested = false;
        return r;
    }

    /** True once after R was pressed. */
    boolean takeReset() {
        boolean r = resetRequested;
        resetRequested = false;
        return r;
    }
}
