package dev.rebound.app;

import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.CredentialSwitched;
import dev.rebound.event.Notice;
import dev.rebound.event.RetryFallbackApplied;
import dev.rebound.event.RetryFallbackReverted;
import dev.rebound.event.SessionEvent;
import java.util.Locale;
import java.util.Optional;

/** The lines print mode writes to stderr while a reply streams to stdout: notices, retries, fallbacks, switches. */
final class PrintModeNotices {
    private PrintModeNotices() {}

    static Optional<String> describe(SessionEvent event) {
        return Optional.ofNullable(
                switch (event) {
                    case Notice n -> n.level() + ": " + n.message();
                    case AutoRetryStart s ->
                        String.format(
                                Locale.ROOT,
                                "retrying (%d/%d) in %.1fs: %s",
                                s.attempt(),
                                s.maxAttempts(),
                                s.delayMs() / 1000.0,
                                s.errorMessage());
                    case RetryFallbackApplied f -> "falling back from " + f.from() + " to " + f.to();
                    case RetryFallbackReverted r -> "back on " + r.to();
                    case CredentialSwitched c ->
                        "switched " + c.provider() + " credential from " + c.from() + " to " + c.to();
                    default -> null;
                });
    }
}
