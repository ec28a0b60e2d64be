package dev.rebound.app;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.LoggerFactory;

/**
 * Adds the rotating log file under {@code <config-dir>/logs/} once the config directory is known. The only class that
 * talks to the logging backend; everything else logs through SLF4J.
 *
 * <p>The file is bounded: {@code rebound.log} rolls over at 10 MB or daily into gzipped files, which are kept 7 days
 * and 100 MB in all. It is written through a non-blocking queue of {@value #QUEUE_SIZE} events: a thread that logs
 * (a plugin flooding the log, say) never waits for the disk; when the queue is 80% full, INFO and lower events are
 * dropped, and when it is full, every new event is.
 */
final class LoggingSetup {
    static final int QUEUE_SIZE = 8192;

    private LoggingSetup() {}

    /**
     * Installs the per-plugin line limit ({@link PluginLogLimiter}) in front of every appender, once; it stays in
     * place for the life of the logging context.
     */
    static void limitPluginLines() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context
                && limiter(context).isEmpty()) {
            PluginLogLimiter limiter =
                    new PluginLogLimiter(PluginLogLimiter.DEFAULT_PER_SECOND, System::currentTimeMillis);
            limiter.setContext(context);
            limiter.start();
            context.addTurboFilter(limiter);
        }
    }

    /** Lets the line limit recognise plugin classes on threads that plugins started themselves. */
    static void identifyPlugins(Function<ClassLoader, Optional<String>> pluginOf) {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            limiter(context).ifPresent(limiter -> limiter.identifyPlugins(pluginOf));
        }
    }

    private static Optional<PluginLogLimiter> limiter(LoggerContext context) {
        return context.getTurboFilterList().stream()
                .filter(PluginLogLimiter.class::isInstance)
                .map(PluginLogLimiter.class::cast)
                .findFirst();
    }

    static LogFile addLogFile(Path logsDir) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return LogFile.NONE;
        }
        // Error texts go into the log: like every other file of the config directory, it is the owner's only. The
        // folder is made owner-only, the file itself is created 0600 before Logback opens it for appending, and the
        // file a rollover opens is made 0600 again (Logback creates it with the default mode). The archive a rollover
        // compresses is written in the background with the default mode, inside the owner-only folder; the next
        // rollover makes it 0600.
        ownerOnly(logsDir);
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n");

        RollingFileAppender<ILoggingEvent> file = new RollingFileAppender<>() {
            @Override
            public void rollover() {
                super.rollover();
                ownerOnlyFiles(logsDir);
            }
        };
        file.setContext(context);
        file.setName("FILE");
        file.setFile(logsDir.resolve("rebound.log").toString());
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(context);
        policy.setParent(file);
        policy.setFileNamePattern(
                logsDir.resolve("rebound.%d{yyyy-MM-dd}.%i.log.gz").toString());
        policy.setMaxFileSize(FileSize.valueOf("10MB"));
        policy.setMaxHistory(7);
        policy.setTotalSizeCap(FileSize.valueOf("100MB"));
        file.setRollingPolicy(policy);
        file.setEncoder(encoder);
        ownerOnlyFile(logsDir.resolve("rebound.log"));
        // Started by the queue's thread at the first line, not here (see StartOnFirstEvent below).
        StartOnFirstEvent<ILoggingEvent> deferred = StartOnFirstEvent.wrapping(context, file, () -> {
            encoder.start();
            policy.start();
            file.start();
        });

        AsyncAppender async = new AsyncAppender();
        async.setContext(context);
        async.setName("ASYNC_FILE");
        async.setQueueSize(QUEUE_SIZE);
        async.setNeverBlock(true);
        async.addAppender(deferred);
        async.start();

        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(async);
        return () -> {
            root.detachAppender(async);
            // Writes what is queued, then closes the file.
            async.stop();
        };
    }

    /** A log file added by {@link #addLogFile}: closing it writes what is queued and detaches it. */
    @FunctionalInterface
    interface LogFile extends AutoCloseable {
        /** No log file (another logging backend than Logback). */
        LogFile NONE = () -> {};

        @Override
        void close();
    }

    private static void ownerOnly(Path dir) {
        try {
            java.nio.file.Files.createDirectories(dir);
            if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                java.nio.file.Files.setPosixFilePermissions(
                        dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            }
        } catch (java.io.IOException | RuntimeException e) {
            LoggerFactory.getLogger(LoggingSetup.class).warn("Could not make {} owner-only: {}", dir, e.toString());
        }
    }

    /** Makes every file of the folder (the log and its archives) 0600. */
    private static void ownerOnlyFiles(Path dir) {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
            files.filter(java.nio.file.Files::isRegularFile).forEach(LoggingSetup::ownerOnlyFile);
        } catch (java.io.IOException | RuntimeException e) {
            LoggerFactory.getLogger(LoggingSetup.class).warn("Could not make {} owner-only: {}", dir, e.toString());
        }
    }

    /** Creates the file 0600 when it is missing, or makes it 0600. */
    private static void ownerOnlyFile(Path file) {
        try {
            if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                var ownerOnly = java.nio.file.attribute.PosixFilePermissions.fromString("rw-------");
                try {
                    java.nio.file.Files.createFile(
                            file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(ownerOnly));
                } catch (java.nio.file.FileAlreadyExistsException exists) {
                    java.nio.file.Files.setPosixFilePermissions(file, ownerOnly);
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            LoggerFactory.getLogger(LoggingSetup.class).warn("Could not make {} owner-only: {}", file, e.toString());
        }
    }

    /**
     * An appender that starts the appender it wraps at its first event instead of at once. Behind an {@code
     * AsyncAppender} that first event arrives on the queue's own thread, so the start leaves the app's start-up path: a
     * rolling file appender takes ~15 ms to start (its rolling calendar loads the locale's calendar data), on the main
     * thread of every start before this (docs/startup.md). No event is lost to the wait; they queue meanwhile. Meant for
     * one appending thread, as an {@code AsyncAppender}'s worker is.
     */
    static final class StartOnFirstEvent<E> extends UnsynchronizedAppenderBase<E> {
        private final Appender<E> target;
        private final Runnable start;
        private volatile boolean targetStarted;

        private StartOnFirstEvent(Appender<E> target, Runnable start) {
            this.target = target;
            this.start = start;
            setName(target.getName());
        }

        /**
         * A started wrapper of {@code target} in {@code context}, named as it is.
         *
         * @param target the appender events go to, configured but not started
         * @param start starts it (and whatever it needs started first, such as its encoder and rolling policy)
         */
        static <E> StartOnFirstEvent<E> wrapping(Context context, Appender<E> target, Runnable start) {
            StartOnFirstEvent<E> wrapper = new StartOnFirstEvent<>(target, start);
            wrapper.setContext(context);
            wrapper.start();
            return wrapper;
        }

        @Override
        protected void append(E event) {
            startTarget();
            target.doAppend(event);
        }

        /**
         * Starts the wrapped appender now, if it has not started yet, and returns it. An appender that does not start
         * (a log file that cannot be opened) is said once on stderr: Logback only records it in its status list.
         */
        synchronized Appender<E> startTarget() {
            if (!targetStarted) {
                targetStarted = true;
                start.run();
                if (!target.isStarted()) {
                    Console.errWriter()
                            .println("rebound: warning: the log " + target.getName()
                                    + " could not be started; its lines are not written (Logback: "
                                    + lastError() + ")");
                }
            }
            return target;
        }

        private String lastError() {
            return getContext() == null
                    ? "no detail"
                    : getContext().getStatusManager().getCopyOfStatusList().stream()
                            .filter(status -> status.getLevel() == ch.qos.logback.core.status.Status.ERROR)
                            .map(ch.qos.logback.core.status.Status::getMessage)
                            .reduce((first, later) -> later)
                            .orElse("no detail");
        }

        @Override
        public void stop() {
            super.stop();
            if (targetStarted) {
                target.stop();
            }
        }
    }
}
