package dev.tally.internal.graph;

import java.util.ArrayList;
import java.util.List;

/** How a frame's passes, each on its lane, become queue batches with their waits and signals. */
final class QueueBatches {
    private QueueBatches() {
    }

    /**
     * Runs of consecutive passes on one lane become batches. The first batch is on the main lane (empty
     * when the order starts on the async lane) and the async lane's first batch waits for it, so nothing
     * of this frame on the async queue overtakes earlier frames' work. The last batch is on the main lane
     * and waits for the async lane's last batch.
     */
    static List<QueueBatch> of(int[] laneOf, int[][] waitFor) {
        int n = laneOf.length;
        List<int[]> runs = new ArrayList<>();   // lane, first, end
        int[] batchOf = new int[n];
        runs.add(new int[]{QueueLanes.MAIN, 0, 0});
        for (int pos = 0; pos < n; pos++) {
            int[] last = runs.get(runs.size() - 1);
            if (last[0] != laneOf[pos]) {
                last = new int[]{laneOf[pos], pos, pos};
                runs.add(last);
            }
            last[2] = pos + 1;
            batchOf[pos] = runs.size() - 1;
        }
        if (runs.get(runs.size() - 1)[0] != QueueLanes.MAIN) {
            runs.add(new int[]{QueueLanes.MAIN, n, n});
        }
        int b = runs.size();
        int[][] waits = new int[b][2];
        for (int[] w : waits) {
            w[0] = -1;
            w[1] = -1;
        }
        boolean[] signals = new boolean[b];
        int firstAsync = -1, lastAsync = -1;
        for (int i = 0; i < b; i++) {
            if (runs.get(i)[0] == QueueLanes.ASYNC) {
                firstAsync = firstAsync < 0 ? i : firstAsync;
                lastAsync = i;
            }
        }
        for (int pos = 0; pos < n; pos++) {
            for (int lane = 0; lane < 2; lane++) {
                if (waitFor[pos][lane] == BarrierPlanner.NONE || lane == laneOf[pos]) {
                    continue;
                }
                int target = waitFor[pos][lane] == BarrierPlanner.ENTRY ? 0 : batchOf[waitFor[pos][lane]];
                int me = batchOf[pos];
                waits[me][lane] = Math.max(waits[me][lane], target);
            }
        }
        if (firstAsync >= 0) {
            waits[firstAsync][QueueLanes.MAIN] = Math.max(waits[firstAsync][QueueLanes.MAIN], 0);
            waits[b - 1][QueueLanes.ASYNC] = Math.max(waits[b - 1][QueueLanes.ASYNC], lastAsync);
        }
        List<QueueBatch> out = new ArrayList<>();
        for (int i = 0; i < b; i++) {
            for (int lane = 0; lane < 2; lane++) {
                if (waits[i][lane] >= 0) {
                    signals[waits[i][lane]] = true;
                }
            }
        }
        for (int i = 0; i < b; i++) {
            List<Integer> w = new ArrayList<>();
            for (int lane = 0; lane < 2; lane++) {
                if (waits[i][lane] >= 0) {
                    w.add(waits[i][lane]);
                }
            }
            int[] run = runs.get(i);
            out.add(new QueueBatch(i, run[0], run[1], run[2], List.copyOf(w), signals[i]));
        }
        return List.copyOf(out);
    }
}
