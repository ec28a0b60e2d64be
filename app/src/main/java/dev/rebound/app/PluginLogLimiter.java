package dev.rebound.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/**
 * Keeps a plugin that floods the log from pushing the app's own lines out of the log queues: each plugin may log at
 * most {@code perSecond} lines in each second of the clock; the rest of that second's lines are dropped before they
 * reach any appender, and the plugin's next line after it is preceded by one line saying how many were suppressed.
 *
 * <p>A line is a plugin's when it is logged on the plugin's delivery thread ({@code rebound-plugin-<id>}), or, on any
 * other thread, when a class of the plugin (found by its class loader, see {@link #identifyPlugins}) is on the stack.
 * Only enabled lines are looked at, and the stack only off the delivery threads, so the app's disabled debug calls
 * cost nothing more.
 */
final class PluginLogLimiter extends TurboFilter {
    /** The lines per second a plugin may log when nothing else is configured. */
    static final int DEFAULT_PER_SECOND = 200;

    private static final String DELIVERY_THREAD = "rebound-plugin-";
    private static final String LOADER_THREAD = "rebound-plugin-loader";
    private static final Marker SUMMARY = MarkerFactory.getMarker("REBOUND_PLUGIN_LOG_LIMIT");
    private static final StackWalker STACK = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private final int perSecond;
    private final LongSupplier millis;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private volatile Function<ClassLoader, Optional<String>> pluginOf = loader -> Optional.empty();

    /**
     * @param perSecond the lines each plugin may log per second
     * @param millis the wall clock in milliseconds, like {@link System#currentTimeMillis()}
     */
    PluginLogLimiter(int perSecond, LongSupplier millis) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("perSecond must be positive: " + perSecond);
        }
        this.perSecond = perSecond;
        this.millis = Objects.requireNonNull(millis, "millis");
        setName("PLUGIN_LOG_LIMIT");
    }

    /** Tells which plugin, if any, a class loader belongs to; until then only delivery threads are recognised. */
    void identifyPlugins(Function<ClassLoader, Optional<String>> pluginOf) {
        this.pluginOf = Objects.requireNonNull(pluginOf, "pluginOf");
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (marker == SUMMARY
                || format == null && t == null
                || level == null
                || !level.isGreaterOrEqual(logger.getEffectiveLevel())) {
            return FilterReply.NEUTRAL; // the limiter's own line, an isEnabled() check, or a line not logged anyway
        }
        Optional<String> plugin = pluginOfCaller();
        if (plugin.isEmpty()) {
            return FilterReply.NEUTRAL;
        }
        Window window = windows.computeIfAbsent(plugin.get(), Window::new);
        return window.admit(logger) ? FilterReply.NEUTRAL : FilterReply.DENY;
    }

    private Optional<String> pluginOfCaller() {
        String thread = Thread.currentThread().getName();
        if (thread.startsWith(DELIVERY_THREAD) && !thread.equals(LOADER_THREAD)) {
            return Optional.of(thread.substring(DELIVERY_THREAD.length()));
        }
        Function<ClassLoader, Optional<String>> resolver = pluginOf;
        return STACK.walk(frames -> frames.map(
                        frame -> resolver.apply(frame.getDeclaringClass().getClassLoader()))
                .flatMap(Optional::stream)
                .findFirst());
    }

    /** One plugin's count in the current second. */
    private final class Window {
        private final String plugin;
        private long second = Long.MIN_VALUE;
        private int admitted;
        private long suppressed;

        Window(String plugin) {
            this.plugin = plugin;
        }

        boolean admit(Logger logger) {
            long dropped;
            boolean admit;
            synchronized (this) {
                long now = Math.floorDiv(millis.getAsLong(), 1000);
                dropped = 0;
                if (now != second) {
                    dropped = suppressed;
                    second = now;
                    admitted = 0;
                    suppressed = 0;
                }
                admit = admitted < perSecond;
                if (admit) {
                    admitted++;
                } else {
                    suppressed++;
                }
            }
            if (dropped > 0) {
                logger.getLoggerContext()
                        .getLogger(PluginLogLimiter.class)
                        .info(
                                SUMMARY,
                                "plugin {}: {} lines suppressed (a plugin may log {} lines per second)",
                                plugin,
                                dropped,
                                perSecond);
            }
            return admit;
        }
    }
}
