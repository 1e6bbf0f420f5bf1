package dev.tally.examples.embed;

import dev.tally.Frame;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.config.ConfigException;
import dev.tally.exposure.AutoExposure;
import dev.tally.exposure.ExposureShaderLayout;
import dev.tally.graph.Access;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.ImageHandle;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferSubmitInfo;
import org.lwjgl.vulkan.VkSubmitInfo2;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static dev.tally.examples.embed.Renderer.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.system.MemoryUtil.memPutAddress;
import static org.lwjgl.vulkan.VK13.VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO;
import static org.lwjgl.vulkan.VK10.vkEndCommandBuffer;
import static org.lwjgl.vulkan.VK13.nvkQueueSubmit2;

/**
 * A renderer with its own Vulkan device, command buffers, fences, render targets and queue submits,
 * to which Tally adds auto-exposure and a readback counter per view. One or two views (a split screen
 * of two sizes) share one Tally frame graph.
 * <pre>
 * EmbedExample [--views 1|2] [--frames N] [--json FILE] [--validate] [--expect-clean]
 * </pre>
 * {@code --expect-clean} (with {@code --validate}) exits 1 unless every view's readback is exactly
 * {@code readback.slots} frames late, brings back the view's pixel count and statistics of its bins that
 * match the bins brought back with them, and the validation layer said nothing.
 */
public final class EmbedExample {
    static final float DT = 1f / 60;
    private static final int[][] VIEW_SIZES = {{320, 180}, {160, 120}};

    /** The renderer's frame loop with Tally added: auto-exposure and a readback counter for each view. */
    static void renderFrames(Renderer renderer, Tally tally, List<View> views, long first, long end) {
        for (long f = first; f < end; f++) {
            VkCommandBuffer cmd = renderer.beginCommands(f);    // waits on this slot's fence: two frames in flight
            Frame frame = tally.beginFrame();                   // delivers the readbacks that are due; never waits
            for (int i = 0; i < views.size(); i++) {           // by index: an iterator per frame would be garbage
                View v = views.get(i);
                v.draw(cmd, f);                                 // the renderer's own scene pass into its HDR target
                ImageHandle hdr = frame.graph().importImage(v.hdrName, v.target, Access.COLOR_ATTACHMENT, Access.COLOR_ATTACHMENT);
                AutoExposure.Result r = v.exposure.add(frame.graph(), hdr, DT);
                BufferHandle binStats = v.binStats.add(frame.graph(), r.bins(), ExposureShaderLayout.BINS);   // min, max, mean of the bins
                v.readback.capture(frame.graph(), v.capture(r, binStats));   // total, exposure, bins, their statistics: 3 frames from now
            }
            frame.record(cmd);                                  // Tally's passes, after the renderer's, in the same command buffer
            check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
            try (MemoryStack stack = stackPush()) {
                long commands = stack.ncalloc(VkCommandBufferSubmitInfo.ALIGNOF, 1, VkCommandBufferSubmitInfo.SIZEOF);   // by address: no wrapper
                VkCommandBufferSubmitInfo.nsType(commands, VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO);
                memPutAddress(commands + VkCommandBufferSubmitInfo.COMMANDBUFFER, cmd.address());
                VkSubmitInfo2 submit = renderer.submitInfo();
                VkSubmitInfo2.ncommandBufferInfoCount(submit.address(), 1);
                memPutAddress(submit.address() + VkSubmitInfo2.PCOMMANDBUFFERINFOS, commands);
                frame.signal(submit, stack);                    // adds Tally's timeline signal to the renderer's own submit
                check(nvkQueueSubmit2(renderer.queue(), 1, submit.address(), renderer.fence(f)), "vkQueueSubmit2");
            }
        }
    }

    /** The command line. */
    record Options(int views, long frames, Path json, boolean validate, boolean expectClean) {
        static final String USAGE = "usage: EmbedExample [--views 1|2] [--frames N] [--json FILE] [--validate] [--expect-clean]";

