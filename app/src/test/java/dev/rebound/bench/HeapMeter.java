package dev.rebound.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.stream.Collectors;
import javax.management.ObjectName;

/** The used heap after full collections and what it holds, for the benchmarks that compare heaps. */
final class HeapMeter {
    private HeapMeter() {}

    /**
     * The first {@code lines} lines of the class histogram of live objects, as {@code jcmd GC.class_histogram} prints
     * it (two header lines, then the classes by bytes).
     */
    static String histogram(int lines) throws Exception {
        String all = (String) ManagementFactory.getPlatformMBeanServer()
                .invoke(
                        new ObjectName("com.sun.management:type=DiagnosticCommand"),
                        "gcClassHistogram",
                        new Object[] {null},
                        new String[] {String[].class.getName()});
        return all.lines().limit(lines).collect(Collectors.joining("\n"));
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
