package dev.rebound.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** The used heap after full collections, for the benchmarks that compare heap with and without something held. */
final class HeapMeter {
    private HeapMeter() {
    }

    /** The least used heap after each of five full GCs, so garbage made meanwhile by other threads counts less. */
    static long usedAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            memory.gc();
            Thread.sleep(50);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
