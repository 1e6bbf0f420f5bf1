package dev.tally.demo.app;

import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.demo.present.Window;
import dev.tally.readback.Sample;

import java.util.Locale;
import java.util.Optional;

import static org.lwjgl.glfw.GLFW.glfwSetWindowTitle;

/** The window's title: frame rate and the applied exposure, refreshed with the status line. */
final class WindowTitle {
    private WindowTitle() {
    }

    static String text(long frames, double seconds, Optional<Sample> sample, int recordAt) {
        String ev = sample.map(s -> String.format(Locale.ROOT, "%.2f EV", s.floatAt(recordAt + ExposureShaderLayout.EV)))
                .orElse("no exposure sample yet");
        return String.format(Locale.ROOT, "Tally  %.1f fps  %s", frames / Math.max(seconds, 1e-9), ev);
    }

    static void show(Window window, long frames, double seconds, Optional<Sample> sample, int recordAt) {
        glfwSetWindowTitle(window.handle(), text(frames, seconds, sample, recordAt));
    }
}
