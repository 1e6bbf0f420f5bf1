package dev.tally.internal.vk;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which fault a {@link VulkanContext} injects, from the configuration key
 * {@code debug.injectFault}. Spellings: {@code none}, {@code device-lost@N} (the N-th queue submission
 * of the context, and every one after it, fails with VK_ERROR_DEVICE_LOST) and {@code oom@N} (the N-th
 * buffer allocation fails with VK_ERROR_OUT_OF_DEVICE_MEMORY; later ones succeed), {@code out-of-date@N}
 * (every N-th swapchain acquire reports VK_ERROR_OUT_OF_DATE_KHR) and {@code suboptimal@N} (every N-th
 * present reports VK_SUBOPTIMAL_KHR). N counts from 1.
 *
 * @param at the submission or buffer allocation that fails (1-based); 0 for {@link Kind#NONE}
 */
record FaultPlan(Kind kind, long at) {
    enum Kind { NONE, DEVICE_LOST, OOM, OUT_OF_DATE, SUBOPTIMAL }

    static final FaultPlan NONE = new FaultPlan(Kind.NONE, 0);

    /** What {@link #parse} accepts, in words, for error messages. */
    static final String ALLOWED = "none, device-lost@N, oom@N, out-of-date@N or suboptimal@N with N >= 1 (the N-th queue "
            + "submission or buffer allocation fails; every N-th swapchain acquire is out of date, every N-th present suboptimal)";

    private static final Pattern SPEC = Pattern.compile("(device-lost|oom|out-of-date|suboptimal)@([0-9]{1,18})");

    FaultPlan {
        if (kind == null) {
            throw new IllegalArgumentException("fault kind is null");
        }
        if (kind == Kind.NONE ? at != 0 : at < 1) {
            throw new IllegalArgumentException("fault " + kind + " at " + at + ": expected " + ALLOWED);
        }
    }

    /** Parses {@code none}, {@code device-lost@N} or {@code oom@N}; anything else throws {@link IllegalArgumentException}. */
    static FaultPlan parse(String spec) {
        String s = spec == null ? "" : spec.strip();
        if (s.equals("none")) {
            return NONE;
        }
        Matcher m = SPEC.matcher(s);
        if (!m.matches() || Long.parseLong(m.group(2)) < 1) {
            throw new IllegalArgumentException("\"" + s + "\" is not a fault; expected " + ALLOWED);
        }
        Kind kind = switch (m.group(1)) {
            case "oom" -> Kind.OOM;
            case "out-of-date" -> Kind.OUT_OF_DATE;
            case "suboptimal" -> Kind.SUBOPTIMAL;
            default -> Kind.DEVICE_LOST;
        };
        return new FaultPlan(kind, Long.parseLong(m.group(2)));
    }

    /** The configuration spelling, e.g. {@code device-lost@50}. */
    String spec() {
        return switch (kind) {
            case NONE -> "none";
            case DEVICE_LOST -> "device-lost@" + at;
            case OOM -> "oom@" + at;
            case OUT_OF_DATE -> "out-of-date@" + at;
            case SUBOPTIMAL -> "suboptimal@" + at;
        };
    }

    @Override
    public String toString() {
        return spec();
    }
}
