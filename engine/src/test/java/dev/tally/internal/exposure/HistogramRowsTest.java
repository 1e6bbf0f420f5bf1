package dev.tally.internal.exposure;

import dev.tally.exposure.ExposureShaderLayout;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Rows per histogram invocation chosen for one resident wave: every pixel row is covered, the grid is no
 * larger than the SMs hold at once (when the image allows), no band is wasted, and the rows are a whole
 * number of load batches.
 */
class HistogramRowsTest {

    @ParameterizedTest
    @CsvSource({"3840, 2160, 132", "1280, 720, 132", "160, 90, 132", "7680, 4320, 132", "1920, 1080, 16", "17, 700, 1", "3840, 2160, 1"})
    void oneWaveRowsCoverTheImageInOneResidentWave(int w, int h, int sms) {
        int rows = ExposureShaderLayout.oneWaveRows(w, h, sms);
        int[] groups = ExposureShaderLayout.histogramGroupCounts(w, h, rows);
        long tile = (long) ExposureShaderLayout.HISTOGRAM_GROUP_HEIGHT * rows;
        assertTrue(groups[1] * tile >= h, "every row covered");
        assertEquals(0, rows % ExposureShaderLayout.HISTOGRAM_LOAD_BATCH, "whole load batches");
        long slots = (long) sms * ExposureShaderLayout.HISTOGRAM_GROUPS_PER_SM;
        if (groups[0] <= slots) {
            assertTrue((long) groups[0] * groups[1] <= slots, groups[0] + " x " + groups[1] + " groups fit " + slots + " slots");
        }
        // One batch fewer would need more bands than one wave holds (or rows is already the minimum).
        int fewer = rows - ExposureShaderLayout.HISTOGRAM_LOAD_BATCH;
        if (fewer >= 1 && groups[0] <= slots) {
            int[] more = ExposureShaderLayout.histogramGroupCounts(w, h, fewer);
            assertTrue((long) more[0] * more[1] > slots, "the fewest rows that fit: " + fewer + " rows would fit too");
        }
    }

    @Test
    void at4KOnTheH200ItIs4BandsOf36RowsRoundedToTheBatch() {
        // 240 columns of groups, 1056 slots: 4 bands; 2160 / (16 x 4) = 33.75 -> 36 rows, nine batches of four.
        assertEquals(36, ExposureShaderLayout.oneWaveRows(3840, 2160, 132));
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ExposureShaderLayout.oneWaveRows(0, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> ExposureShaderLayout.oneWaveRows(10, 10, 0));
    }
}
