package dev.rebound.example;

import dev.rebound.api.AutoRetryStart;
import dev.rebound.api.SessionEventListener;
import org.pf4j.Extension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs each retry Rebound schedules. The smallest useful plugin: the template of docs/plugins.md. */
@Extension
public final class AutoRetryLogger implements SessionEventListener {

    private static final Logger LOG = LoggerFactory.getLogger(AutoRetryLogger.class);

    @Override
    public void onAutoRetryStart(AutoRetryStart event) {
        LOG.info(
                "auto_retry_start: chat {} retry {}/{} in {} ms after a {} error from {}",
                event.session().id(),
                event.attempt(),
                event.maxAttempts(),
                event.delayMs(),
                event.errorKind(),
                event.model());
    }
}
