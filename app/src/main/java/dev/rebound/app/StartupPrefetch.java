package dev.rebound.app;

import java.math.BigDecimal;
import java.time.ZoneId;

/**
 * Runs, on a second thread while the main one parses the command line and sets up logging, the JDK's slowest static
 * initialisers that every start needs a moment later (docs/startup.md, "What was cut"):
 *
 * <ul>
 *   <li>{@link BigDecimal}, ~10 ms on JDK 25 (it computes tables of powers of ten with {@code BigInteger}): Jackson's
 *       parser needs it for the first JSON read, the settings file;
 *   <li>the default time zone's rules (~4 ms): the app's clock, log lines and chat dates.
 * </ul>
 *
 * Only JDK classes, whose initialisers do not depend on the app's, so the two threads cannot wait on each other; a
 * main thread that gets there first initialises them itself, as without this.
 */
final class StartupPrefetch {
    private StartupPrefetch() {}

    /** Starts the work on a daemon thread and returns at once. */
    static void begin() {
        Thread.ofPlatform().daemon(true).name("rebound-prefetch").start(StartupPrefetch::run);
    }

    private static void run() {
        BigDecimal.ONE.signum();
        ZoneId.systemDefault().getRules();
    }
}
