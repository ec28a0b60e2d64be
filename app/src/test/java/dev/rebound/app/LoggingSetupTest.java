package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.TimeBasedRollingPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The log file is the owner's only, also the one a rollover opens. */
class LoggingSetupTest {
    @TempDir
    Path logs;

    private String mode(Path file) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    @Test
    void theLogAndTheFileARolloverOpensAreOwnerOnly() throws Exception {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        // The appender this call adds: in a JVM where other tests started the app's services, the root logger holds
        // their log files too, under the same names.
        java.util.Set<ch.qos.logback.core.Appender<ILoggingEvent>> before = new java.util.HashSet<>();
        root.iteratorForAppenders().forEachRemaining(before::add);
        LoggingSetup.addLogFile(logs);
        java.util.List<ch.qos.logback.core.Appender<ILoggingEvent>> added = new java.util.ArrayList<>();
        root.iteratorForAppenders().forEachRemaining(appender -> {
            if (!before.contains(appender)) {
                added.add(appender);
            }
        });
        assertThat(added).singleElement().isInstanceOf(AsyncAppender.class);
        AsyncAppender async = (AsyncAppender) added.getFirst();
        @SuppressWarnings("unchecked")
        LoggingSetup.StartOnFirstEvent<ILoggingEvent> deferred =
                (LoggingSetup.StartOnFirstEvent<ILoggingEvent>) async.getAppender("FILE");
        RollingFileAppender<ILoggingEvent> file = (RollingFileAppender<ILoggingEvent>) deferred.startTarget();
        try {
            Path log = logs.resolve("rebound.log");
            assertThat(mode(logs)).isEqualTo("rwx------");
            assertThat(mode(log)).isEqualTo("rw-------");
            assertThat(file.isStarted()).isTrue();

            // A day later, the next line rolls the file over (as at midnight).
            TimeBasedRollingPolicy<?> policy = (TimeBasedRollingPolicy<?>) file.getRollingPolicy();
            policy.getTimeBasedFileNamingAndTriggeringPolicy()
                    .setCurrentTime(System.currentTimeMillis() + 2 * 24 * 3_600_000L);
            file.doAppend(new LoggingEvent(
                    LoggingSetupTest.class.getName(), root, Level.WARN, "the line after midnight", null, null));

            assertThat(log).exists();
            try (var rolled = Files.list(logs)) {
                assertThat(rolled.map(f -> f.getFileName().toString()))
                        .as("the file was rolled over")
                        .anyMatch(n -> n.startsWith("rebound.") && !n.equals("rebound.log"));
            }
            assertThat(mode(log)).as("the file the rollover opened").isEqualTo("rw-------");
        } finally {
            root.detachAppender(async);
            async.stop();
            file.stop();
        }
    }

    @Test
    void theFileAppenderStartsAtTheFirstLineAndWritesIt() throws Exception {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        FileAppender<ILoggingEvent> file = messageLines(context, logs.resolve("deferred.log"));
        AtomicInteger starts = new AtomicInteger();
        LoggingSetup.StartOnFirstEvent<ILoggingEvent> deferred =
                LoggingSetup.StartOnFirstEvent.wrapping(context, file, () -> {
                    starts.incrementAndGet();
                    file.start();
                });
        assertThat(file.isStarted()).as("not started before a line").isFalse();
        assertThat(logs.resolve("deferred.log")).doesNotExist();

        deferred.doAppend(new LoggingEvent(LoggingSetupTest.class.getName(), root, Level.INFO, "first", null, null));
        deferred.doAppend(new LoggingEvent(LoggingSetupTest.class.getName(), root, Level.INFO, "second", null, null));
        deferred.stop();

        assertThat(starts).hasValue(1);
        assertThat(Files.readAllLines(logs.resolve("deferred.log"))).containsExactly("first", "second");
        assertThat(file.isStarted()).as("stopped with its wrapper").isFalse();
    }

    @Test
    void anAppenderThatCannotStartIsSaidOnceOnStderr() throws Exception {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Path notAFolder = Files.writeString(logs.resolve("plain-file"), "x");
        FileAppender<ILoggingEvent> file = messageLines(context, notAFolder.resolve("cannot.log"));
        LoggingSetup.StartOnFirstEvent<ILoggingEvent> deferred =
                LoggingSetup.StartOnFirstEvent.wrapping(context, file, file::start);

        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream original = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            deferred.doAppend(new LoggingEvent(LoggingSetupTest.class.getName(), root, Level.INFO, "one", null, null));
            deferred.doAppend(new LoggingEvent(LoggingSetupTest.class.getName(), root, Level.INFO, "two", null, null));
        } finally {
            System.setErr(original);
            deferred.stop();
        }
        String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(said).contains("rebound: warning: the log FILE could not be started");
        assertThat(said.lines().filter(line -> line.contains("could not be started")))
                .hasSize(1);
    }

    @Test
    void aLineLoggedBeforeTheFileStartsIsInTheFileOnceItIsClosedAndLaterLinesAreNot() throws Exception {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        java.util.Set<ch.qos.logback.core.Appender<ILoggingEvent>> before = new java.util.HashSet<>();
        root.iteratorForAppenders().forEachRemaining(before::add);
        LoggingSetup.LogFile handle = LoggingSetup.addLogFile(logs);
        AsyncAppender async = null;
        for (var it = root.iteratorForAppenders(); it.hasNext(); ) {
            var appender = it.next();
            if (!before.contains(appender)) {
                async = (AsyncAppender) appender;
            }
        }
        assertThat(async).isNotNull();
        // Straight to the new appender: other tests' appenders on the root logger must not see the line.
        async.doAppend(new LoggingEvent(
                LoggingSetupTest.class.getName(), root, Level.WARN, "the very first line", null, null));
        handle.close();

        assertThat(Files.readString(logs.resolve("rebound.log"))).contains("the very first line");
        assertThat(root.isAttached(async))
                .as("closing the log file detaches it")
                .isFalse();
        assertThat(async.isStarted()).isFalse();
        // A later line of the process, logged through the root logger, no longer reaches this directory.
        LoggerFactory.getLogger(LoggingSetupTest.class).warn("a line after the services closed");
        assertThat(Files.readString(logs.resolve("rebound.log"))).doesNotContain("a line after the services closed");
    }

    /** A file appender named FILE writing each event's message as a line to {@code path}, configured, not started. */
    private static FileAppender<ILoggingEvent> messageLines(LoggerContext context, Path path) {
        FileAppender<ILoggingEvent> file = new FileAppender<>();
        file.setContext(context);
        file.setName("FILE");
        file.setFile(path.toString());
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%msg%n");
        encoder.start();
        file.setEncoder(encoder);
        return file;
    }
}
