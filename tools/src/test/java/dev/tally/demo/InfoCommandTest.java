package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** {@code ./tally info}: the device list is printed even when --device names no device. */
class InfoCommandTest {
    @TempDir
    static Path cache;

    private static List<String> deviceLines(Cli.Run r) {
        return r.outLines().stream().filter(l -> l.matches(" {2}\\d+: .*")).toList();
    }

    @Test
    void aDeviceIndexThatDoesNotExistListsTheDevicesAndSaysSo() {
        Cli.Run plain = ToolsCli.run("info", "--set", "cache.dir=" + cache);
        assertEquals(0, plain.status(), plain::toString);
        List<String> devices = deviceLines(plain);
        assertFalse(devices.isEmpty(), plain::toString);
        // lavapipe offers hostQueryReset and Tally's own device enables it
        assertTrue(plain.out().contains("timestamp queries: reset from the host (hostQueryReset)"), plain::toString);
        int missing = devices.size() + 6;   // 7 on a machine with one device

        Cli.Run r = ToolsCli.run("info", "--device", Integer.toString(missing), "--set", "cache.dir=" + cache);
        assertEquals(0, r.status(), r::toString);
        assertEquals("", r.err(), r::toString);
        assertEquals(devices, deviceLines(r), "the same list as without --device");
        assertTrue(r.out().contains("device index " + missing + " does not exist"), r::toString);
        assertTrue(r.out().contains("chosen "), r::toString);
    }

    @Test
    void aNameMatchingNoDeviceIsReportedTheSameWay() {
        Cli.Run r = ToolsCli.run("info", "--device", "no-such-gpu", "--set", "cache.dir=" + cache);
        assertEquals(0, r.status(), r::toString);
        assertFalse(deviceLines(r).isEmpty(), r::toString);
        assertTrue(r.out().contains("no device name contains 'no-such-gpu'"), r::toString);
    }

    @Test
    void otherCommandsStillRefuseAMissingDevice() {
        Cli.Run r = ToolsCli.run("reduce", "--device", "7", "--set", "cache.dir=" + cache, "-");
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().startsWith("tally reduce: vulkan: device '7'"), r::toString);
    }
}
