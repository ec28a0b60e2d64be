package dev.rebound.app;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URL;
import java.time.ZoneId;
import java.util.Enumeration;

/**
 * Runs, on a second thread while the main one parses the command line and sets up logging, the JDK's slowest static
 * initialisers that every start needs a moment later (docs/startup.md, "What was cut"):
 *
 * <ul>
 *   <li>the class path's jars, each opened and its directory read (~9 ms for the twenty of them): the first lookup of
 *       a resource that is in none of them or in the last of them does it, and the logging set-up makes such lookups
 *       (the service files of SLF4J and Logback). This thread makes SLF4J's first;
 *   <li>the default time zone's rules (~4 ms): the app's clock, log lines and chat dates;
 *   <li>{@link BigDecimal}, ~10 ms on JDK 25 (it computes tables of powers of ten with {@code BigInteger}): Jackson's
 *       parser needs it for the first JSON read, the settings file.
 * </ul>
 *
 * Only JDK classes and a resource lookup, none of whose work needs the app's classes: the two threads share only the
 * JDK's class-initialisation locks and the class path's monitor, which the JDK takes in one order. A main thread that
 * gets somewhere first does that work itself, as without this.
 */
final class StartupPrefetch {
    private StartupPrefetch() {}

    /** Starts the work on a daemon thread and returns at once. */
    static void begin() {
        Thread.ofPlatform().daemon(true).name("rebound-prefetch").start(StartupPrefetch::run);
    }

    private static void run() {
        try {
            Enumeration<URL> found = ClassLoader.getSystemClassLoader().getResources(SLF4J_PROVIDERS);
            while (found.hasMoreElements()) {
                found.nextElement();
            }
        } catch (IOException e) {
            // The logging set-up reads the same files and reports what it cannot.
        }
        // In the order the main thread needs them: logging, the clock, the first JSON read.
        ZoneId.systemDefault().getRules();
        BigDecimal.ONE.signum();
    }

    private static final String SLF4J_PROVIDERS = "META-INF/services/org.slf4j.spi.SLF4JServiceProvider";
}
