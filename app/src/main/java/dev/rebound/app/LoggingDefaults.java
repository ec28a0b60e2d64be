package dev.rebound.app;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.hook.DefaultShutdownHook;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;
import ch.qos.logback.core.util.Duration;

/**
 * Logback's start-up configuration, in code: only warnings, to stderr, until the config directory is known and
 * {@link LoggingSetup#addLogFile} adds the log file. stdout is reserved for RPC frames and print-mode output.
 *
 * <p>Found by Logback through {@code META-INF/services}; it replaces a {@code logback.xml}, whose parsing (the JDK's
 * XML parser and Logback's Joran model) cost about a third of a second of every start. When the user or a test names
 * a configuration ({@code -Dlogback.configurationFile}, or a {@code logback-test.xml} on the class path), it steps
 * aside and Logback configures itself from that file as usual.
 *
 * <p>It carries no {@code @ConfiguratorRank}: it is the only configurator on the class path, so its rank orders
 * nothing, and reading the annotation made the JVM generate two proxy classes at every start (~4 ms).
 */
public final class LoggingDefaults extends ContextAwareBase implements Configurator {
    /** Warnings queued for stderr before new ones are dropped: a thread that logs never waits for a slow reader. */
    static final int STDERR_QUEUE = 1024;

    /** Made by Logback's service lookup. */
    public LoggingDefaults() {}

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || LoggingDefaults.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.NEUTRAL;
        }
        NopStatusListener quiet = new NopStatusListener();
        context.getStatusManager().add(quiet);

        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%n");
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        // Started by the queue's thread at the first warning, if any (the pattern's date format alone took ~5 ms).
        LoggingSetup.StartOnFirstEvent<ILoggingEvent> deferred =
                LoggingSetup.StartOnFirstEvent.wrapping(context, stderr, () -> {
                    encoder.start();
                    stderr.start();
                });

        ThresholdFilter warnings = new ThresholdFilter();
        warnings.setLevel(Level.WARN.levelStr);
        warnings.start();
        AsyncAppender async = new AsyncAppender();
        async.setContext(context);
        async.setName("WARNINGS_TO_STDERR");
        async.addFilter(warnings);
        async.setQueueSize(STDERR_QUEUE);
        async.setNeverBlock(true);
        async.addAppender(deferred);
        async.start();

        context.getLogger("okhttp3").setLevel(Level.INFO);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(async);

        // Stops the context when the JVM exits, so queued lines are written out.
        DefaultShutdownHook hook = new DefaultShutdownHook();
        hook.setContext(context);
        hook.setDelay(Duration.buildByMilliseconds(0));
        Runtime.getRuntime().addShutdownHook(new Thread(hook, "logback-shutdown"));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
