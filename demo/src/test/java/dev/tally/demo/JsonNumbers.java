package dev.tally.demo;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The first number under a key in the demo's JSON outputs (stats files, bench JSON); a missing key fails the test. */
final class JsonNumbers {
    private JsonNumbers() {
    }

    static double number(String json, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\": (-?[0-9.eE+-]+)").matcher(json);
        assertTrue(m.find(), () -> key + " missing in " + json);
        return Double.parseDouble(m.group(1));
    }
}