        static Options parse(String[] args) {
            int views = 1;
            long frames = 120;
            Path json = null;
            boolean validate = false;
            boolean expectClean = false;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--views" -> {
                        String v = value(args, i++, a);
                        if (!v.equals("1") && !v.equals("2")) {
                            throw new IllegalArgumentException("--views: '" + v + "'; expected 1 or 2");
                        }
                        views = Integer.parseInt(v);
                    }
                    case "--frames" -> {
                        String v = value(args, i++, a);
                        try {
                            frames = Long.parseLong(v);
                        } catch (NumberFormatException e) {
                            frames = -1;
                        }
                        if (frames < 1 || frames > 1_000_000) {
                            throw new IllegalArgumentException("--frames: '" + v + "'; expected a whole number in 1..1000000");
                        }
                    }
                    case "--json" -> json = callerPath(value(args, i++, a));
                    case "--validate" -> validate = true;
                    case "--expect-clean" -> expectClean = true;
                    default -> throw new IllegalArgumentException("unknown option '" + a + "'; " + USAGE);
                }
            }
            if (expectClean && !validate) {
                throw new IllegalArgumentException("--expect-clean needs --validate (a clean run is one the validation layer watched)");
            }
            if (json != null) {
                checkOutput(json);
            }
            return new Options(views, frames, json, validate, expectClean);
        }

        /**
         * A relative name is the caller's: the launcher runs this from the repository and passes the
         * directory it was called from in TALLY_CALLER_DIR.
         */
        private static Path callerPath(String name) {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("--json: empty file name; give the file to write");
            }
            Path p = Path.of(name);
            String caller = System.getenv("TALLY_CALLER_DIR");
            return p.isAbsolute() || caller == null || caller.isEmpty() ? p : Path.of(caller).resolve(p);
        }

        /** Checked before the run, so a mistake costs no results: a file name in a writable directory. */
        private static void checkOutput(Path json) {
            Path absolute = json.toAbsolutePath().normalize();
            if (Files.isDirectory(absolute)) {
                throw new IllegalArgumentException("--json " + json + ": is a directory, expected a file name (e.g. " + json.resolve("example.json") + ")");
            }
            Path dir = absolute.getParent();
            if (dir == null || !Files.isDirectory(dir)) {
                throw new IllegalArgumentException("--json " + json + ": directory '" + dir + "' does not exist");
            }
            if (!Files.isWritable(dir)) {
                throw new IllegalArgumentException("--json " + json + ": directory '" + dir + "' is not writable");
            }
        }

        private static String value(String[] args, int i, String option) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value; " + USAGE);
            }
            return args[i + 1];
        }
    }

    public static void main(String[] args) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(Options.USAGE);
            return;
        }
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("example: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            System.exit(run(options));
        } catch (Renderer.SetupException | ConfigException e) {
            System.err.println("example: " + e.getMessage());
            System.exit(2);
        } catch (IOException e) {
            System.err.println("example: I/O error: " + e.getMessage());
            System.exit(2);
        } catch (RuntimeException e) {
            System.err.println("example: internal error: " + e + "; " + writeTrace(e));
            System.exit(1);
        }
    }

    /** The stack trace of an internal error, in a file the one-line message names. */
    private static String writeTrace(Throwable e) {
        try {
            Path file = Files.createTempFile("tally-example-bug-", ".txt");
            java.io.StringWriter trace = new java.io.StringWriter();
            e.printStackTrace(new java.io.PrintWriter(trace, true));
            Files.writeString(file, trace.toString(), StandardCharsets.UTF_8);
            return "stack trace in " + file;
        } catch (IOException | RuntimeException failed) {
            return "the stack trace could not be written (" + failed.getMessage() + ")";
        }
    }

    static int run(Options options) throws IOException {
        Report report;
        AllocatedBytes allocated = new AllocatedBytes();
        long jitMillis = -1;
        Config config = Config.load(null, List.of("frames.inFlight=" + Renderer.FRAMES_IN_FLIGHT));
        try (Renderer renderer = new Renderer(options.validate())) {
            List<View> views = new ArrayList<>();
            try (Tally tally = Tally.wrap(config, renderer.host())) {
                try {
                    for (int i = 0; i < options.views(); i++) {
                        views.add(new View(renderer, tally, i == 0 ? "left" : "right", VIEW_SIZES[i][0], VIEW_SIZES[i][1]));
                    }
                    // The second half is measured: what the frame thread allocates once the loop runs steadily.
                    long warm = options.frames() / 2;
                    renderFrames(renderer, tally, views, 0, warm);
                    long jitBefore = AllocatedBytes.jitMillis();
                    for (long f = warm; f < options.frames(); f++) {   // frame by frame: how many allocated, not just how much
                        allocated.frameBegins();
                        renderFrames(renderer, tally, views, f, f + 1);
                        allocated.frameEnded();
                    }
                    jitMillis = jitBefore < 0 ? -1 : AllocatedBytes.jitMillis() - jitBefore;
                    check(org.lwjgl.vulkan.VK10.vkDeviceWaitIdle(renderer.device()), "vkDeviceWaitIdle");
                } finally {
                    views.forEach(View::close);
                }
            } finally {
                views.forEach(View::destroyImage);   // after Tally closed: it destroyed its views of them
            }
            report = new Report(options.frames(), config.integer("readback.slots"), views, renderer, allocated, jitMillis);
        }
        // The renderer is closed: messages the layer gave while destroying the device and instance are counted.
        report = report.withValidation();
        System.out.println(report.summary());
        if (options.json() != null) {
            writeAtomically(options.json(), report.json());
        }
        if (options.expectClean()) {
            List<String> problems = report.problems();
            problems.forEach(p -> System.err.println("example: not clean: " + p));
            return problems.isEmpty() ? 0 : 1;
        }
        return 0;
    }

    /**
     * Whole or not at all: a temporary file beside the target (created with the default permissions, so
     * the output follows the umask), then renamed over it; the temporary file never stays behind.
     */
    private static void writeAtomically(Path target, String text) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path tmp = absolute.resolveSibling("." + absolute.getFileName() + "." + Long.toHexString(System.nanoTime()) + ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE_NEW);
            Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** What the run measured, per view and for the validation layer. */
    static final class Report {
        /** histogramTotal: the histogram's bins added up (its count of the pixels), never a normalized sum. */
        record ViewResult(String name, int width, int height, double ev, double histogramTotal, long lagFrames, long samples,
                          double lastValue, long lastValueFrame, String binStatsMismatch) {
        }

        private final long frames;
        private final int slots;
        private final List<ViewResult> views = new ArrayList<>();
        private final Renderer renderer;
        /** Bytes the frame thread allocated per frame over the run's second half; -1 where the JVM cannot count them. */
        private final double bytesPerFrame;
        /** Of the second half's frames, how many allocated anything, and the most one did (-1: not countable). */
        private final long framesThatAllocated;
        private final long mostInOneFrame;
        private final long measuredFrames;
        /** Milliseconds the JIT compiled during the measured half (-1: not measurable): bytes it made there are the JIT's, once. */
        private final long jitMillis;
        private int errors;
        private int warnings;

        Report(long frames, int slots, List<View> from, Renderer renderer, AllocatedBytes allocated, long jitMillis) {
            this.frames = frames;
            this.bytesPerFrame = allocated.perFrame();
            this.framesThatAllocated = allocated.framesThatAllocated();
            this.mostInOneFrame = allocated.mostInOneFrame();
            this.measuredFrames = frames - frames / 2;
            this.jitMillis = jitMillis;
            this.slots = slots;
            this.renderer = renderer;
            for (View v : from) {
                views.add(!v.hasSample()
                        ? new ViewResult(v.name, v.width, v.height, Double.NaN, Double.NaN, -1, 0, Double.NaN, -1, null)
                        : new ViewResult(v.name, v.width, v.height, v.lastEv(), v.lastHistogramTotal(), v.lastLag(), v.samples(),
                        v.lastTotal(), v.lastFrame(), v.binStatsMismatch()));
            }
        }

        Report withValidation() {
            errors = renderer.validationErrors();
            warnings = renderer.validationWarnings();
            return this;
        }

        /** Every way the run differs from what the embedding promises; empty when clean. */
        List<String> problems() {
            List<String> out = new ArrayList<>();
            for (ViewResult v : views) {
                long pixels = (long) v.width() * v.height();
                if (v.lagFrames() != slots) {
                    out.add("view '" + v.name() + "': readback lag " + v.lagFrames() + " frames, expected " + slots);
                }
                if (v.lastValue() != pixels) {
                    out.add("view '" + v.name() + "': readback value " + v.lastValue() + ", expected its pixel count " + pixels);
                }
                if (v.histogramTotal() != pixels) {
                    out.add("view '" + v.name() + "': histogram total " + v.histogramTotal() + ", expected its pixel count " + pixels);
                }
                if (v.binStatsMismatch() != null) {
                    out.add("view '" + v.name() + "': " + v.binStatsMismatch());
                }
                if (v.lastValueFrame() != frames - 1 - slots || v.samples() != frames - slots) {
                    out.add("view '" + v.name() + "': " + v.samples() + " samples, the last from frame " + v.lastValueFrame()
                            + "; expected " + (frames - slots) + ", the last from frame " + (frames - 1 - slots));
                }
            }
            if (errors + warnings != 0) {
                out.add("validation: " + errors + " errors, " + warnings + " warnings");
            }
            return out;
        }

        String summary() {
            StringBuilder s = new StringBuilder();
            s.append(frames).append(" frames");
            for (ViewResult v : views) {
                s.append(String.format(Locale.ROOT, "; %s %dx%d: EV %.3f, %d samples %d frames late, last count %.0f (frame %d)",
                        v.name(), v.width(), v.height(), v.ev(), v.samples(), v.lagFrames(), v.lastValue(), v.lastValueFrame()));
            }
            s.append(String.format(Locale.ROOT, "; %.1f bytes allocated per frame (second half", bytesPerFrame));
            if (framesThatAllocated >= 0) {
                s.append(": ").append(framesThatAllocated).append(" of ").append(measuredFrames).append(" frames allocated, at most ")
                        .append(mostInOneFrame).append(" B");
            }
            s.append(jitMillis > 0 ? ", while the JIT compiled for " + jitMillis + " ms)" : ")");
            return s.append("; validation ").append(errors).append(" errors, ").append(warnings).append(" warnings").toString();
        }

        String json() {
            StringBuilder s = new StringBuilder("{\n  \"frames\": ").append(frames).append(",\n  \"views\": [");
            for (int i = 0; i < views.size(); i++) {
                ViewResult v = views.get(i);
                s.append(i == 0 ? "\n" : ",\n").append(String.format(Locale.ROOT,
                        "    {\"name\": \"%s\", \"width\": %d, \"height\": %d, \"ev\": %s, \"histogramTotal\": %s, "
                                + "\"readback\": {\"lagFrames\": %d, \"samples\": %d, \"lastValue\": %s, \"lastValueFrame\": %d}}",
                        v.name(), v.width(), v.height(), number(v.ev()), number(v.histogramTotal()), v.lagFrames(), v.samples(),
                        number(v.lastValue()), v.lastValueFrame()));
            }
            return s.append("\n  ],\n  \"allocatedBytesPerFrame\": ").append(number(bytesPerFrame))
                    .append(",\n  \"framesThatAllocated\": ").append(framesThatAllocated)
                    .append(",\n  \"measuredFrames\": ").append(measuredFrames)
                    .append(",\n  \"mostBytesInOneFrame\": ").append(mostInOneFrame)
                    .append(",\n  \"jitMillisWhileMeasured\": ").append(jitMillis)
                    .append(",\n  \"validation\": {\"errors\": ").append(errors).append(", \"warnings\": ").append(warnings)
                    .append("}\n}\n").toString();
        }

        /** JSON has no NaN: a view that never got a sample reports null. */
        private static String number(double v) {
            return Double.isFinite(v) ? (v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v)) : "null";
        }
    }
}
