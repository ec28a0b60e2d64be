package dev.rebound.app;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Adds the rotating log file under {@code <config-dir>/logs/} once the config directory is known. The only class that
 * talks to the logging backend; everything else logs through SLF4J.
 */
final class LoggingSetup {
    private LoggingSetup() {
    }

    static void addLogFile(Path logsDir) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n");
        encoder.start();

        RollingFileAppender<ILoggingEvent> file = new RollingFileAppender<>();
        file.setContext(context);
        file.setName("FILE");
        file.setFile(logsDir.resolve("rebound.log").toString());
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(context);
        policy.setParent(file);
        policy.setFileNamePattern(logsDir.resolve("rebound.%d{yyyy-MM-dd}.%i.log.gz").toString());
        policy.setMaxFileSize(FileSize.valueOf("10MB"));
        policy.setMaxHistory(7);
        policy.setTotalSizeCap(FileSize.valueOf("100MB"));
        policy.start();
        file.setRollingPolicy(policy);
        file.setEncoder(encoder);
        file.start();

        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(file);
    }
}
