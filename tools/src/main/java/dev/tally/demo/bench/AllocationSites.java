package dev.tally.demo.bench;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a stretch of code allocates: a JFR recording of the JVM's allocation events (a new TLAB, or an object
 * outside one, each with its stack) around the code, aggregated by the first frame in Tally's own packages
 * ({@code dev.tally.}) of each stack. A diagnosis, not a measure: the events sample allocation at TLAB refills,
 * weighted by the TLAB's size, so run the JVM with small fixed TLABs ({@code -XX:TLABSize=2k -XX:-ResizeTLAB})
 * for a fine-grained picture.
 */
public final class AllocationSites {
    /** An allocation site: the first {@code dev.tally.} frame ("Class.method:line"), the allocated class and the sampled bytes. */
    public record Site(String frame, String type, long bytes) {
    }

    private static final String NEW_TLAB = "jdk.ObjectAllocationInNewTLAB";
    private static final String OUTSIDE_TLAB = "jdk.ObjectAllocationOutsideTLAB";

    private AllocationSites() {
    }

    /** Runs {@code work} under an allocation recording and returns its sites by sampled bytes, largest first. */
    public static List<Site> record(Runnable work) {
        try {
            Path file = Files.createTempFile("tally-alloc", ".jfr");
            try (Recording recording = new Recording()) {
                recording.enable(NEW_TLAB).withStackTrace();
                recording.enable(OUTSIDE_TLAB).withStackTrace();
                recording.start();
                work.run();
                recording.stop();
                recording.dump(file);
                return sites(file, Thread.currentThread().getName());
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new IllegalStateException("internal: could not record allocations: " + e.getMessage(), e);
        }
    }

    /** The sites of a recording's allocation events made on {@code threadName}, largest first. */
    static List<Site> sites(Path file, String threadName) throws IOException {
        Map<String, long[]> bytes = new HashMap<>();
        Map<String, Site> keys = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String name = e.getEventType().getName();
            if (!name.equals(NEW_TLAB) && !name.equals(OUTSIDE_TLAB)) {
                continue;
            }
            if (e.getThread() == null || !threadName.equals(e.getThread().getJavaName())) {
                continue;
            }
            long weight = name.equals(NEW_TLAB) ? e.getLong("tlabSize") : e.getLong("allocationSize");
            String frame = firstTallyFrame(e.getStackTrace());
            String type = e.getClass("objectClass").getName();
            String key = frame + " " + type;
            bytes.computeIfAbsent(key, k -> new long[1])[0] += weight;
            keys.putIfAbsent(key, new Site(frame, type, 0));
        }
        List<Site> out = new ArrayList<>();
        bytes.forEach((k, b) -> out.add(new Site(keys.get(k).frame(), keys.get(k).type(), b[0])));
        out.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
        return out;
    }

    private static String firstTallyFrame(RecordedStackTrace stack) {
        if (stack == null) {
            return "(no stack)";
        }
        for (RecordedFrame f : stack.getFrames()) {
            String type = f.getMethod().getType().getName();
            if (type.startsWith("dev.tally.") && !type.startsWith(AllocationSites.class.getName())) {
                return type.substring("dev.tally.".length()) + "." + f.getMethod().getName() + ":" + f.getLineNumber();
            }
        }
        List<RecordedFrame> frames = stack.getFrames();
        return frames.isEmpty() ? "(empty stack)" : frames.get(0).getMethod().getType().getName() + "." + frames.get(0).getMethod().getName();
    }

    /** The top {@code n} sites, one a line: share of the total, bytes, site, allocated class. */
    public static String describe(List<Site> sites, int n) {
        long total = sites.stream().mapToLong(Site::bytes).sum();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(n, sites.size()); i++) {
            Site s = sites.get(i);
            b.append(String.format(Locale.ROOT, "%5.1f%% %9d B  %s  (%s)%n", 100.0 * s.bytes() / Math.max(1, total), s.bytes(), s.frame(), s.type()));
        }
        return b.toString();
    }
}
